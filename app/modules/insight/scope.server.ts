/**
 * Whose figures a reader of /insight gets (issue 33 item 2): staff any customer's, or every
 * customer's together; a customer's users their own customer's, from their own sites. An id in the
 * filters the reader may not see is refused (404, the same answer as an id that does not exist), so
 * the page cannot be used to learn which ids exist.
 */
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { carriers, customers, services, sites } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { isAdmin } from "../auth/roles";
import { canUseFinance, financeScope, type FinanceScope } from "../invoices/access";
import { AppError } from "../../utils/errors";
import { INSIGHT_MESSAGES, monthEnd, wholeMonths, type InsightFilters } from "./filters";
import { rowsOf } from "../../utils/sql-rows";

export interface InsightScope {
  staff: boolean;
  /** null: every customer (staff without a customer filter) */
  customerId: number | null;
  /** null: every site of the customer(s) */
  siteIds: number[] | null;
  /** the audit's lines: null when the reader has no finance permission (the audit section is not shown) */
  finance: FinanceScope | null;
  /** buy prices and margin: the provider's staff only */
  seesBuy: boolean;
}

const refuse = (field: string, what: string) => new AppError("not_found", INSIGHT_MESSAGES.notYours(what), { [field]: [INSIGHT_MESSAGES.notYours(what)] });

export async function insightScope(db: DbOrTx, user: CurrentUser, f: InsightFilters): Promise<InsightScope> {
  const staff = isAdmin(user);
  let customerId: number | null;
  if (staff) {
    customerId = f.customerId;
    if (customerId != null && !(await db.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId))).length) throw refuse("customer_id", "Customer");
  } else {
    if (f.customerId != null && f.customerId !== user.customer.id) throw refuse("customer_id", "Customer");
    customerId = user.customer.id;
  }
  let siteIds: number[] | null = staff ? null : user.siteIds;
  if (f.siteId != null) {
    const ok = staff
      ? (await db.select({ id: sites.id }).from(sites).where(customerId != null ? and(eq(sites.id, f.siteId), eq(sites.customerId, customerId)) : eq(sites.id, f.siteId))).length > 0
      : user.siteIds.includes(f.siteId);
    if (!ok) throw refuse("site_id", "Site");
    siteIds = [f.siteId];
  }
  if (f.carrierId != null && !(await db.select({ id: carriers.id }).from(carriers).where(eq(carriers.id, f.carrierId))).length) throw refuse("carrier_id", "Carrier");
  if (f.serviceId != null && !(await db.select({ id: services.id }).from(services).where(eq(services.id, f.serviceId))).length) throw refuse("service_id", "Service");
  const finance = canUseFinance(user) ? financeScope(user) : null;
  return { staff, customerId, siteIds, finance: finance && customerId != null && finance.kind === "all" ? { kind: "customer", customerId } : finance, seesBuy: staff };
}

/** The reader's scope and filters on rollup rows (alias r), as " and …" (nothing when none). */
function rollupFilters(scope: InsightScope, f: InsightFilters): SQL {
  const parts: SQL[] = [];
  if (scope.customerId != null) parts.push(sql`r.customer_id = ${scope.customerId}`);
  if (scope.siteIds) parts.push(scope.siteIds.length ? sql`r.site_id in (${sql.join(scope.siteIds.map((s) => sql`${s}`), sql`, `)})` : sql`false`);
  if (f.carrierId != null) parts.push(sql`r.carrier_id = ${f.carrierId}`);
  if (f.serviceId != null) parts.push(sql`r.service_id = ${f.serviceId}`);
  if (f.lane) parts.push(sql`r.from_region = ${f.lane.from} and r.to_region = ${f.lane.to}`);
  return parts.length ? sql` and ${sql.join(parts, sql` and `)}` : sql``;
}

/**
 * The rollup rows (alias r) a scope and its filters pick, as a FROM item: the monthly rows of the
 * period's whole months and the daily rows of the days outside them, each under the same filters
 * (money is picked by currency where it is summed). Both have the same columns; a monthly row's
 * day is its month's first. The days outside the whole months are two ranges, each read from the
 * day index: "the period but not its whole months" read the whole period's daily rows and threw
 * away all but the last month's (125,000 of 136,000 with two years of a busy customer: 70 of a
 * query's 90 ms, bench/insight.ts). Which rows: `brief` (no lane: a twentieth as many) unless the
 * filters name a lane; `transit` (delivered per lane and transit days; a sixth as many) unless they
 * name a carrier or service; the detailed ones otherwise.
 */
export function rollupSource(scope: InsightScope, f: InsightFilters, grain: "brief" | "transit" = "brief"): SQL {
  const filters = rollupFilters(scope, f);
  const kept = grain === "brief" ? (f.lane ? "" : "_brief") : f.carrierId != null || f.serviceId != null ? "" : "_transit";
  const daily = sql.raw(`insight_daily${kept}`);
  const months = wholeMonths(f.from, f.to);
  if (!months) return sql`(select * from ${daily} r where r.day between ${f.from} and ${f.to}${filters}) r`;
  return sql`(
    select * from ${sql.raw(`insight_monthly${kept}`)} r where r.day between ${months.first} and ${months.lastStart}${filters}
    union all
    select * from ${daily} r where ((r.day >= ${f.from} and r.day < ${months.first}) or (r.day > ${months.lastEnd} and r.day <= ${f.to}))${filters}
  ) r`;
}

/**
 * The period as the rollup may read it for this reader: one ending before its month does (today,
 * in the default period) read through the month's end when no day after its end has a row the
 * reader's figures would count, so the month in progress is one monthly row per key instead of a
 * daily row per day (10,900 of a year's 18,800 detailed rows, bench/insight.ts). The figures are
 * the same: the days added hold nothing of the reader's. A day after it with such rows (a
 * consignment despatched in the future) keeps the period as asked. (A refresh committing between
 * this probe and the read is seen by the read as by any page read a moment later.)
 */
export async function readablePeriod(db: DbOrTx, scope: InsightScope, f: InsightFilters): Promise<InsightFilters> {
  const end = monthEnd(f.to);
  if (end === f.to) return f;
  const daily = sql.raw(f.lane ? "insight_daily" : "insight_daily_brief");
  const [later] = rowsOf<{ any: boolean }>(
    await db.execute(sql`select exists (select 1 from ${daily} r where r.day > ${f.to} and r.day <= ${end}${rollupFilters(scope, f)}) as any`),
  );
  return later?.any ? f : { ...f, to: end };
}
