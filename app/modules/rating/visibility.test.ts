import { describe, expect, it } from "vitest";
import { ratesForViewer } from "./visibility";

const detail = () => ({
  from_zone: "MEL",
  lane: { basic: 10, perKg: 0.5 },
  markup: 10,
  surcharge_markup: 20,
  buy: [{ category: "freight_charge", amount: 20 }],
  total_buy: 20,
  sell: [{ category: "freight_charge", amount: 22 }],
  total_sell: 22,
  total_sell_incl_gst: 24.2,
});
const response = () => ({
  carriers: [
    { code: "A", is_na: false, total: 24.2, rating_detail: detail() },
    { code: "B", is_na: true, total: null, rating_detail: detail() },
  ],
  selected_index: 0,
});
const sellOnly = { from_zone: "MEL", sell: [{ category: "freight_charge", amount: 22 }], total_sell: 22, total_sell_incl_gst: 24.2 };

describe("ratesForViewer", () => {
  it("gives a despatcher the sell side only, and no detail of a hidden-rate service", () => {
    const out = ratesForViewer({ role: "despatcher" }, response());
    // strictly: a buy-side key left as undefined would still be a key
    expect(out.carriers[0]!.rating_detail).toStrictEqual(sellOnly);
    expect(out.carriers[1]!.rating_detail).toBeNull();
    expect(out.selected_index).toBe(0);
  });

  it("gives a finance user (can_reconcile) the buy side, but not a hidden rate's detail", () => {
    const out = ratesForViewer({ role: "despatcher", canReconcile: true }, response());
    expect(out.carriers[0]!.rating_detail).toEqual(detail());
    expect(out.carriers[1]!.rating_detail).toBeNull();
  });

  it("gives the provider's staff everything", () => {
    for (const role of ["devs", "super_admin", "admin", "customer_service"] as const) {
      expect(ratesForViewer({ role }, response())).toEqual(response());
    }
  });

  it("finds rating_detail at any depth (a stored detail marked hidden too) and leaves the input alone", () => {
    const input = { consignments: [{ id: 1, rating_detail: detail() }, { id: 2, rating_detail: { ...detail(), hidden: true } }] };
    const out = ratesForViewer({ role: "despatcher" }, input);
    expect(out.consignments.map((c) => c.rating_detail)).toEqual([sellOnly, null]);
    expect(input.consignments[0]!.rating_detail).toEqual(detail());
  });

  it("copies only what holds a detail it changes, sharing the rest with the input", () => {
    const input = { carriers: [{ code: "A", timeslots: { pickup: false }, rating_detail: detail() }], lists: [{ id: 1 }], selected_index: 0 };
    const out = ratesForViewer({ role: "despatcher" }, input);
    expect(out).not.toBe(input);
    expect(out.carriers[0]).not.toBe(input.carriers[0]);
    expect(out.carriers[0]!.timeslots).toBe(input.carriers[0]!.timeslots);
    expect(out.lists).toBe(input.lists);
    const finance = ratesForViewer({ role: "despatcher", canReconcile: true }, input);
    expect(finance).toBe(input);
  });
});
