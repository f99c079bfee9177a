/**
 * Reconciliation states, the actions between them and the note rules (spec 3 sections 4, 5 and 8;
 * issue 19 "Bad input"), with the zod schemas of the bulk and detail calls' bodies. Pure: the
 * list, the detail and /api share the same rules, and the browser shows the same messages.
 */
import { z } from "zod";
import { COST_CATEGORIES } from "../../../db/schema/finance";
import { toCents } from "../invoicing/money";

export const RECONCILIATION_STATES = ["reconciling", "disputed", "reconciled"] as const;
export type ReconciliationState = (typeof RECONCILIATION_STATES)[number];
/** the tabs' names; reconciling is the default tab (spec 3 sections 4 and 9) */
export const STATE_LABELS: Record<ReconciliationState, string> = { reconciling: "Un-Reconciled", disputed: "Disputed", reconciled: "Reconciled" };

export const BULK_ACTIONS = ["invoice", "dispute", "accept", "use_consignment_costs", "reset"] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];
export const ACTION_LABELS: Record<BulkAction, string> = { invoice: "Invoice", dispute: "Dispute", accept: "Accept", use_consignment_costs: "Use Con Costs", reset: "Reset" };

/**
 * Where each action may start and where it leads. Invoice leaves the reconciliation reconciled
 * (its line moves on to invoicing). Use consignment costs takes the rated costs as what the
 * customer is charged, which settles the line: reconciled.
 */
export const TRANSITIONS: Record<BulkAction, { from: readonly ReconciliationState[]; to: ReconciliationState }> = {
  dispute: { from: ["reconciling"], to: "disputed" },
  accept: { from: ["reconciling", "disputed"], to: "reconciled" },
  use_consignment_costs: { from: ["reconciling"], to: "reconciled" },
  reset: { from: ["disputed", "reconciled"], to: "reconciling" },
  invoice: { from: ["reconciled"], to: "reconciled" },
};

export const RECONCILIATION_MESSAGES = {
  bulkNote: "Note needed for bulk updating reconciliations.",
  noteRequired: "Note required.",
  invalidCost: "Invalid data, description and category required, amount must be greater than 0.",
  nothingToSave: "Nothing to save.",
  noReconciliations: "There are no reconciliations to display.",
  chooseSome: "Choose at least one reconciliation.",
  notFound: "No such reconciliation.",
  noteTooLong: "A note is at most 255 characters.",
  unableToSave: (message: string) => `Unable to save. ${message}`,
  /** what 'Unable to save. {message}' says when someone else saved first (optimistic locking) */
  stale: "Someone else has changed this reconciliation: reload it and try again.",
  failedToResetList: (message: string) => `Failed to reset reconciliations, ${message}`,
  failedToReset: "Failed to reset reconciliation",
  /** a reconciled line that has been invoiced to the customer is not reset */
  invoicedKept: "Reset is not allowed on invoiced reconciliations.",
  failedToReconcile: (message: string) => `Failed to reconcile, reason: ${message}`,
  notAllowed: (action: BulkAction, state: ReconciliationState) => `${ACTION_LABELS[action]} is not allowed on ${STATE_LABELS[state]} reconciliations.`,
};

export const NOTE_MAX = 255;

/** The {action} of PUT /api/reconciliations/{action}: invoicing goes through POST /api/invoices instead. */
export const bulkPathSchema = z.enum(["dispute", "accept", "use_consignment_costs", "reset"], "Must be dispute, accept, use_consignment_costs or reset");

export const canApply = (action: BulkAction, state: ReconciliationState) => TRANSITIONS[action].from.includes(state);

/** The actions a state tab offers (spec 3 section 6: bulk buttons enabled by state tab). */
export const actionsFor = (state: ReconciliationState) => BULK_ACTIONS.filter((a) => canApply(a, state));

export interface BulkPlan {
  done: Array<{ id: number; from: ReconciliationState; to: ReconciliationState }>;
  refused: Array<{ id: number; message: string }>;
}

/**
 * A bulk action over many lines: those whose state allows it are done, the others refused with
 * the reason, each once and in the order asked. `found` is what the caller may see of `ids`: an
 * id missing from it (not there, or another customer's) is refused as not found.
 */
export function planBulk(action: BulkAction, ids: number[], found: Array<{ id: number; state: ReconciliationState }>): BulkPlan {
  const byId = new Map(found.map((r) => [r.id, r]));
  const plan: BulkPlan = { done: [], refused: [] };
  for (const id of new Set(ids)) {
    const r = byId.get(id);
    if (!r) plan.refused.push({ id, message: RECONCILIATION_MESSAGES.notFound });
    else if (!canApply(action, r.state)) plan.refused.push({ id, message: RECONCILIATION_MESSAGES.notAllowed(action, r.state) });
    else plan.done.push({ id, from: r.state, to: TRANSITIONS[action].to });
  }
  return plan;
}

// ids as JSON (an array) or as a form sends them (repeated fields, or "1,2,3")
const ids = z.preprocess(
  (v) => (typeof v === "string" ? v.split(",").map((s) => s.trim()).filter(Boolean) : v),
  z.array(z.coerce.number().int().positive("Must be an id"), RECONCILIATION_MESSAGES.chooseSome).min(1, RECONCILIATION_MESSAGES.chooseSome).max(10_000, "At most 10,000 reconciliations at once."),
);
const requiredNote = (message: string) =>
  z.preprocess((v) => (v == null ? "" : v), z.string(message).trim().min(1, message).max(NOTE_MAX, RECONCILIATION_MESSAGES.noteTooLong));

/** PUT /api/reconciliations/{dispute|accept|use_consignment_costs}: ids and a note. */
export const bulkUpdateSchema = z.object({ ids, note: requiredNote(RECONCILIATION_MESSAGES.bulkNote) });
/**
 * PUT /api/reconciliations/reset: ids (spec 3 section 7); reset deletes the notes, so a note is
 * not asked for; one sent is refused only when too long.
 */
export const resetSchema = z.object({ ids, note: z.string().trim().max(NOTE_MAX, RECONCILIATION_MESSAGES.noteTooLong).optional() });

/**
 * PUT /api/reconciliations/{id}: Save (a note), Save + Accept (state reconciled and a note), the
 * Charge From toggle's preview; `version` for optimistic locking.
 */
export const updateSchema = z
  .object({
    version: z.coerce.number().int().min(0),
    note: z.string().trim().max(NOTE_MAX, RECONCILIATION_MESSAGES.noteTooLong).optional(),
    state: z.enum(["reconciled"]).optional(),
    charge_from_consignment: z.preprocess((v) => (v === "true" || v === "on" ? true : v === "false" ? false : v), z.boolean()).optional(),
  })
  .strict();
export type ReconciliationUpdate = z.infer<typeof updateSchema>;

/**
 * What a detail save does, or why not: a save needs a note (errors.notable), Save + Accept too and
 * only from where accept may start; the Charge From toggle alone saves a preview without a note.
 */
export function checkSave(update: ReconciliationUpdate, state: ReconciliationState): { ok: true; to: ReconciliationState } | { ok: false; errors: Record<string, string[]> } {
  const previewOnly = update.charge_from_consignment !== undefined && !update.note && !update.state;
  if (previewOnly) return { ok: true, to: state };
  if (!update.note) return { ok: false, errors: { notable: [RECONCILIATION_MESSAGES.noteRequired] } };
  if (update.state === "reconciled") {
    if (!canApply("accept", state)) return { ok: false, errors: { state: [RECONCILIATION_MESSAGES.notAllowed("accept", state)] } };
    return { ok: true, to: "reconciled" };
  }
  return { ok: true, to: state };
}

/** A cost line as the Invoice Detail modal sends it; every fault gives the spec's one message. */
const costInput = z.object({
  id: z.coerce.number().int().positive().optional(),
  category: z.enum(COST_CATEGORIES),
  description: z.string().trim().min(1).max(255),
  // digits with up to 2 decimals, more than 0 (spec 3 section 5)
  amount: z.preprocess((v) => (typeof v === "number" ? String(v) : v), z.string().trim().regex(/^\d+(\.\d{1,2})?$/).refine((s) => Number(s) > 0)),
});
export type CostInput = z.infer<typeof costInput>;

export const costChangesSchema = z.object({
  costs: z.array(z.unknown()).max(100, "At most 100 cost lines."),
  cost_note: z.string().trim().max(NOTE_MAX, RECONCILIATION_MESSAGES.noteTooLong).optional(),
});

export interface StoredCost {
  id: number;
  category: string;
  description: string;
  amount: number | string;
}

export type CostCheck =
  | { ok: true; added: CostInput[]; changed: Array<CostInput & { id: number }>; removed: number[] }
  | { ok: false; errors: Record<string, string[]> };

/**
 * The Invoice Detail modal's save of a line's costs: every line valid (else 'Invalid data, ...'),
 * something changed (else 'Nothing to save.'), and a cost note (else 'Note required.'), in that
 * order. A line is changed when its category, description or amount (to the cent) differs.
 */
export function checkCostChanges(before: StoredCost[], body: unknown): CostCheck {
  const parsed = costChangesSchema.safeParse(body);
  if (!parsed.success) return { ok: false, errors: { costs: [parsed.error.issues[0]?.message ?? RECONCILIATION_MESSAGES.invalidCost] } };
  const known = new Map(before.map((c) => [c.id, c]));
  const lines: CostInput[] = [];
  for (const raw of parsed.data.costs) {
    const line = costInput.safeParse(raw);
    // an id that is not one of this line's costs is as bad as a missing category
    if (!line.success || (line.data.id != null && !known.has(line.data.id))) return { ok: false, errors: { costs: [RECONCILIATION_MESSAGES.invalidCost] } };
    lines.push(line.data);
  }
  const kept = new Set(lines.map((l) => l.id).filter((id): id is number => id != null));
  const added = lines.filter((l) => l.id == null);
  const changed = lines.filter((l): l is CostInput & { id: number } => {
    if (l.id == null) return false;
    const old = known.get(l.id)!;
    return old.category !== l.category || old.description.trim() !== l.description || toCents(old.amount) !== toCents(l.amount);
  });
  const removed = before.map((c) => c.id).filter((id) => !kept.has(id));
  if (!added.length && !changed.length && !removed.length) return { ok: false, errors: { costs: [RECONCILIATION_MESSAGES.nothingToSave] } };
  if (!parsed.data.cost_note) return { ok: false, errors: { cost_note: [RECONCILIATION_MESSAGES.noteRequired] } };
  return { ok: true, added, changed, removed };
}
