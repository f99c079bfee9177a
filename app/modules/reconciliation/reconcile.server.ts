/**
 * Reconciling allocated carrier invoice lines (issue 19 item 1, decision 020): each line's cost
 * lines against its consignment's stored rating_detail (compare.ts), the customer's thresholds
 * applied, the outcome stored as the line's reconciliation. A line a person has already decided
 * (disputed or reconciled) is left as it is, so running it again changes nothing: only lines
 * still reconciling, or never reconciled, are worked out again.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import { consignments, customers, invoiceCosts, invoiceDetails, reconciliations } from "../../../db/schema";
import type { JobQueue } from "../jobs/queue";
import type { CurrentUser } from "../auth/current-user.server";
import { allocateInput, allocatePayload, invoiceTargets } from "../allocation/allocate.server";
import { assertWriter } from "../allocation/rules.server";
import { compare, thresholdsOf, type InvoiceLineFacts } from "./compare";
import { rerateDecision, rerateStatus } from "./rerate";
import { groupBy } from "../../utils/group-by";

/** Lines past allocation that carry a customer: what can be compared with a consignment. */
const RECONCILABLE_LINE_STATES = ["allocated", "exported"] as const;
const CHUNK = 500;

export interface ReconcileResult {
  /** lines worked out (new or still reconciling) */
  compared: number;
  reconciled: number;
  reconciling: number;
  /** lines a person had already disputed or reconciled: untouched */
  kept: number;
}

const dollars = (cents: number) => (cents / 100).toFixed(2);

export const RECONCILE_JOB = "invoices.reconcile";
/** the job's payload: the same targets as allocation's */
export const reconcilePayload = allocatePayload;
export const reconcileInput = allocateInput;
export const reconcileMessage = (r: ReconcileResult) =>
  `Reconciled ${r.compared} line${r.compared === 1 ? "" : "s"}: ${r.reconciled} within the thresholds, ${r.reconciling} to check${r.kept ? `; ${r.kept} already decided, kept` : ""}`;

/** PUT /api/invoices/reconcile { invoice_ids, invoice_detail_ids? }: checks the ids and queues the job (invoice admins). */
export async function startReconciliation(db: DbOrTx, queue: JobQueue, user: CurrentUser, raw: z.infer<typeof reconcileInput>): Promise<{ job_id: string }> {
  assertWriter(user);
  const { jobId } = await queue.enqueue(RECONCILE_JOB, await invoiceTargets(db, raw), { userId: user.id, customerId: user.customer.id });
  return { job_id: jobId };
}

/**
 * Reconciles the allocated lines of `invoiceIds` (or the lines `invoiceDetailIds`); `progress`
 * hears 'Reconciled n of total lines' after each chunk.
 */
export async function reconcileLines(
  db: DbOrTx,
  target: { invoiceIds?: number[]; invoiceDetailIds?: number[] },
  progress: (pct: number, message: string) => Promise<void> = async () => {},
): Promise<ReconcileResult> {
  const where = target.invoiceDetailIds?.length
    ? inArray(invoiceDetails.id, target.invoiceDetailIds)
    : target.invoiceIds?.length
      ? inArray(invoiceDetails.invoiceId, target.invoiceIds)
      : null;
  const result: ReconcileResult = { compared: 0, reconciled: 0, reconciling: 0, kept: 0 };
  if (!where) return result;
  const lines = await db
    .select({
      id: invoiceDetails.id,
      carrierId: invoiceDetails.carrierId,
      customerId: invoiceDetails.customerId,
      serviceId: invoiceDetails.serviceId,
      unquoted: invoiceDetails.unquoted,
      chargeWeight: invoiceDetails.totalChargeWeight,
      fromZone: invoiceDetails.senderZone,
      toZone: invoiceDetails.receiverZone,
      totalCost: invoiceDetails.totalCost,
      duplicateOf: invoiceDetails.duplicateOfDetailId,
      consignmentId: consignments.id,
      ratingDetail: consignments.ratingDetail,
      consignmentServiceId: consignments.serviceId,
      customerOptions: customers.options,
      existing: reconciliations.state,
    })
    .from(invoiceDetails)
    .leftJoin(consignments, eq(consignments.id, invoiceDetails.consignmentId))
    .leftJoin(customers, eq(customers.id, invoiceDetails.customerId))
    .leftJoin(reconciliations, eq(reconciliations.invoiceDetailId, invoiceDetails.id))
    .where(and(where, inArray(invoiceDetails.state, [...RECONCILABLE_LINE_STATES]), sql`${invoiceDetails.customerId} is not null`))
    .orderBy(invoiceDetails.id);
  const open = lines.filter((l) => l.existing == null || l.existing === "reconciling");
  result.kept = lines.length - open.length;
  for (let i = 0; i < open.length; i += CHUNK) {
    const part = open.slice(i, i + CHUNK);
    const costs = await db
      .select({ detailId: invoiceCosts.invoiceDetailId, category: invoiceCosts.category, amount: invoiceCosts.amount })
      .from(invoiceCosts)
      .where(inArray(invoiceCosts.invoiceDetailId, part.map((l) => l.id)));
    const costsOf = groupBy(costs, (c) => c.detailId);
    const rows = part.map((l) => {
      const facts: InvoiceLineFacts = {
        costs: (costsOf.get(l.id) ?? []).map((c) => ({ category: c.category, amount: c.amount })),
        total_cost: l.totalCost,
        charge_weight: l.chargeWeight,
        from_zone: l.fromZone,
        to_zone: l.toZone,
        service_id: l.serviceId,
        unquoted: l.unquoted,
      };
      const consignment = l.consignmentId == null ? null : { rating_detail: l.ratingDetail, service_id: l.consignmentServiceId };
      const compared = compare(facts, consignment, thresholdsOf(l.customerOptions));
      // a possible duplicate of another carrier invoice's line is a person's to decide (decision 021)
      const c = l.duplicateOf == null ? compared : { ...compared, state: "reconciling" as const, reasons: ["duplicate" as const, ...compared.reasons] };
      const rerate = rerateDecision(facts, consignment);
      if (c.state === "reconciled") result.reconciled += 1;
      else result.reconciling += 1;
      return {
        invoice_detail_id: l.id,
        consignment_id: l.consignmentId,
        customer_id: l.customerId,
        carrier_id: l.carrierId,
        state: c.state,
        reason_categories: c.reasons,
        rated_buy: dollars(c.rated_buy),
        rated_sell: dollars(c.rated_sell),
        invoiced: dollars(c.invoiced),
        discrepancy_amount: dollars(c.discrepancy),
        margin: dollars(c.margin),
        margin_percent: c.margin_percent == null ? null : c.margin_percent.toFixed(2),
        categories: c.categories,
        rerate_required: rerate.required,
        rerate_status: rerateStatus({ rerate_required: rerate.required, has_consignment: consignment != null, outcome: null }),
        reconciled_at: c.state === "reconciled" ? new Date().toISOString() : null,
      };
    });
    result.compared += rows.length;
    // One statement per chunk with the rows as a single JSON parameter: binding 17 parameters a row
    // cost most of the job's time (issue 19's 50,000-line benchmark, bench/reconcile.ts).
    // The conflict's where keeps a line someone disputed or accepted between the read above and
    // this write: their decision wins over the job's.
    await db.execute(sql`
      insert into reconciliations (invoice_detail_id, consignment_id, customer_id, carrier_id, state, reason_categories, rated_buy, rated_sell, invoiced,
        discrepancy_amount, margin, margin_percent, categories, rerate_required, rerate_status, reconciled_at,
        invoice_id, consignment_key, invoice_number_key, from_zone_key, to_zone_key, charge_weight)
      select r.invoice_detail_id, r.consignment_id, r.customer_id, r.carrier_id, r.state, array(select jsonb_array_elements_text(r.reason_categories)),
        r.rated_buy, r.rated_sell, r.invoiced, r.discrepancy_amount, r.margin, r.margin_percent, r.categories, r.rerate_required, r.rerate_status, r.reconciled_at,
        -- the list's keys (migration 0023), joined here for the chunk rather than by the per-row trigger
        d.invoice_id, upper(d.consignment_number), upper(i.invoice_number), upper(d.sender_zone), upper(d.receiver_zone), d.total_charge_weight
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(invoice_detail_id int, consignment_id int, customer_id int, carrier_id int, state text,
        reason_categories jsonb, rated_buy numeric, rated_sell numeric, invoiced numeric, discrepancy_amount numeric, margin numeric, margin_percent numeric,
        categories jsonb, rerate_required boolean, rerate_status text, reconciled_at timestamptz)
      join invoice_details d on d.id = r.invoice_detail_id
      join invoices i on i.id = d.invoice_id
      on conflict (invoice_detail_id) do update set
        consignment_id = excluded.consignment_id, customer_id = excluded.customer_id, carrier_id = excluded.carrier_id, state = excluded.state,
        reason_categories = excluded.reason_categories, rated_buy = excluded.rated_buy, rated_sell = excluded.rated_sell, invoiced = excluded.invoiced,
        discrepancy_amount = excluded.discrepancy_amount, margin = excluded.margin, margin_percent = excluded.margin_percent, categories = excluded.categories,
        rerate_required = excluded.rerate_required, rerate_status = excluded.rerate_status, reconciled_at = excluded.reconciled_at,
        version = reconciliations.version + 1, updated_at = now()
      -- and only when the outcome changed: a run that finds the same leaves the version alone,
      -- so nobody editing the line is told it changed under them
      where reconciliations.state = 'reconciling' and (reconciliations.state, reconciliations.reason_categories, reconciliations.rated_buy, reconciliations.rated_sell, reconciliations.invoiced, reconciliations.discrepancy_amount, reconciliations.margin, reconciliations.categories, reconciliations.rerate_required, reconciliations.consignment_id)
        is distinct from (excluded.state, excluded.reason_categories, excluded.rated_buy, excluded.rated_sell, excluded.invoiced, excluded.discrepancy_amount, excluded.margin, excluded.categories, excluded.rerate_required, excluded.consignment_id)`);
    await progress(Math.round(((i + part.length) / open.length) * 100), `Reconciled ${i + part.length} of ${open.length} lines`);
  }
  return result;
}
