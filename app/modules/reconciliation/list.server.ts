/**
 * The reconciliations list (issue 19 item 2; spec 3 sections 2 and 7): GET /api/reconciliations
 * and the /reconciliations screens read it here. Scoped by financeScope: a customer's finance
 * user sees their customer's lines only, and another customer's ids look like none.
 *
 * Kept fast over a million rows (bench/reconciliations-list.ts): the tab, customer, carrier,
 * reasons, margin and discrepancy live on reconciliations (indexed per tab, migration 0022); the
 * invoice line and invoice are joined only when a filter or the sort needs them, and the count
 * and the meta_data sums read reconciliations alone when they can.
 */
import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import type { CurrentUser } from "../auth/current-user.server";
import { financeScope } from "../invoices/access";
import { toCents } from "../invoicing/money";
import { rowsOf } from "../../utils/sql-rows";
import { parseOrThrow } from "../../utils/validation";
import { DEFAULT_PER_PAGE, listQuerySchema, type ListQuery, type OrderColumn } from "./list-schemas";
import { RECONCILIATION_STATES, type ReconciliationState } from "./states";
import type { ReasonCategory } from "./compare";

/** A row of the list as the screen shows it and /api answers it (snake_case, spec 3 section 3). */
export interface ReconciliationRow {
  id: number;
  state: ReconciliationState;
  version: number;
  invoice_detail_id: number;
  invoice_id: number;
  invoice_number: string | null;
  consignment_id: number | null;
  consignment_number: string | null;
  carrier_id: number | null;
  carrier_code: string | null;
  carrier_name: string | null;
  customer_id: number | null;
  customer_name: string | null;
  from_zone: string | null;
  to_zone: string | null;
  weight: number | null;
  rated_buy: number;
  invoiced: number;
  margin: number;
  margin_percent: number | null;
  discrepancy_amount: number;
  reason_categories: ReasonCategory[];
  reconciliation_reasons: Array<{ reason: ReasonCategory }>;
  reconciliation_options: { charge_from_consignment: boolean; rerate_required: boolean };
  reconciled_at: string | null;
}

/** Where each sortable column lives; `detail`: needs the invoice line (and invoice) joined. */
const ORDER: Record<OrderColumn, { expr: SQL; detail: boolean }> = {
  id: { expr: sql`r.id`, detail: false },
  consignment_number: { expr: sql`d.consignment_number`, detail: true },
  invoice_number: { expr: sql`i.invoice_number`, detail: true },
  from_zone: { expr: sql`d.sender_zone`, detail: true },
  to_zone: { expr: sql`d.receiver_zone`, detail: true },
  weight: { expr: sql`d.total_charge_weight`, detail: true },
  margin: { expr: sql`r.margin`, detail: false },
  discrepancy: { expr: sql`r.discrepancy_amount`, detail: false },
};

// a LIKE pattern that matches the text typed literally, from its start
const prefix = (v: string) => `${v.toUpperCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const dollars = (v: number) => (toCents(v) / 100).toFixed(2);

interface Conditions {
  /** on reconciliations alone */
  own: SQL[];
  /** on the joined invoice line or invoice */
  detail: SQL[];
}

/** The filters of a query (the tab aside), split by the table they need. */
async function conditionsOf(db: DbOrTx, user: CurrentUser, q: ListQuery): Promise<Conditions | null> {
  const scope = financeScope(user);
  const own: SQL[] = [];
  const detail: SQL[] = [];
  if (scope.kind === "customer") own.push(sql`r.customer_id = ${scope.customerId}`);
  if (q.customer_id) own.push(sql`r.customer_id = ${q.customer_id}`);
  if (q.carrier_code) {
    const found = rowsOf<{ id: number }>(await db.execute(sql`select id from carriers where lower(code) = lower(${q.carrier_code})`));
    // an unknown carrier has no lines
    if (!found.length) return null;
    own.push(sql`r.carrier_id = ${found[0]!.id}`);
  }
  if (q.reasons.length) own.push(sql`r.reason_categories && array[${sql.join(
        q.reasons.map((r) => sql`${r}`),
        sql`, `,
      )}]::text[]`);
  if (q.margin !== undefined) own.push(sql`r.margin = ${dollars(q.margin)}::numeric`);
  if (q.discrepancy !== undefined) own.push(sql`r.discrepancy_amount = ${dollars(q.discrepancy)}::numeric`);
  if (q.invoice_id) detail.push(sql`d.invoice_id = ${q.invoice_id}`);
  if (q.consignment_number) detail.push(sql`upper(d.consignment_number) like ${prefix(q.consignment_number)}`);
  if (q.invoice_number) detail.push(sql`upper(i.invoice_number) like ${prefix(q.invoice_number)}`);
  if (q.from_zone) detail.push(sql`upper(d.sender_zone) = ${q.from_zone.toUpperCase()}`);
  if (q.to_zone) detail.push(sql`upper(d.receiver_zone) = ${q.to_zone.toUpperCase()}`);
  if (q.weight !== undefined) detail.push(sql`d.total_charge_weight = ${q.weight.toFixed(3)}::numeric`);
  return { own, detail };
}

const JOIN_DETAIL = sql`join invoice_details d on d.id = r.invoice_detail_id join invoices i on i.id = d.invoice_id`;
const whereOf = (parts: SQL[]) => (parts.length ? sql`where ${sql.join(parts, sql` and `)}` : sql``);

/** What the list answers: a page of rows and where it is. */
export interface ListPage {
  reconciliations: ReconciliationRow[];
  pagination: { current_page: number; total_pages: number; total_records: number; per_page: number };
}
/** The meta_data variant: counts per tab (the tab aside) and the tab's totals, for the same filters. */
export interface ListMeta {
  states: Record<ReconciliationState, number>;
  totals: { margin: number; discrepancy: number };
}

/** The query, parsed, with the page size the user saved when none is asked for. */
export function parseListQuery(user: CurrentUser, raw: Record<string, unknown>): ListQuery & { per_page: number } {
  const q = parseOrThrow(listQuerySchema, raw);
  const saved = Number(user.options.reconciliation_per_page);
  return { ...q, per_page: q.per_page ?? ([20, 50, 100, 150].includes(saved) ? saved : DEFAULT_PER_PAGE) };
}

/** GET /api/reconciliations: a page of the tab's rows. */
export async function listReconciliations(db: DbOrTx, user: CurrentUser, raw: Record<string, unknown>): Promise<ListPage> {
  const q = parseListQuery(user, raw);
  const empty: ListPage = { reconciliations: [], pagination: { current_page: q.page, total_pages: 1, total_records: 0, per_page: q.per_page } };
  const c = await conditionsOf(db, user, q);
  if (!c) return empty;
  const filtered = [sql`r.state = ${q.state}`, ...c.own, ...c.detail];
  const joinForCount = c.detail.length ? JOIN_DETAIL : sql``;
  const [{ n }] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from reconciliations r ${joinForCount} ${whereOf(filtered)}`)) as [{ n: number }];
  const total = Number(n);
  const order = ORDER[q.order_by];
  // the default order is the newest first; a column's, ascending
  const desc = (q.order_direction ?? (q.order_by === "id" ? "desc" : "asc")) === "desc";
  // blanks order as PostgreSQL orders them (as the largest), so an index serves both directions
  const dir = sql.raw(desc ? "desc" : "asc");
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select r.id, r.state, r.version, r.invoice_detail_id, d.invoice_id, i.invoice_number, r.consignment_id, d.consignment_number,
        r.carrier_id, ca.code as carrier_code, ca.name as carrier_name, r.customer_id, cu.name as customer_name,
        d.sender_zone as from_zone, d.receiver_zone as to_zone, d.total_charge_weight::text as weight,
        r.rated_buy::text, r.invoiced::text, r.margin::text, r.margin_percent::text, r.discrepancy_amount::text,
        r.reason_categories, r.charge_from_consignment, r.rerate_required, r.reconciled_at
      from reconciliations r ${JOIN_DETAIL}
      left join carriers ca on ca.id = r.carrier_id
      left join customers cu on cu.id = r.customer_id
      ${whereOf(filtered)}
      order by ${order.expr} ${dir}, r.id ${dir}
      limit ${q.per_page} offset ${(q.page - 1) * q.per_page}`),
  );
  return {
    reconciliations: rows.map(rowJson),
    pagination: { current_page: q.page, total_pages: Math.max(1, Math.ceil(total / q.per_page)), total_records: total, per_page: q.per_page },
  };
}

/** GET /api/reconciliations?meta_data=true: the tabs' counts and the current tab's totals. */
export async function listMeta(db: DbOrTx, user: CurrentUser, raw: Record<string, unknown>): Promise<ListMeta> {
  const q = parseListQuery(user, raw);
  const c = await conditionsOf(db, user, q);
  if (!c) return { states: { reconciling: 0, disputed: 0, reconciled: 0 }, totals: { margin: 0, discrepancy: 0 } };
  const join = c.detail.length ? JOIN_DETAIL : sql``;
  const [row] = rowsOf<Record<string, string | number | null>>(
    await db.execute(sql`
      select count(*) filter (where r.state = 'reconciling')::int as reconciling,
        count(*) filter (where r.state = 'disputed')::int as disputed,
        count(*) filter (where r.state = 'reconciled')::int as reconciled,
        coalesce(sum(r.margin) filter (where r.state = ${q.state}), 0)::text as margin,
        coalesce(sum(r.discrepancy_amount) filter (where r.state = ${q.state}), 0)::text as discrepancy
      from reconciliations r ${join} ${whereOf([...c.own, ...c.detail])}`),
  );
  const states = Object.fromEntries(RECONCILIATION_STATES.map((s) => [s, Number(row?.[s] ?? 0)])) as Record<ReconciliationState, number>;
  return { states, totals: { margin: toCents(String(row?.margin ?? "0")) / 100, discrepancy: toCents(String(row?.discrepancy ?? "0")) / 100 } };
}

const num = (v: unknown) => (v == null ? null : Number(v));

function rowJson(r: Record<string, unknown>): ReconciliationRow {
  const reasons = (r.reason_categories as ReasonCategory[] | null) ?? [];
  return {
    id: Number(r.id),
    state: r.state as ReconciliationState,
    version: Number(r.version),
    invoice_detail_id: Number(r.invoice_detail_id),
    invoice_id: Number(r.invoice_id),
    invoice_number: (r.invoice_number as string | null) ?? null,
    consignment_id: num(r.consignment_id),
    consignment_number: (r.consignment_number as string | null) ?? null,
    carrier_id: num(r.carrier_id),
    carrier_code: (r.carrier_code as string | null) ?? null,
    carrier_name: (r.carrier_name as string | null) ?? null,
    customer_id: num(r.customer_id),
    customer_name: (r.customer_name as string | null) ?? null,
    from_zone: (r.from_zone as string | null) ?? null,
    to_zone: (r.to_zone as string | null) ?? null,
    weight: num(r.weight),
    rated_buy: Number(r.rated_buy),
    invoiced: Number(r.invoiced),
    margin: Number(r.margin),
    margin_percent: num(r.margin_percent),
    discrepancy_amount: Number(r.discrepancy_amount),
    reason_categories: reasons,
    reconciliation_reasons: reasons.map((reason) => ({ reason })),
    reconciliation_options: { charge_from_consignment: Boolean(r.charge_from_consignment), rerate_required: Boolean(r.rerate_required) },
    reconciled_at: r.reconciled_at == null ? null : new Date(r.reconciled_at as string).toISOString(),
  };
}

/** The carrier and customer filters' choices: those the user's lines have, by name. */
export async function listChoices(db: DbOrTx, user: CurrentUser) {
  const scope = financeScope(user);
  const mine = scope.kind === "customer" ? sql`where id = ${scope.customerId}` : sql``;
  const [carrierRows, customerRows] = await Promise.all([
    db.execute(sql`select code, name from carriers order by lower(name)`),
    db.execute(sql`select id, name from customers ${mine} order by lower(name) limit 1000`),
  ]);
  return { carriers: rowsOf<{ code: string; name: string }>(carrierRows), customers: rowsOf<{ id: number; name: string }>(customerRows) };
}

/** A URL's query as the list reads it: repeated reasons (a multi-select) joined into one list. */
export function listQueryOf(params: URLSearchParams): Record<string, unknown> {
  const raw: Record<string, unknown> = Object.fromEntries(params);
  const reasons = params.getAll("reasons");
  if (reasons.length > 1) raw.reasons = reasons.join(",");
  return raw;
}
