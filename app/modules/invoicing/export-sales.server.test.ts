import { describe, expect, it } from "vitest";
import { totalsOf } from "../accounting/simulated.server";
import { SALES_EXPORT_MESSAGES, saleOf } from "./export-sales.server";

const inv = { number: "INV-000007", date: "2026-11-20", customerCode: "ACME", customerName: "Acme Pty Ltd", billingAddress: { locality: "MELBOURNE", country: "AUSTRALIA" } };

describe("saleOf", () => {
  it("makes a line per cost category with the GST shared as tax, adding up to the invoice's GST to the cent", () => {
    const sale = saleOf(inv, [
      { category: "freight_charge", amount: "10.01" },
      { category: "fuel_charge", amount: "10.01" },
      { category: "gst", amount: "2.00" },
      { category: "other_charge", amount: "10.01" },
    ]);
    if (typeof sale === "string") throw new Error(sale);
    expect(sale.customer).toEqual({ displayId: "ACME", name: "Acme Pty Ltd", billingAddress: inv.billingAddress });
    expect(sale.lines.map((l) => l.description)).toEqual(["Freight charge", "Fuel levy", "Other charge"]);
    expect(sale.lines.map((l) => l.amount)).toEqual([10.01, 10.01, 10.01]);
    // 200 cents over three equal lines: 67, 67, 66 (never 66.67 each)
    expect(sale.lines.map((l) => Math.round(l.tax * 100))).toEqual([67, 67, 66]);
    expect(totalsOf(sale.lines)).toEqual({ tax: 2, total: 32.03 });
  });

  it("sends a credit's negative GST with the same signs", () => {
    const sale = saleOf(inv, [
      { category: "freight_charge", amount: "-30.00" },
      { category: "gst", amount: "-3.00" },
    ]);
    if (typeof sale === "string") throw new Error(sale);
    expect(sale.lines).toEqual([{ description: "Freight charge", amount: -30, tax: -3 }]);
  });

  it("says why there is no sale: no number or date, no customer, no costs but GST", () => {
    expect(saleOf({ ...inv, number: null }, [{ category: "freight_charge", amount: "1.00" }])).toBe(SALES_EXPORT_MESSAGES.noNumber(null));
    expect(saleOf({ ...inv, date: null }, [{ category: "freight_charge", amount: "1.00" }])).toBe("INV-000007: an invoice needs a number and a date to be a sales invoice.");
    expect(saleOf({ ...inv, customerCode: null }, [{ category: "freight_charge", amount: "1.00" }])).toBe(SALES_EXPORT_MESSAGES.noCustomer("INV-000007"));
    expect(saleOf(inv, [{ category: "gst", amount: "1.00" }])).toBe(SALES_EXPORT_MESSAGES.noCosts("INV-000007"));
    expect(saleOf(inv, [])).toBe(SALES_EXPORT_MESSAGES.noCosts("INV-000007"));
  });

  it("names the card by the customer's code when the customer has no name", () => {
    const sale = saleOf({ ...inv, customerName: null }, [{ category: "freight_charge", amount: "1.00" }]);
    expect(typeof sale !== "string" && sale.customer.name).toBe("ACME");
  });
});
