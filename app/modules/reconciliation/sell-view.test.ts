import { describe, expect, it } from "vitest";
import { billedTotals, chargedMargin } from "./sell-view";

describe("billedTotals", () => {
  it("keeps the GST apart: costs without it, its GST lines, the stored total with it", () => {
    const t = billedTotals({ costs: [{ category: "freight_charge", amount: "30.00" }, { category: "fuel_charge", amount: 4.5 }, { category: "gst", amount: "3.45" }], total_cost: "37.95" });
    expect(t).toEqual({ source: "customer_invoice", excluding_gst: 3450, gst: 345, including_gst: 3795 });
  });
});

describe("chargedMargin", () => {
  it("is the charge less the carrier's, over the charge", () => {
    expect(chargedMargin(3450, 3000)).toEqual({ margin: 450, margin_percent: 13.04 });
    expect(chargedMargin(0, 1000)).toEqual({ margin: -1000, margin_percent: null });
    // a credit: -26.00 charged back against -20.00 credited by the carrier
    expect(chargedMargin(-2600, -2000)).toEqual({ margin: -600, margin_percent: 23.08 });
  });
});
