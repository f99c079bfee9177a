/**
 * The freight audit's figures (issue 29, docs/decisions/029-audit-figures.md): what the invoice
 * audit found and won back, per carrier invoice and per carrier over the payable list's period.
 * Worked out over the reader's own lines only (lineScopeSql): one carrier invoice holds many
 * customers' lines, and a customer's finance user must not read figures that include another's.
 */
import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { rowsOf } from "../../utils/sql-rows";
import type { FinanceScope } from "./access";
import { lineScopeSql } from "./scope.server";

export interface AuditFigures {
  /** lines in the reader's scope */
  lines: number;
  /** lines the reconcile job matched within the thresholds, no person involved */
  matched_automatically: number;
  /** that count as a share of the lines, one decimal (null without lines) */
  matched_automatically_pct: number | null;
  /** what the carrier billed above the rating, on lines the comparison did not pass */
  discrepancy_found: number;
  /** the overcharge on lines now disputed */
  disputed: number;
  /** credits the carrier issued since, for the consignments of lines a person disputed or decided with an overcharge */
  recovered: number;
  /** lines found on another carrier invoice at import (decision 021) */
  duplicates_caught: { count: number; amount: number };
}
export interface CarrierAudit extends AuditFigures {
  carrier_id: number | null;
  carrier_name: string;
  /** YYYY-MM of the invoices' date, when asked for by month (the insight dashboard) */
  month?: string;
}

/** One group of audit lines as read from the database (money as numeric, string or number by engine). */
export interface AuditRow {
  carrier_id: number | null;
  month: string | null;
  carrier_name: string | null;
  lines: number;
  matched: number;
  discrepancy_found: string | number;
  disputed: string | number;
  recovered: string | number;
  duplicates: number;
  duplicates_amount: string | number;
}

/**
 * The payable lines `where` picks (a condition on "invoices" and the lines, alias d), each with what
 * its audit figures read, for AUDIT_MEASURES (alias l). A line is matched automatically when its
 * reconciliation is reconciled and carries no note: every decision a person takes (accept,
 * dispute, costs, rebill) needs one. The insight rollup (insight/audit-rollup.server.ts) groups the
 * same lines, so the dashboard and the payable list cannot disagree.
 */
export function auditLinesSql(where: SQL): SQL {
  return sql`
    select d.id, d.invoice_id, "invoices"."invoice_date", d.carrier_id, d.customer_id, d.site_id, d.service_id,
      upper(coalesce(d.sender_region, '')) as from_region, upper(coalesce(d.receiver_region, '')) as to_region,
      d.consignment_number, d.total_cost, d.duplicate_of_detail_id,
      r.state, coalesce(r.discrepancy_amount, 0) as discrepancy, r.reason_categories as reasons,
      r.id is not null and exists (select 1 from reconciliation_notes n where n.reconciliation_id = r.id) as decided
    from invoices
    join invoice_details d on d.invoice_id = "invoices"."id"
    left join reconciliations r on r.invoice_detail_id = d.id
    where "invoices"."accounting_type" = 'payable' and ${where}`;
}

/** An overcharge the comparison did not pass (a line of auditLinesSql, alias l): counted as found, and under its reasons. */
export const CONTESTED = sql`l.discrepancy > 0 and not (l.state = 'reconciled' and not l.decided)`;

/**
 * A group of auditLinesSql's lines (alias l) as AuditRow's figures. Recovered: credits the carrier
 * issued since (a negative line of the same carrier and consignment number on a later invoice) for
 * lines a person disputed or decided with an overcharge.
 */
export const AUDIT_MEASURES = sql`
  count(*)::int as lines,
  count(*) filter (where l.state = 'reconciled' and not l.decided)::int as matched,
  coalesce(sum(l.discrepancy) filter (where ${CONTESTED}), 0) as discrepancy_found,
  coalesce(sum(l.discrepancy) filter (where l.state = 'disputed' and l.discrepancy > 0), 0) as disputed,
  coalesce(sum((
    select -sum(c.total_cost) from invoice_details c
    where c.consignment_number = l.consignment_number and c.carrier_id = l.carrier_id and c.total_cost < 0 and c.invoice_id <> l.invoice_id and c.id > l.id
  )) filter (where l.consignment_number is not null and l.discrepancy > 0 and (l.state = 'disputed' or l.decided)), 0) as recovered,
  count(*) filter (where l.duplicate_of_detail_id is not null)::int as duplicates,
  coalesce(sum(l.total_cost) filter (where l.duplicate_of_detail_id is not null), 0) as duplicates_amount`;

/** A row of AuditRow's shape as a carrier's figures. */
export function toCarrierAudit(r: AuditRow): CarrierAudit {
  return {
    carrier_id: r.carrier_id ?? null,
    carrier_name: r.carrier_name ?? "No carrier",
    ...(r.month ? { month: r.month } : {}),
    lines: Number(r.lines),
    matched_automatically: Number(r.matched),
    matched_automatically_pct: Number(r.lines) ? Math.round((Number(r.matched) / Number(r.lines)) * 1000) / 10 : null,
    discrepancy_found: Number(r.discrepancy_found),
    disputed: Number(r.disputed),
    recovered: Number(r.recovered),
    duplicates_caught: { count: Number(r.duplicates), amount: Number(r.duplicates_amount) },
  };
}

/**
 * Per carrier over the invoices `where` picks (the payable list's filters, GET /api/invoices; one
 * invoice for invoiceAudit; `where` is a condition on "invoices"): one statement over the reader's
 * payable lines, grouped by carrier (and month of the invoice date, when asked).
 */
export async function carrierAudit(db: DbOrTx, scope: FinanceScope, where: SQL, options: { byMonth?: boolean } = {}): Promise<CarrierAudit[]> {
  const month = options.byMonth ? sql`to_char(l.invoice_date, 'YYYY-MM')` : sql`null::text`;
  const rows = rowsOf<AuditRow>(
    await db.execute(sql`
      with l as (${auditLinesSql(sql`${where} and ${lineScopeSql(scope)}`)})
      select l.carrier_id, ${month} as month, (select ca.name from carriers ca where ca.id = l.carrier_id) as carrier_name, ${AUDIT_MEASURES}
      from l
      group by l.carrier_id, 2
      order by l.carrier_id, 2`),
  );
  return rows.map(toCarrierAudit);
}

const NONE: AuditFigures = { lines: 0, matched_automatically: 0, matched_automatically_pct: null, discrepancy_found: 0, disputed: 0, recovered: 0, duplicates_caught: { count: 0, amount: 0 } };

/** One carrier invoice's figures (the invoice page and GET /api/invoices/{id}). */
export async function invoiceAudit(db: DbOrTx, scope: FinanceScope, invoiceId: number): Promise<AuditFigures> {
  const [row] = await carrierAudit(db, scope, sql`"invoices"."id" = ${invoiceId}`);
  if (!row) return NONE;
  const { carrier_id: _, carrier_name: __, ...figures } = row;
  return figures;
}

export interface DiscrepancyReason {
  reason: string;
  lines: number;
  amount: number;
}

/** A reason's row as read (money as numeric, string or number by engine). */
export const toDiscrepancyReason = (r: { reason: string; lines: number; amount: string | number }): DiscrepancyReason => ({ reason: r.reason, lines: Number(r.lines), amount: Number(r.amount) });

/**
 * The reasons the comparison gave for the overcharges it did not pass (a reconciliation's reason
 * categories), most money first: what the carriers most often bill above the rating, within the
 * reader's lines. A line with two reasons counts under each.
 */
export async function discrepancyReasons(db: DbOrTx, scope: FinanceScope, where: SQL, limit = 8): Promise<DiscrepancyReason[]> {
  const rows = rowsOf<{ reason: string; lines: number; amount: string | number }>(
    await db.execute(sql`
      with l as (${auditLinesSql(sql`${where} and ${lineScopeSql(scope)}`)})
      select x.reason, count(*)::int as lines, sum(l.discrepancy) as amount
      from l cross join unnest(l.reasons) as x(reason)
      where ${CONTESTED}
      group by x.reason
      order by sum(l.discrepancy) desc, x.reason
      limit ${limit}`),
  );
  return rows.map(toDiscrepancyReason);
}
