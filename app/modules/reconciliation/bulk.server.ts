/**
 * The list's bulk actions (issue 19 item 2; spec 3 sections 4, 5 and 7):
 * PUT /api/reconciliations/{dispute|accept|use_consignment_costs} { ids, note } and
 * PUT /api/reconciliations/reset { ids }. The lines whose state allows the action are done, the
 * others refused one by one (states.ts planBulk); a dispute then e-mails the carrier
 * (dispute-mail.server.ts). Reconciliation admin: admin or super admin (spec 3 section 6).
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { consignments, reconciliationNotes, reconciliations } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { authorize } from "../auth/guard.server";
import { canAdministerInvoices, financeScope } from "../invoices/access";
import type { Mailer } from "../mail/mailer.server";
import { parseOrThrow } from "../../utils/validation";
import { sendDisputeMails, type DisputeMailOutcome } from "./dispute-mail.server";
import { emitEvents } from "../webhooks/index.server";
import { reconcileLines } from "./reconcile.server";
import { bulkUpdateSchema, planBulk, RECONCILIATION_MESSAGES, resetSchema, type ReconciliationState } from "./states";

export type ListAction = "dispute" | "accept" | "use_consignment_costs" | "reset";

export interface BulkOutcome {
  action: ListAction;
  done: Array<{ id: number; from: ReconciliationState; to: ReconciliationState }>;
  refused: Array<{ id: number; message: string }>;
  /** a line of what happened, for the screen's alert */
  message: string;
  /** a dispute's e-mails to the carriers (none for the other actions) */
  emails?: DisputeMailOutcome;
}

const plural = (n: number) => `${n} reconciliation${n === 1 ? "" : "s"}`;
const PAST: Record<ListAction, string> = { dispute: "disputed", accept: "accepted", use_consignment_costs: "charged at the consignment's costs", reset: "reset" };

/**
 * reconciliation.disputed (docs/decisions/039) for each disputed line of a customer's, in the
 * dispute's transaction. The customer is told which line of which consignment and why, never the
 * carrier's costs or the margin (the provider's own figures).
 */
async function emitDisputes(tx: DbOrTx, ids: number[], note: string, now: Date) {
  const rows = await tx
    .select({ id: reconciliations.id, customerId: reconciliations.customerId, consignmentId: reconciliations.consignmentId, consignmentNumber: consignments.consignmentNumber })
    .from(reconciliations)
    .leftJoin(consignments, eq(consignments.id, reconciliations.consignmentId))
    .where(inArray(reconciliations.id, ids))
    .orderBy(reconciliations.id);
  await emitEvents(
    tx,
    rows
      .filter((r) => r.customerId != null)
      .map((r) => ({
        type: "reconciliation.disputed" as const,
        customerId: r.customerId!,
        consignmentId: r.consignmentId,
        payload: { id: r.id, state: "disputed", consignment_id: r.consignmentId, consignment_number: r.consignmentNumber, note, disputed_at: now.toISOString() },
      })),
  );
}

/**
 * Does `action` on the ids the user may see. One transaction with the rows locked (in id order,
 * so two bulk calls over the same lines queue rather than deadlock): two people acting on a line
 * at once (one disputes while the other accepts, or the reconcile job rewrites it) cannot both
 * start from the state they read; the second sees the first's outcome and is refused if it no
 * longer fits.
 */
export async function bulkUpdate(db: DbOrTx, user: CurrentUser, action: ListAction, raw: unknown, options: { mailer?: Mailer; now?: Date } = {}): Promise<BulkOutcome> {
  authorize(user, canAdministerInvoices);
  const input = action === "reset" ? parseOrThrow(resetSchema, raw) : parseOrThrow(bulkUpdateSchema, raw);
  const note = action === "reset" ? null : (input.note ?? null);
  const scope = financeScope(user);
  const now = options.now ?? new Date();
  const outcome = await db.transaction(async (tx) => {
    const found = await tx
      .select({ id: reconciliations.id, state: reconciliations.state, invoiceDetailId: reconciliations.invoiceDetailId, invoicedOn: reconciliations.customerInvoiceDetailId })
      .from(reconciliations)
      .where(and(inArray(reconciliations.id, [...new Set(input.ids)]), scope.kind === "customer" ? sql`${reconciliations.customerId} = ${scope.customerId}` : undefined))
      .orderBy(reconciliations.id)
      .for("update");
    const plan = planBulk(action, input.ids, found);
    if (action === "reset") {
      // a line billed to its customer keeps the decision it was billed on
      const invoiced = new Set(found.filter((f) => f.invoicedOn != null).map((f) => f.id));
      plan.refused.push(...plan.done.filter((d) => invoiced.has(d.id)).map((d) => ({ id: d.id, message: RECONCILIATION_MESSAGES.invoicedKept })));
      plan.done = plan.done.filter((d) => !invoiced.has(d.id));
    }
    const ids = plan.done.map((d) => d.id);
    if (!ids.length) return plan;
    const to = plan.done[0]!.to;
    if (action === "reset") {
      // reset deletes the reasons and the notes (spec 3 section 4), then compares again below
      await tx.delete(reconciliationNotes).where(inArray(reconciliationNotes.reconciliationId, ids));
      await tx
        .update(reconciliations)
        .set({ state: "reconciling", reasonCategories: [], reconciledAt: null, version: sql`${reconciliations.version} + 1`, updatedAt: now })
        .where(inArray(reconciliations.id, ids));
      // the comparison worked out again gives the lines their reasons back, from today's costs
      // and rating; a reset line stays Un-Reconciled until someone acts, even when it now falls
      // within the thresholds (the job would have reconciled it)
      const detailIds = found.filter((f) => ids.includes(f.id)).map((f) => f.invoiceDetailId);
      await reconcileLines(tx, { invoiceDetailIds: detailIds });
      await tx.update(reconciliations).set({ state: "reconciling", reconciledAt: null }).where(inArray(reconciliations.id, ids));
    } else {
      await tx
        .update(reconciliations)
        .set({
          state: to,
          reconciledAt: to === "reconciled" ? now : null,
          ...(action === "use_consignment_costs" ? { chargeFromConsignment: true } : {}),
          version: sql`${reconciliations.version} + 1`,
          updatedAt: now,
        })
        .where(inArray(reconciliations.id, ids));
      await tx.insert(reconciliationNotes).values(ids.map((id) => ({ reconciliationId: id, userId: user.id, text: note!, createdAt: now })));
      if (action === "dispute") await emitDisputes(tx, ids, note ?? "", now);
    }
    return plan;
  });
  const message =
    action === "reset" && !outcome.done.length
      ? RECONCILIATION_MESSAGES.failedToResetList(outcome.refused[0]?.message ?? RECONCILIATION_MESSAGES.chooseSome)
      : `${plural(outcome.done.length)} ${PAST[action]}${outcome.refused.length ? `; ${plural(outcome.refused.length)} refused` : ""}.`;
  const result: BulkOutcome = { action, done: outcome.done, refused: outcome.refused, message };
  // the e-mails go after the commit: a carrier is never told of a dispute that rolled back
  if (action === "dispute" && outcome.done.length && options.mailer) result.emails = await sendDisputeMails(db, options.mailer, outcome.done.map((d) => d.id), note ?? "");
  return result;
}
