/**
 * The /insight page and its CSVs (issue 33 item 2): the URL read into filters (dates typed in the
 * reader's own format as the date fields send them, or ISO as links carry them), checked against
 * what the reader may see, and the section's figures; or the refusal, with the filters kept so
 * the reader can correct them.
 */
import { asc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { carriers, services } from "../../../db/schema";
import { rowsOf } from "../../utils/sql-rows";
import { AppError } from "../../utils/errors";
import type { CurrentUser } from "../auth/current-user.server";
import { isAdmin } from "../auth/roles";
import { displayDateToIso } from "../calendar/display-date";
import { userToday } from "../calendar/site-time";
import { listCustomers } from "../tenancy/customers.server";
import { CHART_SECTIONS, chartTable, type InsightChart } from "./charts";
import { insightFigures, type InsightPage } from "./figures.server";
import { INSIGHT_MESSAGES, parseInsightFilters, type InsightFilters } from "./filters";
import { insightScope, type InsightScope } from "./scope.server";

type Option = { id: number; name: string };

export interface InsightOptions {
  customers: Option[] | null;
  sites: Option[];
  carriers: Option[];
  services: Option[];
}

export type InsightScreen =
  | { ok: true; filters: InsightFilters; page: InsightPage; options: InsightOptions; staff: boolean }
  | { ok: false; status: number; message: string; errors: Record<string, string[]>; values: Record<string, string>; options: InsightOptions; staff: boolean };

/** A date field's text in the reader's format (DD/MM/YYYY or MM/DD/YYYY) as ISO; anything else as it came, for the schema to judge. */
function isoParams(params: URLSearchParams, dateFormat: string): URLSearchParams {
  const out = new URLSearchParams(params);
  for (const key of ["from", "to"]) {
    const v = out.get(key);
    if (v && /^\d{1,2}\/\d{1,2}\/\d{4}$/.test(v.trim())) out.set(key, displayDateToIso(v.trim(), dateFormat) ?? v);
  }
  return out;
}

async function options(db: DbOrTx, user: CurrentUser, scope: Pick<InsightScope, "staff" | "customerId">, carrierId: number | null): Promise<InsightOptions> {
  const customers = scope.staff ? (await listCustomers(db, user)).map((c) => ({ id: c.id, name: c.name })) : null;
  const sites =
    scope.customerId == null
      ? []
      : scope.staff
        ? rowsOf<Option>(await db.execute(sql`select id, name from sites where customer_id = ${scope.customerId} order by name, id`))
        : user.sites.map((s) => ({ id: s.id, name: s.name }));
  // a customer's reader is offered the carriers its consignments went with (an index probe per carrier); staff every carrier
  const carrierRows =
    scope.customerId == null
      ? await db.select({ id: carriers.id, name: carriers.name }).from(carriers).orderBy(asc(carriers.name))
      : await db
          .select({ id: carriers.id, name: carriers.name })
          .from(carriers)
          .where(sql`exists (select 1 from insight_monthly_brief m where m.customer_id = ${scope.customerId} and m.carrier_id = ${carriers.id})`)
          .orderBy(asc(carriers.name));
  const serviceRows = carrierId == null ? [] : await db.select({ id: services.id, name: services.name }).from(services).where(eq(services.carrierId, carrierId)).orderBy(asc(services.name));
  return { customers, sites, carriers: carrierRows, services: serviceRows };
}

export async function insightScreen(db: DbOrTx, user: CurrentUser, url: URL): Promise<InsightScreen> {
  const params = isoParams(url.searchParams, user.clock.dateFormat);
  const parsed = parseInsightFilters(params, userToday(user));
  const staff = isAdmin(user);
  const fallbackScope = { staff, customerId: staff ? null : user.customer.id };
  const values = Object.fromEntries(url.searchParams);
  if (!parsed.ok) return { ok: false, status: 400, message: parsed.message, errors: parsed.errors, values, options: await options(db, user, fallbackScope, null), staff };
  try {
    const scope = await insightScope(db, user, parsed.filters);
    const page = await insightFigures(db, scope, parsed.filters);
    return { ok: true, filters: parsed.filters, page, options: await options(db, user, scope, parsed.filters.carrierId), staff };
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return { ok: false, status: e.status, message: e.message, errors: e.fieldErrors, values, options: await options(db, user, fallbackScope, null), staff };
  }
}

/**
 * One chart's figures as CSV (GET /insight.csv?chart=…&filters): the same figures the page draws,
 * for the same reader, formulas neutralised by the CSV writer. Refusals are AppErrors (400, 404).
 */
export async function insightChartCsv(db: DbOrTx, user: CurrentUser, url: URL): Promise<{ filename: string; chart: InsightChart; table: ReturnType<typeof chartTable> }> {
  const params = isoParams(url.searchParams, user.clock.dateFormat);
  const chartId = params.get("chart") ?? "";
  const section = CHART_SECTIONS[chartId];
  if (!section) throw new AppError("not_found", INSIGHT_MESSAGES.chart, { chart: [INSIGHT_MESSAGES.chart] });
  params.set("section", section);
  const parsed = parseInsightFilters(params, userToday(user), ["chart"]);
  if (!parsed.ok) throw new AppError("bad_request", parsed.message, parsed.errors);
  const scope = await insightScope(db, user, parsed.filters);
  const page = await insightFigures(db, scope, parsed.filters);
  const chart = page.charts.find((c) => c.id === chartId);
  if (!chart) throw new AppError("not_found", INSIGHT_MESSAGES.chart, { chart: [INSIGHT_MESSAGES.chart] });
  return { filename: `${chart.id}-${parsed.filters.from}-to-${parsed.filters.to}.csv`, chart, table: chartTable(chart) };
}
