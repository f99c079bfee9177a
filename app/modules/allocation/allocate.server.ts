/**
 * Allocation of payable invoice lines (issue 18 item 6), run as a job. Set-based: one UPDATE ...
 * FROM matches every line to its consignment by number (through the consignment's carrier
 * account, so only the invoice's carrier's consignments count); the lines left go through the
 * carrier's rules in memory and are written back in chunks by one UPDATE ... FROM each. Lines
 * allocated by hand (allocated_by 'manual') and lines past allocation (exported, invoiced...)
 * are never touched, so a re-run changes nothing a person decided.
 */
import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db, DbOrTx } from "../../../db/client.server";
import type { JobQueue } from "../jobs/queue";
import type { CurrentUser } from "../auth/current-user.server";
import { AppError } from "../../utils/errors";
import { rowsOf } from "../../utils/sql-rows";
import { loadCatalogue } from "./catalogue.server";
import { allocateLine, type EngineRule } from "./engine";
import { assertWriter, consignmentLookupValues, lineFields } from "./rules.server";

export const ALLOCATE_JOB = "invoices.allocate";
const ids = z.array(z.coerce.number().int().positive()).max(100_000);
export const allocatePayload = z.object({ invoiceIds: ids.default([]), invoiceDetailIds: ids.default([]) });
export type AllocatePayload = z.infer<typeof allocatePayload>;

export interface AllocateResult {
  total: number;
  allocated: number;
  failed: number;
}
export const allocateMessage = (r: AllocateResult) => `Allocated ${r.allocated} of ${r.total} lines`;

/** Lines a run may change: these invoices' or these lines, not allocated by hand, not past allocation. */
function touchable(p: AllocatePayload): SQL {
  const inv = JSON.stringify(p.invoiceIds);
  const det = JSON.stringify(p.invoiceDetailIds);
  return sql`(d.invoice_id in (select jsonb_array_elements_text(${inv}::jsonb)::int) or d.id in (select jsonb_array_elements_text(${det}::jsonb)::int))
    and d.state in ('unallocated', 'allocation_failure', 'allocated') and d.allocated_by is distinct from 'manual'`;
}

const CHUNK = 5000;

export async function runAllocation(db: Db, payload: AllocatePayload, progress: (pct: number, message: string) => Promise<void>): Promise<AllocateResult> {
  const where = touchable(payload);
  const [count] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from invoice_details d where ${where}`));
  const total = count?.n ?? 0;
  const report = async (done: number) => progress(total ? Math.round((done / total) * 100) : 100, `Allocated ${done} of ${total} lines`);

  // 1. by consignment number: customer, site and service come from the consignment
  const matched = rowsOf<{ n: number }>(
    await db.execute(sql`
      with lines as (select d.id, d.consignment_number, i.carrier_id from invoice_details d join invoices i on i.id = d.invoice_id where ${where} and d.consignment_number is not null),
      cons as (
        select distinct on (a.carrier_id, c.consignment_number) a.carrier_id, c.consignment_number, c.id, c.customer_id, c.site_id, c.service_id
        from consignments c join carrier_accounts a on a.id = c.carrier_account_id
        where c.consignment_number in (select consignment_number from lines) and c.state not in ('deleted', 'merged', 'cancelled')
        order by a.carrier_id, c.consignment_number, c.id desc),
      done as (
        update invoice_details x set consignment_id = cons.id, customer_id = cons.customer_id, site_id = cons.site_id, service_id = cons.service_id,
          unquoted = false, state = 'allocated', allocated_by = 'consignment', allocation_error = null, updated_at = now()
        from lines, cons where x.id = lines.id and cons.carrier_id = lines.carrier_id and cons.consignment_number = lines.consignment_number
        returning 1)
      select count(*)::int as n from done`),
  );
  let allocated = matched[0]?.n ?? 0;
  await report(allocated);

  // 2. the rest through the rules of their invoice's carrier (customer-specific before carrier-wide)
  const rest = rowsOf<Record<string, string | null> & { id: number; carrier_id: number | null }>(
    await db.execute(sql`
      select d.id, coalesce(i.carrier_id, d.carrier_id) as carrier_id, d.account_number, d.consignment_number, d.total_cost::text, d.parent_account_number, d.payer,
        d.sender_name, d.sender_locality, d.sender_postcode, d.sender_region, d.sender_zone, d.receiver_name, d.receiver_locality, d.receiver_postcode,
        d.receiver_region, d.receiver_zone, d.reference, d.service_description
      from invoice_details d join invoices i on i.id = d.invoice_id
      where ${where} and (d.state <> 'allocated' or d.allocated_by is distinct from 'consignment')
      order by d.id`),
  );
  const byCarrier = new Map<number | null, typeof rest>();
  for (const r of rest) byCarrier.set(r.carrier_id, [...(byCarrier.get(r.carrier_id) ?? []), r]);
  let failed = 0;
  for (const [carrierId, lines] of byCarrier) {
    const rules = carrierId == null ? [] : await rulesOf(db, carrierId);
    const fields = lines.map((l) => ({ id: l.id, fields: lineFields(camel(l)) }));
    const catalogue = carrierId == null ? null : await loadCatalogue(db, carrierId, fields.flatMap((f) => consignmentLookupValues(rules, f.fields)));
    for (let i = 0; i < fields.length; i += CHUNK) {
      const results = fields.slice(i, i + CHUNK).map((f) => {
        if (!catalogue) return { id: f.id, customer_id: null, site_id: null, service_id: null, error: "The invoice has no carrier" };
        const a = allocateLine(rules, f.fields, catalogue.lookup, catalogue.siteCustomer);
        const error = a.error ? `No consignment ${f.fields.consignment_number ?? "(no number)"} for this carrier; ${a.error}` : null;
        return { id: f.id, customer_id: a.customerId, site_id: a.siteId, service_id: a.serviceId, error };
      });
      await db.execute(sql`
        update invoice_details d set customer_id = v.customer_id, site_id = v.site_id, service_id = v.service_id, consignment_id = null,
          state = case when v.error is null then 'allocated' else 'allocation_failure' end,
          allocated_by = case when v.error is null then 'rule' end, allocation_error = v.error, updated_at = now()
        from jsonb_to_recordset(${JSON.stringify(results)}::jsonb) as v(id int, customer_id int, site_id int, service_id int, error text)
        where d.id = v.id and d.allocated_by is distinct from 'manual'`);
      const ok = results.filter((r) => !r.error).length;
      allocated += ok;
      failed += results.length - ok;
      await report(allocated);
    }
  }

  // 3. the customer's invoice_allocate_by (docs/decisions/019 "Allocation"): invoiced by site needs
  // the line's site, by region its receiver region
  const refused = rowsOf<{ n: number }>(
    await db.execute(sql`
      with bad as (
        update invoice_details d set state = 'allocation_failure', allocation_error = case c.options->>'invoice_allocate_by'
            when 'SITE' then 'No site: ' || c.name || ' is invoiced by site' else 'No receiver region: ' || c.name || ' is invoiced by receiver region' end,
          updated_at = now()
        from customers c
        where ${where} and d.state = 'allocated' and c.id = d.customer_id
          and ((c.options->>'invoice_allocate_by' = 'SITE' and d.site_id is null) or (c.options->>'invoice_allocate_by' = 'REGION' and coalesce(d.receiver_region, '') = ''))
        returning 1)
      select count(*)::int as n from bad`),
  );
  allocated -= refused[0]?.n ?? 0;
  failed += refused[0]?.n ?? 0;

  // 4. an invoice follows its lines: allocated once every line is
  await db.execute(sql`
    update invoices i set state = case when exists (select 1 from invoice_details x where x.invoice_id = i.id)
        and not exists (select 1 from invoice_details x where x.invoice_id = i.id and x.state <> 'allocated') then 'allocated' else 'unallocated' end
    where i.state in ('unallocated', 'allocated') and i.accounting_type = 'payable'
      and i.id in (select distinct d.invoice_id from invoice_details d where ${sql`(d.invoice_id in (select jsonb_array_elements_text(${JSON.stringify(payload.invoiceIds)}::jsonb)::int) or d.id in (select jsonb_array_elements_text(${JSON.stringify(payload.invoiceDetailIds)}::jsonb)::int))`})`);
  await report(allocated);
  return { total, allocated, failed };
}

async function rulesOf(db: DbOrTx, carrierId: number): Promise<EngineRule[]> {
  const rows = rowsOf<{ id: number; customer_id: number | null; allocation_model: EngineRule["allocationModel"]; type: EngineRule["type"]; options: Record<string, unknown>; next_rule_id: number | null }>(
    await db.execute(sql`select id, customer_id, allocation_model, type, options, next_rule_id from allocation_rules where carrier_id = ${carrierId} and not deleted`),
  );
  return rows.map((r) => ({ id: r.id, customerId: r.customer_id, allocationModel: r.allocation_model, type: r.type, options: typeof r.options === "string" ? JSON.parse(r.options) : r.options, nextRuleId: r.next_rule_id }));
}

const camel = (l: Record<string, string | null | number>) => ({
  accountNumber: l.account_number as string | null,
  consignmentNumber: l.consignment_number as string | null,
  totalCost: (l.total_cost as string) ?? "0",
  parentAccountNumber: l.parent_account_number as string | null,
  payer: l.payer as string | null,
  senderName: l.sender_name as string | null,
  senderLocality: l.sender_locality as string | null,
  senderPostcode: l.sender_postcode as string | null,
  senderRegion: l.sender_region as string | null,
  senderZone: l.sender_zone as string | null,
  receiverName: l.receiver_name as string | null,
  receiverLocality: l.receiver_locality as string | null,
  receiverPostcode: l.receiver_postcode as string | null,
  receiverRegion: l.receiver_region as string | null,
  receiverZone: l.receiver_zone as string | null,
  reference: l.reference as string | null,
  serviceDescription: l.service_description as string | null,
});

export const allocateInput = z.object({
  invoice_ids: z.array(z.coerce.number().int().positive({ error: "Invoice ids must be positive whole numbers" })).max(10_000).optional(),
  invoice_detail_ids: z.array(z.coerce.number().int().positive({ error: "Invoice line ids must be positive whole numbers" })).max(100_000).optional(),
});

/**
 * The payable invoices and lines a finance job is asked to work on ({ invoice_ids } and/or
 * { invoice_detail_ids }), each id checked to exist: allocation's and reconciliation's alike.
 */
export async function invoiceTargets(db: DbOrTx, raw: z.infer<typeof allocateInput>): Promise<{ invoiceIds: number[]; invoiceDetailIds: number[] }> {
  const invoiceIds = [...new Set(raw.invoice_ids ?? [])];
  const invoiceDetailIds = [...new Set(raw.invoice_detail_ids ?? [])];
  if (!invoiceIds.length && !invoiceDetailIds.length) throw new AppError("invalid", "Select at least one invoice", { invoice_ids: ["Select at least one invoice"] });
  if (invoiceIds.length) {
    const found = rowsOf<{ id: number }>(await db.execute(sql`select id from invoices where accounting_type = 'payable' and id in (select jsonb_array_elements_text(${JSON.stringify(invoiceIds)}::jsonb)::int)`));
    if (found.length !== invoiceIds.length) throw new AppError("invalid", "No payable invoice has one of those ids", { invoice_ids: ["No payable invoice has one of those ids"] });
  }
  if (invoiceDetailIds.length) {
    const found = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from invoice_details where id in (select jsonb_array_elements_text(${JSON.stringify(invoiceDetailIds)}::jsonb)::int)`));
    if (found[0]?.n !== invoiceDetailIds.length) throw new AppError("invalid", "No invoice line has one of those ids", { invoice_detail_ids: ["No invoice line has one of those ids"] });
  }
  return { invoiceIds, invoiceDetailIds };
}

/** PUT /api/invoices/allocate and POST /invoices/allocate: checks the ids and queues the job. */
export async function startAllocation(db: DbOrTx, queue: JobQueue, user: CurrentUser, raw: z.infer<typeof allocateInput>): Promise<{ job_id: string }> {
  assertWriter(user);
  const { jobId } = await queue.enqueue(ALLOCATE_JOB, await invoiceTargets(db, raw), { userId: user.id, customerId: user.customer.id });
  return { job_id: jobId };
}
