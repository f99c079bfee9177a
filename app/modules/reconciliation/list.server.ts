/**
 * The reconciliations list (issue 19 item 2; spec 3 sections 2 and 7): GET /api/reconciliations
 * and the /reconciliations screens read it here. Scoped by financeScope: a customer's finance
 * user sees their customer's lines only, and another customer's ids look like none.
 *
 * Kept fast over a million rows (bench/reconciliations-list.ts): every filter and sort reads
 * reconciliations alone (the invoice line's keys are copied there by triggers and indexed per tab,
 * migrations 0022 and 0023), the page's twenty rows are joined afterwards, and the tab counts and
 * totals come from the tallies ledger when the filters are only customer, carrier and reasons.
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

/** Each sortable column: on reconciliations, kept there for the list (migration 0023). */
const ORDER: Record<OrderColumn, SQL> = {
  id: sql`r.id`,
  consignment_number: sql`r.consignment_key`,
  invoice_number: sql`r.invoice_number_key`,
  from_zone: sql`r.from_zone_key`,
  to_zone: sql`r.to_zone_key`,
  weight: sql`r.charge_weight`,
  margin: sql`r.margin`,
  discrepancy: sql`r.discrepancy_amount`,
};

// a LIKE pattern that matches the text typed literally, from its start
const prefix = (v: string) => `${v.toUpperCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const dollars = (v: number) => (toCents(v) / 100).toFixed(2);

interface Conditions {
  /** every filter, on reconciliations alone */
  where: SQL[];
  /** the same filters on the tallies, when they are all the tallies know (customer, carrier, reasons); else null */
  tallies: SQL[] | null;
}

/** The filters of a query (the tab aside). */
async function conditionsOf(db: DbOrTx, user: CurrentUser, q: ListQuery): Promise<Conditions | null> {
  const scope = financeScope(user);
  const where: SQL[] = [];
  const tallies: SQL[] = [];
  if (scope.kind === "customer") {
    where.push(sql`r.customer_id = ${scope.customerId}`);
    tallies.push(sql`customer_id = ${scope.customerId}`);
  }
  if (q.customer_id) {
    where.push(sql`r.customer_id = ${q.customer_id}`);
    tallies.push(sql`customer_id = ${q.customer_id}`);
  }
  if (q.carrier_code) {
    const found = rowsOf<{ id: number }>(await db.execute(sql`select id from carriers where lower(code) = lower(${q.carrier_code})`));
    // an unknown carrier has no lines
    if (!found.length) return null;
    where.push(sql`r.carrier_id = ${found[0]!.id}`);
    tallies.push(sql`carrier_id = ${found[0]!.id}`);
  }
  if (q.reasons.length) {
    const chosen = sql`array[${sql.join(
      q.reasons.map((r) => sql`${r}`),
      sql`, `,
    )}]::text[]`;
    where.push(sql`r.reason_categories && ${chosen}`);
    tallies.push(sql`reasons && ${chosen}`);
  }
  const counted = where.length;
  if (q.margin !== undefined) where.push(sql`r.margin = ${dollars(q.margin)}::numeric`);
  if (q.discrepancy !== undefined) where.push(sql`r.discrepancy_amount = ${dollars(q.discrepancy)}::numeric`);
  if (q.invoice_id) where.push(sql`r.invoice_id = ${q.invoice_id}`);
  if (q.consignment_number) where.push(sql`r.consignment_key like ${prefix(q.consignment_number)}`);
  if (q.invoice_number) where.push(sql`r.invoice_number_key like ${prefix(q.invoice_number)}`);
  if (q.from_zone) where.push(sql`r.from_zone_key = ${q.from_zone.toUpperCase()}`);
  if (q.to_zone) where.push(sql`r.to_zone_key = ${q.to_zone.toUpperCase()}`);
  if (q.weight !== undefined) where.push(sql`r.charge_weight = ${q.weight.toFixed(3)}::numeric`);
  return { where, tallies: where.length === counted ? tallies : null };
}

/** Matches the list sorts itself rather than read in the sort's order (a few ms of sorting). */
const FEW_ROWS = 20_000;

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

/** GET /api/reconciliations: a page of the tab's rows. `fewRows` moves the bound below (the tests try both ways). */
export async function listReconciliations(db: DbOrTx, user: CurrentUser, raw: Record<string, unknown>, opts: { fewRows?: number } = {}): Promise<ListPage> {
  const q = parseListQuery(user, raw);
  const empty: ListPage = { reconciliations: [], pagination: { current_page: q.page, total_pages: 1, total_records: 0, per_page: q.per_page } };
  const c = await conditionsOf(db, user, q);
  if (!c) return empty;
  const filtered = [sql`r.state = ${q.state}`, ...c.where];
  const [{ n }] = rowsOf<{ n: number }>(
    await db.execute(
      c.tallies
        ? sql`select coalesce(sum(lines), 0)::int as n from reconciliation_tallies ${whereOf([sql`state = ${q.state}`, ...c.tallies])}`
        : sql`select count(*)::int as n from reconciliations r ${whereOf(filtered)}`,
    ),
  ) as [{ n: number }];
  const total = Number(n);
  // the default order is the newest first; a column's, ascending
  const desc = (q.order_direction ?? (q.order_by === "id" ? "desc" : "asc")) === "desc";
  // blanks order as PostgreSQL orders them (as the largest), so an index serves both directions
  const dir = sql.raw(desc ? "desc" : "asc");
  // A filter on a line's key that matches few rows: those rows first, then sorted. Left to itself
  // the planner may walk the whole tab in the sort's order looking for matches that all sit at its
  // far end (one invoice's lines are neighbours in id order).
  const few = !c.tallies && total <= (opts.fewRows ?? FEW_ROWS);
  const chosen = few
    ? sql`select r.id from (select r.id, ${ORDER[q.order_by]} as sort_key from reconciliations r ${whereOf(filtered)} offset 0) r order by r.sort_key ${dir}, r.id ${dir}`
    : sql`select r.id from reconciliations r ${whereOf(filtered)} order by ${ORDER[q.order_by]} ${dir}, r.id ${dir}`;
  // the page's ids are chosen on reconciliations alone (from an index where one serves), then its
  // rows are read and joined for what it shows
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      with page as (
        select r.* from reconciliations r
        where r.id in (${chosen} limit ${q.per_page} offset ${(q.page - 1) * q.per_page})
      )
      select r.id, r.state, r.version, r.invoice_detail_id, d.invoice_id, i.invoice_number, r.consignment_id, d.consignment_number,
        r.carrier_id, ca.code as carrier_code, ca.name as carrier_name, r.customer_id, cu.name as customer_name,
        d.sender_zone as from_zone, d.receiver_zone as to_zone, d.total_charge_weight::text as weight,
        r.rated_buy::text, r.invoiced::text, r.margin::text, r.margin_percent::text, r.discrepancy_amount::text,
        r.reason_categories, r.charge_from_consignment, r.rerate_required, r.reconciled_at
      from page r
      join invoice_details d on d.id = r.invoice_detail_id
      join invoices i on i.id = d.invoice_id
      left join carriers ca on ca.id = r.carrier_id
      left join customers cu on cu.id = r.customer_id
      order by ${ORDER[q.order_by]} ${dir}, r.id ${dir}`),
  );
  return {
    reconciliations: rows.map(rowJson),
    pagination: { current_page: q.page, total_pages: Math.max(1, Math.ceil(total / q.per_page)), total_records: total, per_page: q.per_page },
  };
}

/**
 * GET /api/reconciliations?meta_data=true: the tabs' counts and the current tab's totals. From the
 * tallies when the filters are only customer, carrier and reasons; otherwise counted over the filtered rows.
 * `scan` forces the count (the tests compare the two).
 */
export async function listMeta(db: DbOrTx, user: CurrentUser, raw: Record<string, unknown>, opts: { scan?: boolean } = {}): Promise<ListMeta> {
  const q = parseListQuery(user, raw);
  const c = await conditionsOf(db, user, q);
  if (!c) return { states: { reconciling: 0, disputed: 0, reconciled: 0 }, totals: { margin: 0, discrepancy: 0 } };
  const [row] = rowsOf<Record<string, string | number | null>>(
    await db.execute(
      c.tallies && !opts.scan
        ? sql`
      select coalesce(sum(lines) filter (where state = 'reconciling'), 0)::int as reconciling,
        coalesce(sum(lines) filter (where state = 'disputed'), 0)::int as disputed,
        coalesce(sum(lines) filter (where state = 'reconciled'), 0)::int as reconciled,
        coalesce(sum(margin) filter (where state = ${q.state}), 0)::text as margin,
        coalesce(sum(discrepancy) filter (where state = ${q.state}), 0)::text as discrepancy
      from reconciliation_tallies ${whereOf(c.tallies)}`
        : // a count per tab, each with its state fixed, so the (state, key, id) indexes serve it
          sql`
      select ${sql.join(
        RECONCILIATION_STATES.map((s) => sql`(select count(*) from reconciliations r ${whereOf([sql`r.state = ${s}`, ...c.where])})::int as ${sql.identifier(s)}`),
        sql`, `,
      )}, t.margin, t.discrepancy
      from (select coalesce(sum(r.margin), 0)::text as margin, coalesce(sum(r.discrepancy_amount), 0)::text as discrepancy
        from reconciliations r ${whereOf([sql`r.state = ${q.state}`, ...c.where])}) t`,
    ),
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
