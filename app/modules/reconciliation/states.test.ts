import { describe, expect, it } from "vitest";
import {
  RECONCILIATION_MESSAGES as M,
  actionsFor,
  bulkPathSchema,
  bulkUpdateSchema,
  canApply,
  checkCostChanges,
  checkSave,
  planBulk,
  resetSchema,
  updateSchema,
  type BulkAction,
  type ReconciliationState,
} from "./states";

const all: ReconciliationState[] = ["reconciling", "disputed", "reconciled"];

describe("the state rules of spec 3 section 4", () => {
  const allowed: Record<BulkAction, ReconciliationState[]> = {
    dispute: ["reconciling"],
    accept: ["reconciling", "disputed"],
    use_consignment_costs: ["reconciling"],
    reset: ["disputed", "reconciled"],
    invoice: ["reconciled"],
  };
  for (const [action, from] of Object.entries(allowed) as Array<[BulkAction, ReconciliationState[]]>) {
    it(`${action} only from ${from.join(" or ")}`, () => {
      for (const state of all) expect(canApply(action, state), `${action} from ${state}`).toBe(from.includes(state));
    });
  }

  it("each tab offers its actions; Invoice only on the reconciled tab", () => {
    expect(actionsFor("reconciling")).toEqual(["dispute", "accept", "use_consignment_costs"]);
    expect(actionsFor("disputed")).toEqual(["accept", "reset"]);
    expect(actionsFor("reconciled")).toEqual(["invoice", "reset"]);
  });
});

describe("planBulk: refuse the lines a state does not allow, do the others", () => {
  const found = [
    { id: 1, state: "reconciling" as const },
    { id: 2, state: "disputed" as const },
    { id: 3, state: "reconciled" as const },
  ];

  it("dispute does the reconciling line and reports the others with their reason", () => {
    expect(planBulk("dispute", [1, 2, 3], found)).toEqual({
      done: [{ id: 1, from: "reconciling", to: "disputed" }],
      refused: [
        { id: 2, message: "Dispute is not allowed on Disputed reconciliations." },
        { id: 3, message: "Dispute is not allowed on Reconciled reconciliations." },
      ],
    });
  });

  it("accept takes reconciling and disputed to reconciled; reset takes disputed and reconciled back", () => {
    expect(planBulk("accept", [1, 2, 3], found).done).toEqual([
      { id: 1, from: "reconciling", to: "reconciled" },
      { id: 2, from: "disputed", to: "reconciled" },
    ]);
    expect(planBulk("reset", [1, 2, 3], found)).toEqual({
      done: [
        { id: 2, from: "disputed", to: "reconciling" },
        { id: 3, from: "reconciled", to: "reconciling" },
      ],
      refused: [{ id: 1, message: "Reset is not allowed on Un-Reconciled reconciliations." }],
    });
    expect(planBulk("use_consignment_costs", [1, 2], found).done).toEqual([{ id: 1, from: "reconciling", to: "reconciled" }]);
    expect(planBulk("invoice", [1, 3], found).done).toEqual([{ id: 3, from: "reconciled", to: "reconciled" }]);
  });

  it("an id the caller cannot see is refused as not found; a repeated id counts once", () => {
    expect(planBulk("dispute", [1, 1, 99], found)).toEqual({ done: [{ id: 1, from: "reconciling", to: "disputed" }], refused: [{ id: 99, message: M.notFound }] });
  });
});

describe("bulk bodies", () => {
  it("dispute, accept and use consignment costs need a non-empty note", () => {
    for (const note of [undefined, "", "   "]) {
      const r = bulkUpdateSchema.safeParse({ ids: [1], note });
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]?.message).toBe("Note needed for bulk updating reconciliations.");
    }
    expect(bulkUpdateSchema.parse({ ids: [1, 2], note: " checked with carrier " })).toEqual({ ids: [1, 2], note: "checked with carrier" });
  });

  it("takes ids from a form too, and at least one", () => {
    expect(bulkUpdateSchema.parse({ ids: "3, 4", note: "n" }).ids).toEqual([3, 4]);
    expect(bulkUpdateSchema.safeParse({ ids: [], note: "n" }).error?.issues[0]?.message).toBe(M.chooseSome);
    expect(bulkUpdateSchema.safeParse({ ids: ["x"], note: "n" }).success).toBe(false);
  });

  it("a note is at most 255 characters", () => {
    expect(bulkUpdateSchema.safeParse({ ids: [1], note: "a".repeat(255) }).success).toBe(true);
    expect(bulkUpdateSchema.safeParse({ ids: [1], note: "a".repeat(256) }).error?.issues[0]?.message).toBe(M.noteTooLong);
  });

  it("the path names one of the four bulk updates", () => {
    expect(bulkPathSchema.parse("use_consignment_costs")).toBe("use_consignment_costs");
    expect(bulkPathSchema.safeParse("invoice").success).toBe(false);
  });

  it("reset needs ids only", () => {
    expect(resetSchema.parse({ ids: [5] })).toEqual({ ids: [5] });
  });
});

describe("detail save", () => {
  it("Save needs a note (errors.notable: 'Note required.')", () => {
    expect(checkSave(updateSchema.parse({ version: 1 }), "reconciling")).toEqual({ ok: false, errors: { notable: ["Note required."] } });
    expect(checkSave(updateSchema.parse({ version: 1, note: "  " }), "disputed")).toEqual({ ok: false, errors: { notable: ["Note required."] } });
    expect(checkSave(updateSchema.parse({ version: 1, note: "ok" }), "disputed")).toEqual({ ok: true, to: "disputed" });
  });

  it("Save + Accept needs a note and sets reconciled, from reconciling or disputed only", () => {
    expect(checkSave(updateSchema.parse({ version: 1, state: "reconciled" }), "reconciling")).toEqual({ ok: false, errors: { notable: ["Note required."] } });
    expect(checkSave(updateSchema.parse({ version: 1, state: "reconciled", note: "fine" }), "reconciling")).toEqual({ ok: true, to: "reconciled" });
    expect(checkSave(updateSchema.parse({ version: 1, state: "reconciled", note: "fine" }), "disputed")).toEqual({ ok: true, to: "reconciled" });
    expect(checkSave(updateSchema.parse({ version: 1, state: "reconciled", note: "fine" }), "reconciled").ok).toBe(false);
  });

  it("the Charge From toggle saves a preview without a note", () => {
    expect(checkSave(updateSchema.parse({ version: 2, charge_from_consignment: "true" }), "reconciling")).toEqual({ ok: true, to: "reconciling" });
  });

  it("the optimistic-locking message", () => {
    expect(M.unableToSave(M.stale)).toBe("Unable to save. Someone else has changed this reconciliation: reload it and try again.");
  });
});

describe("cost changes in the Invoice Detail modal", () => {
  const before = [
    { id: 10, category: "freight_charge", description: "Freight", amount: "80.00" },
    { id: 11, category: "fuel_charge", description: "Fuel levy", amount: "10.00" },
  ];
  const invalid = { ok: false, errors: { costs: ["Invalid data, description and category required, amount must be greater than 0."] } };

  it("every line needs a description, a category and an amount above 0 with up to 2 decimals", () => {
    const bad = [
      { category: "freight_charge", description: "", amount: "5" },
      { category: "", description: "x", amount: "5" },
      { category: "not_a_category", description: "x", amount: "5" },
      { category: "freight_charge", description: "x", amount: "0" },
      { category: "freight_charge", description: "x", amount: "-5" },
      { category: "freight_charge", description: "x", amount: "5.001" },
      { category: "freight_charge", description: "x", amount: "abc" },
      { category: "freight_charge", description: "x" },
      { id: 999, category: "freight_charge", description: "x", amount: "5" },
    ];
    for (const line of bad) expect(checkCostChanges(before, { costs: [...before, line], cost_note: "n" }), JSON.stringify(line)).toEqual(invalid);
    expect(checkCostChanges(before, { costs: [...before, { category: "freight_charge", description: "x", amount: 0.01 }], cost_note: "n" }).ok).toBe(true);
  });

  it("nothing changed: 'Nothing to save.' (an amount written otherwise is the same amount)", () => {
    expect(checkCostChanges(before, { costs: [{ ...before[0], amount: "80" }, before[1]], cost_note: "n" })).toEqual({ ok: false, errors: { costs: ["Nothing to save."] } });
  });

  it("a change needs a cost note: 'Note required.'", () => {
    const body = { costs: [before[0], { ...before[1], amount: "12.50" }] };
    expect(checkCostChanges(before, body)).toEqual({ ok: false, errors: { cost_note: ["Note required."] } });
    expect(checkCostChanges(before, { ...body, cost_note: " " })).toEqual({ ok: false, errors: { cost_note: ["Note required."] } });
  });

  it("says what is added, changed and removed", () => {
    const r = checkCostChanges(before, { costs: [{ ...before[0], description: "Freight (corrected)" }, { category: "remote_surcharge", description: "Remote", amount: "7.5" }], cost_note: "carrier's figures" });
    expect(r).toEqual({
      ok: true,
      added: [{ category: "remote_surcharge", description: "Remote", amount: "7.5" }],
      changed: [{ id: 10, category: "freight_charge", description: "Freight (corrected)", amount: "80.00" }],
      removed: [11],
    });
  });
});
