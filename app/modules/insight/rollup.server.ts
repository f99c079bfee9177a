/**
 * The insight rollup (issue 33 item 4, docs/decisions/042): `insight_daily` holds, per day,
 * customer, site, carrier, service, mode, lane, currency and transit days, what the dashboards
 * read, so a page never scans the consignments; `insight_monthly` the same per month, so a year's
 * page reads twelve months of rows and the days of the months its period cuts; the two `_brief`
 * tables the same without the lane (migration 0042), for every read that needs none, and the two
 * `_transit` tables delivered consignments per lane and transit days alone, for the transit-days
 * chart without a carrier or service filter. Triggers
 * (migration 0037) append the (customer, day) slices a change touches to `insight_dirty`;
 * `refreshInsight` recomputes those slices, and `rebuildInsight` all of them.
 */
import { sql, type SQL } from "drizzle-orm";
import type { Db, DbOrTx } from "../../../db/client.server";
import { rowsOf } from "../../utils/sql-rows";
import { DESPATCHED_STATES } from "../consignments/rules";
import { rebuildAudit, refreshAuditMarks } from "./audit-rollup.server";
import { sumInto } from "./sum-into.server";

/** One refresher at a time over the whole database: its transaction holds this advisory lock. */
const REFRESH_LOCK = 4_033_001;
/** slices recomputed per transaction: a busy day's marks go in a few short transactions */
const SLICES_PER_TRANSACTION = 200;

const COUNTED = sql.join(
  DESPATCHED_STATES.map((s) => sql`${s}`),
  sql`, `,
);

/**
 * The rollup rows of the consignments `where` picks (a condition on "c"): one pass that reads each
 * consignment with its tracking dates, enquiries and emissions figure, grouped by the rollup's key.
 * Delivered means a delivered event (or a delivered state without one); on time, a delivered
 * event's date on or before the estimated delivery date; first attempt, delivered with no failed
 * delivery event before it. A charge weight rated in pounds is counted in kilograms.
 */
function rollupSelect(where: SQL) {
  return sql`
    select c.despatch_date as day, c.customer_id, c.site_id, s.carrier_id, c.service_id, s.transport_mode as mode,
      coalesce(sa.region, '') as from_region, coalesce(ra.region, '') as to_region,
      case st.country when 'NEW ZEALAND' then 'NZD' when 'UNITED STATES OF AMERICA' then 'USD' else 'AUD' end as currency,
      (t.delivered_on - c.despatch_date) as transit_days,
      count(*)::int as consignments,
      count(*) filter (where c.rating_detail->>'total_sell' is not null)::int as rated,
      coalesce(sum((c.rating_detail->>'total_sell')::numeric), 0) as sell,
      coalesce(sum((c.rating_detail->>'total_buy')::numeric), 0) as buy,
      coalesce(sum((c.rating_detail->>'charge_weight')::numeric
        * case when c.rating_detail->>'som' = 'imperial' then 0.45359237 else 1 end), 0) as charge_kg,
      count(*) filter (where t.delivered_on is not null or c.state in ('delivered', 'delivered_with_pod'))::int as delivered,
      count(*) filter (where t.delivered_on is not null and c.estimated_delivery_date is not null)::int as with_eta,
      count(*) filter (where t.delivered_on <= c.estimated_delivery_date)::int as on_time,
      count(*) filter (where t.delivered_at is not null and (t.failed_at is null or t.failed_at > t.delivered_at))::int as first_attempt,
      count(*) filter (where exists (select 1 from tickets k where k.consignment_id = c.id))::int as with_enquiry,
      count(e.kg_co2e)::int as with_emissions,
      coalesce(sum(e.kg_co2e), 0) as kg_co2e,
      coalesce(sum(e.tonnes * e.km) filter (where e.kg_co2e is not null), 0) as tonne_km
    from consignments c
    left join services s on s.id = c.service_id
    left join sites st on st.id = c.site_id
    left join addresses sa on sa.id = c.sender_address_id
    left join addresses ra on ra.id = c.receiver_address_id
    left join consignment_emissions e on e.consignment_id = c.id
    left join lateral (
      select min(ev.event_date) filter (where ev.event in ('delivered', 'delivered_with_pod')) as delivered_on,
        min(ev.event_time) filter (where ev.event in ('delivered', 'delivered_with_pod')) as delivered_at,
        min(ev.event_time) filter (where ev.event = 'failed_delivery') as failed_at
      from tracking_events ev where ev.consignment_id = c.id
    ) t on true
    where c.despatch_date is not null and c.state in (${COUNTED}) and not c.is_quote and c.active and c.merged_into_id is null
      and ${where}
    group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10`;
}

const MEASURES = ["consignments", "rated", "sell", "buy", "charge_kg", "delivered", "with_eta", "on_time", "first_attempt", "with_enquiry", "with_emissions", "kg_co2e", "tonne_km"];
/** the detailed rows' key, and the brief rows' (no lane: migration 0042) */
const KEY = ["day", "customer_id", "site_id", "carrier_id", "service_id", "mode", "from_region", "to_region", "currency", "transit_days"];
const BRIEF_KEY = ["day", "customer_id", "site_id", "carrier_id", "service_id", "mode", "currency"];
/** the transit-days rows' key and measure (delivered per lane and transit days, for the chart without a carrier or service filter) */
const TRANSIT_KEY = ["day", "customer_id", "site_id", "from_region", "to_region", "transit_days"];
const TRANSIT_MEASURES = ["delivered"];
const COLUMNS = sql.raw([...KEY, ...MEASURES].join(", "));

interface Slice {
  customer_id: number;
  day: string;
}

/**
 * Every rollup row but the detailed daily ones, summed from those: the brief and transit daily rows
 * of the days `day` picks, and the monthly rows, detailed, brief and transit, of the months `months`
 * lists as (customer, month's first day), or of every month when null.
 */
async function sumFromDaily(tx: DbOrTx, day: SQL, months: SQL | null) {
  const month = months ? sql`(d.customer_id, date_trunc('month', d.day)::date) in (${months})` : sql`true`;
  await sumInto(tx, "insight_daily_brief", "insight_daily", BRIEF_KEY, MEASURES, day);
  await sumInto(tx, "insight_monthly", "insight_daily", KEY, MEASURES, month, true);
  await sumInto(tx, "insight_monthly_brief", "insight_daily_brief", BRIEF_KEY, MEASURES, month, true);
  await sumInto(tx, "insight_daily_transit", "insight_daily", TRANSIT_KEY, TRANSIT_MEASURES, day);
  await sumInto(tx, "insight_monthly_transit", "insight_daily_transit", TRANSIT_KEY, TRANSIT_MEASURES, month, true);
}

const DAILY = ["insight_daily", "insight_daily_brief", "insight_daily_transit"];
const MONTHLY = ["insight_monthly", "insight_monthly_brief", "insight_monthly_transit"];

/** Recomputes the given (customer, day) slices: their rows, and their months', replaced by what the consignments say now. */
async function recompute(tx: DbOrTx, slices: Slice[]) {
  if (!slices.length) return;
  const customers = sql`${`{${slices.map((s) => s.customer_id).join(",")}}`}::int[]`;
  const days = sql`${`{${slices.map((s) => s.day).join(",")}}`}::date[]`;
  const day = sql`(d.customer_id, d.day) in (select * from unnest(${customers}, ${days}))`;
  const months = sql`select distinct customer_id, date_trunc('month', day)::date from unnest(${customers}, ${days}) as k(customer_id, day)`;
  for (const table of DAILY) await tx.execute(sql`delete from ${sql.raw(table)} d where ${day}`);
  for (const table of MONTHLY) await tx.execute(sql`delete from ${sql.raw(table)} d where (d.customer_id, d.day) in (${months})`);
  await tx.execute(sql`
    insert into insight_daily (${COLUMNS})
    ${rollupSelect(sql`(c.customer_id, c.despatch_date) in (select * from unnest(${customers}, ${days}))`)}`);
  await sumFromDaily(tx, day, months);
}

export interface RefreshResult {
  /** (customer, day) slices recomputed */
  slices: number;
  /** carrier invoices whose audit rows were recomputed */
  invoices: number;
  /** false when another process held the refresher's lock: nothing was done, the marks wait */
  ran: boolean;
}

/**
 * Takes the marks and recomputes their slices, until none are left. A mark is taken with every
 * other visible mark of its slice, in the transaction that recomputes it: a visible mark's change
 * has committed, so the recompute sees it; a change still open leaves its own mark, taken next time.
 * The advisory lock keeps a second refresher (another worker host) from recomputing the same slice
 * at once, which would insert its rows twice.
 */
export async function refreshInsight(db: Db): Promise<RefreshResult> {
  let total = 0;
  let invoices = 0;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const [lock] = rowsOf<{ ok: boolean }>(await tx.execute(sql`select pg_try_advisory_xact_lock(${REFRESH_LOCK}) as ok`));
      if (!lock?.ok) return null;
      const slices = rowsOf<Slice>(
        await tx.execute(sql`
          with first as (
            select distinct customer_id, day from (select customer_id, day from insight_dirty order by id limit ${SLICES_PER_TRANSACTION}) f
          ), taken as (
            delete from insight_dirty d using first where d.customer_id = first.customer_id and d.day = first.day
            returning d.customer_id, d.day
          )
          select distinct customer_id, day::text as day from taken order by 1, 2`),
      );
      await recompute(tx, slices);
      return { slices: slices.length, invoices: await refreshAuditMarks(tx) };
    });
    if (done === null) return { slices: total, invoices, ran: false };
    total += done.slices;
    invoices += done.invoices;
    if (done.slices === 0 && done.invoices === 0) return { slices: total, invoices, ran: true };
  }
}

/**
 * The rollup rebuilt from nothing (a changed rule of what is counted, or a restore): every row
 * replaced in one transaction, under the refresher's lock, so readers see the old rows until the new
 * are complete. Marks taken before it are covered by it.
 */
export async function rebuildInsight(db: Db): Promise<{ rows: number }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${REFRESH_LOCK})`);
    const before = rowsOf<{ id: string | null }>(await tx.execute(sql`select max(id)::text as id from insight_dirty`))[0]?.id;
    for (const table of [...DAILY, ...MONTHLY]) await tx.execute(sql`delete from ${sql.raw(table)}`);
    await tx.execute(sql`insert into insight_daily (${COLUMNS}) ${rollupSelect(sql`true`)}`);
    await sumFromDaily(tx, sql`true`, null);
    await rebuildAudit(tx);
    if (before) await tx.execute(sql`delete from insight_dirty where id <= ${before}`);
    const [row] = rowsOf<{ n: number }>(await tx.execute(sql`select count(*)::int as n from insight_daily`));
    return { rows: Number(row?.n ?? 0) };
  });
}

/** How far behind the rollup is: marks waiting, the audit's included (the health of the refresher, for /jobs and the bench). */
export async function insightBacklog(db: DbOrTx): Promise<number> {
  const [row] = rowsOf<{ n: number }>(await db.execute(sql`select ((select count(*) from insight_dirty) + (select count(*) from insight_audit_dirty))::int as n`));
  return Number(row?.n ?? 0);
}

/** Seconds between the worker's refreshes: the rollup follows a change within this and one refresh. */
export const REFRESH_SECONDS = 15;

/**
 * The worker's refresher: recomputes marked slices every REFRESH_SECONDS, one pass at a time in
 * this process (and, by the advisory lock, across hosts). A failed pass leaves its marks for the next.
 */
export function startInsightRefresher(db: Db, seconds = REFRESH_SECONDS): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  const pass = () => {
    running ??= refreshInsight(db)
      .catch((e: unknown) => console.error("[insight] refresh failed", e instanceof Error ? e.message : e))
      .finally(() => (running = null));
  };
  pass();
  const timer = setInterval(pass, seconds * 1000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
