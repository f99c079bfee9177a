import { describe, expect, it } from "vitest";
import type { ConsignmentFacts, InvoiceLineFacts } from "./compare";
import { RERATE_LABELS, rerateDecision, rerateStatus } from "./rerate";

const consignment = (over: Partial<ConsignmentFacts> = {}): ConsignmentFacts => ({
  rating_detail: { from_zone: "MEL", to_zone: "SYD", charge_weight: 12.5, buy: [{ category: "freight_charge", amount: 80 }], sell: [] },
  service_id: 7,
  ...over,
});
const line = (over: Partial<InvoiceLineFacts> = {}): InvoiceLineFacts => ({ costs: [], charge_weight: "12.500", from_zone: "MEL", to_zone: "SYD", service_id: 7, ...over });

describe("rerateDecision", () => {
  it("not required when weight, zones and service agree (blank invoice values say nothing)", () => {
    expect(rerateDecision(line(), consignment())).toEqual({ required: false, changes: {} });
    expect(rerateDecision(line({ charge_weight: null, to_zone: "", service_id: null }), consignment())).toEqual({ required: false, changes: {} });
  });

  it("required with the invoice's differing values", () => {
    expect(rerateDecision(line({ charge_weight: "15.25" }), consignment())).toEqual({ required: true, changes: { charge_weight: 15.25 } });
    expect(rerateDecision(line({ from_zone: "GEE ", to_zone: "BNE" }), consignment())).toEqual({ required: true, changes: { from_zone: "GEE", to_zone: "BNE" } });
    expect(rerateDecision(line({ service_id: 9 }), consignment())).toEqual({ required: true, changes: { service_id: 9 } });
  });

  it("an Unquoted service is a difference, with no service to re-rate with", () => {
    expect(rerateDecision(line({ unquoted: true, service_id: null }), consignment())).toEqual({ required: true, changes: {} });
  });

  it("a consignment that never rated is re-rated; no consignment is required too (and ends in rerate_error)", () => {
    expect(rerateDecision(line(), consignment({ rating_detail: null })).required).toBe(true);
    expect(rerateDecision(line(), null)).toEqual({ required: true, changes: {} });
  });
});

describe("rerateStatus", () => {
  it("maps the flag and the outcome to the four statuses", () => {
    expect(rerateStatus({ rerate_required: undefined, has_consignment: true, outcome: "done" })).toBe("rerate_error");
    expect(rerateStatus({ rerate_required: null, has_consignment: true, outcome: null })).toBe("rerate_error");
    expect(rerateStatus({ rerate_required: false, has_consignment: true, outcome: null })).toBe("rerate_not_required");
    expect(rerateStatus({ rerate_required: true, has_consignment: false, outcome: "done" })).toBe("rerate_error");
    expect(rerateStatus({ rerate_required: true, has_consignment: true, outcome: null })).toBe("loading");
    expect(rerateStatus({ rerate_required: true, has_consignment: true, outcome: "pending" })).toBe("loading");
    expect(rerateStatus({ rerate_required: true, has_consignment: true, outcome: "done" })).toBe("rerated");
    expect(rerateStatus({ rerate_required: true, has_consignment: true, outcome: "failed" })).toBe("rerate_error");
  });

  it("shows the spec's words", () => {
    expect(RERATE_LABELS.rerate_error).toBe("Error rerating");
    expect(RERATE_LABELS.rerate_not_required).toBe("Same as original consignment");
  });
});
