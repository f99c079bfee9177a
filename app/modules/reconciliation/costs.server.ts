/**
 * The Invoice Detail modal's reconciliation variant (spec 3 "Invoice detail modal", section 5):
 * the carrier line's costs added, changed and removed with a cost note, then the line compared
 * again. Invoice admins only, as every reconciliation change.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { invoiceCosts, invoiceDetails, reconciliationNotes, reconciliations } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { authorize } from "../auth/guard.server";
import { canAdministerInvoices } from "../invoices/access";
import { centsToAmount, toCents } from "../invoicing/money";
import { AppError } from "../../utils/errors";
import { compareAgain } from "./compare.server";
import { getReconciliation, staleError, visibleReconciliation } from "./detail.server";
import { rerateLines } from "./rerate.server";
import { checkCostChanges } from "./states";

/**
 * PUT /api/reconciliations/{id} with `costs`: the line's cost lines as the modal holds them (an
 * id keeps and maybe changes a line, none adds one, a missing id removes it), a `cost_note` and
 * the `version`. Checked by checkCostChanges in the spec's order; the line's total_cost becomes
 * the sum of its costs; the cost note is kept with the notes; the line is compared again.
 */
export async function saveCosts(db: DbOrTx, user: CurrentUser, id: number, body: { version?: unknown; costs?: unknown; cost_note?: unknown }) {
  authorize(user, canAdministerInvoices);
  // one transaction, the reconciliation row locked first: two people editing the same line's
  // costs cannot both pass the version check and leave a mix of their two lists
  await db.transaction(async (tx) => {
    const r = await visibleReconciliation(tx, user, id, { lock: true });
    const version = Number(body.version);
    if (!Number.isInteger(version)) throw new AppError("invalid", "Version is required", { version: ["Version is required"] });
    if (version !== r.version) throw staleError();
    const before = await tx.select().from(invoiceCosts).where(eq(invoiceCosts.invoiceDetailId, r.invoiceDetailId)).orderBy(asc(invoiceCosts.id));
    const check = checkCostChanges(before, { costs: body.costs, cost_note: body.cost_note });
    if (!check.ok) throw new AppError("invalid", Object.values(check.errors)[0]![0]!, check.errors);
    if (check.removed.length) await tx.delete(invoiceCosts).where(and(eq(invoiceCosts.invoiceDetailId, r.invoiceDetailId), inArray(invoiceCosts.id, check.removed)));
    for (const c of check.changed) {
      await tx
        .update(invoiceCosts)
        .set({ category: c.category, description: c.description, amount: centsToAmount(toCents(c.amount)) })
        .where(and(eq(invoiceCosts.id, c.id), eq(invoiceCosts.invoiceDetailId, r.invoiceDetailId)));
    }
    if (check.added.length) {
      await tx.insert(invoiceCosts).values(check.added.map((c) => ({ invoiceDetailId: r.invoiceDetailId, category: c.category, description: c.description, amount: centsToAmount(toCents(c.amount)) })));
    }
    const after = await tx.select({ amount: invoiceCosts.amount }).from(invoiceCosts).where(eq(invoiceCosts.invoiceDetailId, r.invoiceDetailId));
    await tx
      .update(invoiceDetails)
      .set({ totalCost: centsToAmount(after.reduce((a, c) => a + toCents(c.amount), 0)), updatedAt: new Date() })
      .where(eq(invoiceDetails.id, r.invoiceDetailId));
    await tx.insert(reconciliationNotes).values({ reconciliationId: id, userId: user.id, text: String(body.cost_note).trim() });
    await tx.update(reconciliations).set({ version: r.version + 1, updatedAt: new Date() }).where(eq(reconciliations.id, id));
    await compareAgain(tx, id);
    // the comparison above may have reset the re-rate's status; the costs do not change a re-rate's inputs but keep its status true
    await rerateLines(tx, [id]);
  });
  return getReconciliation(db, user, id);
}
