/**
 * Comparing one reconciliation's line again, after its costs changed or on Re Run, keeping what
 * people decided (decision 020-finance-ii-detail).
 */
import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { consignments, customers, invoiceCosts, invoiceDetails, reconciliations } from "../../../db/schema";
import { centsToAmount } from "../invoicing/money";
import { compare, thresholdsOf } from "./compare";
import { reconcileLines } from "./reconcile.server";
import { rerateDecision } from "./rerate";

const dollars = (cents: number) => centsToAmount(cents);

/**
 * Works the line's comparison out again after its costs changed (or on Re Run). A line still
 * reconciling goes through the reconcile job's own function, thresholds and reasons included, so
 * it may become reconciled. A line a person has decided (disputed, reconciled) keeps its state
 * and reasons, the decision is theirs, but its figures (invoiced, discrepancy, margin, the
 * per-category comparison) follow the costs, so the screen never shows amounts that are gone.
 */
export async function compareAgain(db: DbOrTx, reconciliationId: number): Promise<void> {
  const [r] = await db.select().from(reconciliations).where(eq(reconciliations.id, reconciliationId));
  if (!r) return;
  if (r.state === "reconciling") {
    await reconcileLines(db, { invoiceDetailIds: [r.invoiceDetailId] });
    return;
  }
  const [l] = await db
    .select({ d: invoiceDetails, rating: consignments.ratingDetail, consignmentServiceId: consignments.serviceId, consignmentId: consignments.id, options: customers.options })
    .from(invoiceDetails)
    .leftJoin(consignments, eq(consignments.id, invoiceDetails.consignmentId))
    .leftJoin(customers, eq(customers.id, invoiceDetails.customerId))
    .where(eq(invoiceDetails.id, r.invoiceDetailId));
  if (!l) return;
  const costs = await db.select({ category: invoiceCosts.category, amount: invoiceCosts.amount }).from(invoiceCosts).where(eq(invoiceCosts.invoiceDetailId, r.invoiceDetailId));
  const facts = { costs, total_cost: l.d.totalCost, charge_weight: l.d.totalChargeWeight, from_zone: l.d.senderZone, to_zone: l.d.receiverZone, service_id: l.d.serviceId, unquoted: l.d.unquoted };
  const consignment = l.consignmentId == null ? null : { rating_detail: l.rating, service_id: l.consignmentServiceId };
  const c = compare(facts, consignment, thresholdsOf(l.options));
  await db
    .update(reconciliations)
    .set({
      ratedBuy: dollars(c.rated_buy),
      ratedSell: dollars(c.rated_sell),
      invoiced: dollars(c.invoiced),
      discrepancyAmount: dollars(c.discrepancy),
      margin: dollars(c.margin),
      marginPercent: c.margin_percent == null ? null : c.margin_percent.toFixed(2),
      categories: c.categories,
      rerateRequired: rerateDecision(facts, consignment).required,
      version: sql`${reconciliations.version} + 1`,
      updatedAt: new Date(),
    })
    .where(eq(reconciliations.id, reconciliationId));
}

