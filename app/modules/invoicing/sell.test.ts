import { describe, expect, it } from "vitest";
import { isCredit, markedUp, sellFor } from "./sell";

const rating = {
  markup: 20,
  surcharge_markup: 10,
  sell: [
    { category: "freight_charge", description: "Freight", amount: 24 },
    { category: "fuel_charge", description: "Fuel levy 10%", amount: 2.4 },
    { category: "gst", description: "GST", amount: 2.64 },
  ],
};
const invoiceCosts = [
  { category: "freight_charge", description: "Freight", amount: "25.00" },
  { category: "manual_handling_surcharge", description: "Manual handling", amount: "14.50" },
  { category: "credit_adjustment", description: "Credit", amount: "-5.00" },
  { category: "gst", description: "GST", amount: "3.45" },
];

describe("sellFor", () => {
  it("charges the rated sell, without GST, when charging from the consignment", () => {
    const r = sellFor({ chargeFromConsignment: true, rating, invoiceCosts });
    expect(r.charged_from).toBe("consignment");
    expect(r.lines.map((l) => l.amount)).toEqual([2400, 240]);
    expect(r.total).toBe(2640);
    expect(r.fallback).toBe(false);
  });

  it("charges the invoice's costs with the markups when charging from the invoice; a credit at cost", () => {
    const r = sellFor({ chargeFromConsignment: false, rating, invoiceCosts });
    expect(r.charged_from).toBe("invoice");
    // 25.00 +20 % = 30.00; 14.50 +10 % = 15.95; credit -5.00 as is; GST left out
    expect(r.lines.map((l) => [l.category, l.amount])).toEqual([
      ["freight_charge", 3000],
      ["manual_handling_surcharge", 1595],
      ["credit_adjustment", -500],
    ]);
    expect(r.total).toBe(4095);
  });

  it("falls back to the invoice at cost when the consignment never rated", () => {
    const r = sellFor({ chargeFromConsignment: true, rating: null, invoiceCosts });
    expect(r.charged_from).toBe("invoice");
    expect(r.fallback).toBe(true);
    expect(r.total).toBe(2500 + 1450 - 500);
  });

  it("falls back to the invoice with the markups when the rating has no sell", () => {
    const r = sellFor({ chargeFromConsignment: true, rating: { markup: 20, surcharge_markup: 10, sell: [] }, invoiceCosts });
    expect(r.fallback).toBe(true);
    expect(r.total).toBe(3000 + 1595 - 500);
  });
});

describe("credits (decision 027)", () => {
  const rated = { ...rating, buy: [{ category: "freight_charge", amount: 20 }, { category: "fuel_charge", amount: 2 }] };
  const credit = [
    { category: "credit_adjustment", description: "Credit", amount: "-10.00" },
    { category: "gst", description: "GST", amount: "-1.00" },
  ];

  it("a line of less than nothing, or of credit adjustments only, is a credit; a charge with a credit in it is not", () => {
    expect(isCredit(credit)).toBe(true);
    expect(isCredit([{ category: "freight_charge", description: "Freight", amount: "-5.00" }])).toBe(true);
    expect(isCredit([{ category: "credit_adjustment", description: "Adjustment", amount: "3.00" }])).toBe(true);
    expect(isCredit(invoiceCosts)).toBe(false);
    expect(isCredit([{ category: "gst", description: "GST", amount: "-1.00" }])).toBe(false);
  });

  it("is charged from the invoice whatever Charge From says, in proportion to the rated sell over buy", () => {
    for (const chargeFromConsignment of [true, false]) {
      const r = sellFor({ chargeFromConsignment, rating: rated, invoiceCosts: credit });
      // -10.00 x 26.40 / 22.00 = -12.00
      expect(r).toMatchObject({ charged_from: "invoice", credit: true, fallback: false, total: -1200 });
      expect(r.lines).toEqual([{ category: "credit_adjustment", description: "Credit", amount: -1200 }]);
    }
  });

  it("at cost without a rated buy", () => {
    expect(sellFor({ chargeFromConsignment: true, rating: null, invoiceCosts: credit })).toMatchObject({ total: -1000, fallback: true, credit: true });
  });
});

describe("markedUp", () => {
  it("rounds half away from zero in integers", () => {
    expect(markedUp(1999, 12.5)).toBe(2249); // 2248.875
    expect(markedUp(1, 50)).toBe(2); // 1.5
    expect(markedUp(-1, 50)).toBe(-2);
    expect(markedUp(1000, 0)).toBe(1000);
    expect(markedUp(0, 10)).toBe(0);
    expect(Object.is(markedUp(-0, 10), 0)).toBe(true);
  });
});
