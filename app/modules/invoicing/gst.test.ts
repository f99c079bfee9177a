import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { invoiceGst, shareOut } from "./gst";

const line = (...amounts: Array<string | number>) => ({ costs: amounts.map((amount) => ({ category: "freight_charge", amount })) });

describe("invoiceGst", () => {
  it("Australia 10 %, New Zealand 15 %, the United States none", () => {
    expect(invoiceGst("AUSTRALIA", [line("100.00")])).toMatchObject({ rate_percent: 10, tax_name: "GST", subtotal: 10000, gst: 1000, total: 11000 });
    expect(invoiceGst("NEW ZEALAND", [line("100.00")])).toMatchObject({ rate_percent: 15, tax_name: "GST", gst: 1500, total: 11500 });
    expect(invoiceGst("UNITED STATES OF AMERICA", [line("100.00")])).toMatchObject({ rate_percent: 0, tax_name: null, gst: 0, total: 10000, lines: [{ subtotal: 10000, gst: 0 }] });
    expect(invoiceGst(null, [line("100.00")]).gst).toBe(1000);
  });

  it("rounds once per invoice, not per line: three lines of 0.05 make 0.02 GST, not 3 x 0.01", () => {
    const r = invoiceGst("AUSTRALIA", [line("0.05"), line("0.05"), line("0.05")]);
    expect(r.gst).toBe(2); // 0.015 rounds half away from zero to 0.02
    expect(r.lines.map((l) => l.gst)).toEqual([1, 1, 0]);
    expect(invoiceGst("AUSTRALIA", [line("0.04")]).gst).toBe(0); // 0.004
    expect(invoiceGst("NEW ZEALAND", [line("0.10")]).gst).toBe(2); // 0.015
    expect(invoiceGst("NEW ZEALAND", [line("0.09")]).gst).toBe(1); // 0.0135
  });

  it("leaves out gst cost lines and works the tax out again", () => {
    const r = invoiceGst("AUSTRALIA", [{ costs: [{ category: "freight_charge", amount: 96 }, { category: "fuel_charge", amount: "12.00" }, { category: "gst", amount: 10.8 }] }]);
    expect(r).toMatchObject({ subtotal: 10800, gst: 1080, total: 11880 });
  });

  it("the lines' shares always add up to the invoice's GST", () => {
    fc.assert(
      fc.property(fc.constantFrom("AUSTRALIA", "NEW ZEALAND"), fc.array(fc.integer({ min: -50_000, max: 500_000 }), { minLength: 1, maxLength: 30 }), (country, cents) => {
        const r = invoiceGst(country, cents.map((c) => line((c / 100).toFixed(2))));
        expect(r.lines.reduce((a, l) => a + l.gst, 0)).toBe(r.gst);
        expect(r.subtotal).toBe(cents.reduce((a, b) => a + b, 0));
      }),
    );
  });
});

describe("shareOut", () => {
  it("splits in proportion, the leftover cents to the largest remainders", () => {
    expect(shareOut(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(shareOut(10, [7000, 3000])).toEqual([7, 3]);
    expect(shareOut(5, [0, 0])).toEqual([0, 0]);
    expect(shareOut(-100, [-1, -1, -1])).toEqual([-34, -33, -33]);
    // a one-cent credit's GST rounds to 0, never -0 (fast-check found it)
    expect(Object.is(invoiceGst("AUSTRALIA", [line("-0.01")]).gst, 0)).toBe(true);
    expect(Object.is(shareOut(0, [-1])[0], 0)).toBe(true);
  });
});
