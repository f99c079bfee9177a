/**
 * The audit tab's rollup (issue 33 item 4, docs/decisions/042, migration 0040): the invoice
 * audit's figures per payable carrier invoice, customer, site, carrier, service and lane, grouped
 * from the same lines and by the same measures as the payable list's (invoices/audit.server.ts),
 * so a year of a million lines is read as a few rows per invoice; and per invoice, customer and
 * carrier alone (the `_brief` tables, migration 0042) for a page with no site, service or lane
 * filter. Triggers append the invoices a change touches to `insight_audit_dirty`; the insight
 * refresher recomputes them with its slices.
 */
import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { rowsOf } from "../../utils/sql-rows";
import type { FinanceScope } from "../invoices/access";
import { AUDIT_MEASURES, auditLinesSql, CONTESTED, toCarrierAudit, toDiscrepancyReason, type AuditRow, type CarrierAudit, type DiscrepancyReason } from "../invoices/audit.server";
import type { InsightFilters } from "./filters";
import { sumInto } from "./sum-into.server";

/** invoices recomputed per transaction: one carrier invoice may hold a hundred thousand lines */
export const AUDIT_INVOICES_PER_TRANSACTION = 20;

const KEY = sql.raw(`invoice_id, day, customer_id, site_id, carrier_id, service_id, from_region, to_region`);
const LINE_KEY = sql.raw(`l.invoice_id, l.invoice_date, l.customer_id, l.site_id, l.carrier_id, l.service_id, l.from_region, l.to_region`);

/**
 * The rollup's rows of the invoices `where` picks (a condition on "invoices"), in both tables, and
 * their brief rows (per invoice, customer and carrier: migration 0042) summed from them; `ids` is
 * the same choice as a condition on the rollup's rows (alias d).
 */
async function insertRows(tx: DbOrTx, where: SQL, ids: SQL) {
  await tx.execute(sql`
    insert into insight_audit (${KEY}, lines, matched, discrepancy_found, disputed, recovered, duplicates, duplicates_amount)
    with l as (${auditLinesSql(where)})
    select ${LINE_KEY}, ${AUDIT_MEASURES} from l group by 1, 2, 3, 4, 5, 6, 7, 8`);
  await tx.execute(sql`
    insert into insight_audit_reasons (${KEY}, reason, lines, amount)
    with l as (${auditLinesSql(where)})
    select ${LINE_KEY}, x.reason, count(*)::int, sum(l.discrepancy)
    from l cross join unnest(l.reasons) as x(reason) where ${CONTESTED}
    group by 1, 2, 3, 4, 5, 6, 7, 8, 9`);
  const brief = ["invoice_id", "day", "customer_id", "carrier_id"];
  await sumInto(tx, "insight_audit_brief", "insight_audit", brief, ["lines", "matched", "discrepancy_found", "disputed", "recovered", "duplicates", "duplicates_amount"], ids);
  await sumInto(tx, "insight_audit_reasons_brief", "insight_audit_reasons", [...brief, "reason"], ["lines", "amount"], ids);
}

const TABLES = ["insight_audit", "insight_audit_reasons", "insight_audit_brief", "insight_audit_reasons_brief"];

/** Recomputes the given invoices: their rows replaced by what their lines say now (none for an invoice gone). */
export async function recomputeAudit(tx: DbOrTx, invoiceIds: number[]) {
  if (!invoiceIds.length) return;
  const ids = sql`${`{${invoiceIds.join(",")}}`}::int[]`;
  for (const table of TABLES) await tx.execute(sql`delete from ${sql.raw(table)} where invoice_id = any(${ids})`);
  await insertRows(tx, sql`"invoices"."id" = any(${ids})`, sql`d.invoice_id = any(${ids})`);
}

/**
 * Takes up to AUDIT_INVOICES_PER_TRANSACTION marked invoices, every visible mark of each, and
 * recomputes them, in the caller's transaction (which holds the refresher's lock). A visible mark's
 * change has committed, so the recompute sees it; a change still open leaves its own mark.
 */
export async function refreshAuditMarks(tx: DbOrTx): Promise<number> {
  const taken = rowsOf<{ invoice_id: number }>(
    await tx.execute(sql`
      with first as (
        select distinct invoice_id from (select invoice_id from insight_audit_dirty order by id limit ${AUDIT_INVOICES_PER_TRANSACTION}) f
      ), taken as (
        delete from insight_audit_dirty d using first where d.invoice_id = first.invoice_id returning d.invoice_id
      )
      select distinct invoice_id from taken order by 1`),
  );
  await recomputeAudit(tx, taken.map((t) => Number(t.invoice_id)));
  return taken.length;
}

/** Every row again from the lines (rebuildInsight, under its lock), and the marks taken before it dropped. */
export async function rebuildAudit(tx: DbOrTx) {
  const before = rowsOf<{ id: string | null }>(await tx.execute(sql`select max(id)::text as id from insight_audit_dirty`))[0]?.id;
  for (const table of TABLES) await tx.execute(sql`delete from ${sql.raw(table)}`);
  await insertRows(tx, sql`true`, sql`true`);
  if (before) await tx.execute(sql`delete from insight_audit_dirty where id <= ${before}`);
}

/**
 * The rollup rows (alias r) of the reader's lines in the period under the filters, as a FROM item
 * of each table; a site narrows them only when chosen (decision 022). Without a site, service or
 * lane filter, the brief rows (per invoice, customer and carrier), a hundredth as many.
 */
function auditRollupSource(scope: FinanceScope, f: InsightFilters): { figures: SQL; reasons: SQL } {
  const parts: SQL[] = [sql`r.day between ${f.from} and ${f.to}`];
  if (scope.kind === "customer") parts.push(sql`r.customer_id = ${scope.customerId}`);
  if (f.carrierId != null) parts.push(sql`r.carrier_id = ${f.carrierId}`);
  if (f.siteId != null) parts.push(sql`r.site_id = ${f.siteId}`);
  if (f.serviceId != null) parts.push(sql`r.service_id = ${f.serviceId}`);
  if (f.lane) parts.push(sql`r.from_region = ${f.lane.from} and r.to_region = ${f.lane.to}`);
  const brief = f.siteId == null && f.serviceId == null && !f.lane ? "_brief" : "";
  const where = sql.join(parts, sql` and `);
  const from = (table: string) => sql`(select * from ${sql.raw(table + brief)} r where ${where}) r`;
  return { figures: from("insight_audit"), reasons: from("insight_audit_reasons") };
}

/** The audit tab's figures from the rollup: per carrier and month of the invoice date, and the top reasons. */
export async function auditFromRollup(db: DbOrTx, scope: FinanceScope, f: InsightFilters, limit = 8): Promise<{ byMonth: CarrierAudit[]; reasons: DiscrepancyReason[] }> {
  const source = auditRollupSource(scope, f);
  const rows = rowsOf<AuditRow>(
    await db.execute(sql`
      select r.carrier_id, to_char(r.day, 'YYYY-MM') as month, ca.name as carrier_name,
        sum(r.lines)::int as lines, sum(r.matched)::int as matched, sum(r.discrepancy_found) as discrepancy_found, sum(r.disputed) as disputed,
        sum(r.recovered) as recovered, sum(r.duplicates)::int as duplicates, sum(r.duplicates_amount) as duplicates_amount
      from ${source.figures} left join carriers ca on ca.id = r.carrier_id
      group by 1, 2, 3 order by 1, 2`),
  );
  const reasons = rowsOf<{ reason: string; lines: number; amount: string | number }>(
    await db.execute(sql`
      select r.reason, sum(r.lines)::int as lines, sum(r.amount) as amount from ${source.reasons}
      group by 1 order by sum(r.amount) desc, 1 limit ${limit}`),
  );
  return { byMonth: rows.map(toCarrierAudit), reasons: reasons.map(toDiscrepancyReason) };
}
