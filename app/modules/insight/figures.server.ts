/**
 * The /insight figures (issue 33 item 2, docs/decisions/042): each section's charts worked out from
 * the rollups (the audit's from its own, over the carrier invoice lines in the reader's scope), as chart data
 * that the page draws, tabulates and offers as CSV, so the picture, its table and its file agree.
 */
import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { groupBy } from "../../utils/group-by";
import { rowsOf } from "../../utils/sql-rows";
import type { ReasonCategory } from "../reconciliation/compare";
import { REASON_LABELS } from "../reconciliation/list-schemas";
import { heaviestKeys, type InsightChart, ratio, roundTo, series } from "./charts";
import { CURRENCIES, monthsOf, type InsightFilters, type Section } from "./filters";
import { auditFromRollup } from "./audit-rollup.server";
import { readablePeriod, rollupSource, type InsightScope } from "./scope.server";

type Num = string | number | null;
const n = (v: Num) => (v == null ? 0 : Number(v));

interface Totals {
  consignments: Num;
  rated: Num;
  sell: Num;
  buy: Num;
  charge_kg: Num;
  delivered: Num;
  with_eta: Num;
  on_time: Num;
  first_attempt: Num;
  with_enquiry: Num;
  with_emissions: Num;
  kg_co2e: Num;
  tonne_km: Num;
}

/**
 * One row per currency, month, carrier, service and mode of the period's rollup rows, named in the
 * same read: every chart but the transit days is summed from these in the process, so a page reads
 * the rollup once (it read it three or four times, once per chart, at a million consignments 40 to
 * 100 ms each). Money is summed per currency and never added across currencies.
 */
interface Cell extends Totals {
  currency: string;
  month: string;
  carrier_id: number | null;
  carrier_name: string | null;
  service_id: number | null;
  service_name: string | null;
  mode: string | null;
}

async function cellsOf(db: DbOrTx, source: SQL): Promise<Cell[]> {
  // summed by ids first and named after: grouping every row by names and a formatted month sorted
  // them by text (52 ms where this is 32, over 19,000 detailed rows)
  return rowsOf<Cell>(
    await db.execute(sql`
      select g.currency, to_char(g.month, 'YYYY-MM') as month, g.carrier_id, ca.name as carrier_name, g.service_id, sca.name || ' · ' || s.name as service_name, g.mode,
        g.consignments, g.rated, g.sell, g.buy, g.charge_kg, g.delivered, g.with_eta, g.on_time, g.first_attempt, g.with_enquiry, g.with_emissions, g.kg_co2e, g.tonne_km
      from (
        select r.currency, date_trunc('month', r.day) as month, r.carrier_id, r.service_id, r.mode,
          sum(r.consignments)::int as consignments, sum(r.rated)::int as rated, sum(r.sell) as sell, sum(r.buy) as buy, sum(r.charge_kg) as charge_kg,
          sum(r.delivered)::int as delivered, sum(r.with_eta)::int as with_eta, sum(r.on_time)::int as on_time,
          sum(r.first_attempt)::int as first_attempt, sum(r.with_enquiry)::int as with_enquiry,
          sum(r.with_emissions)::int as with_emissions, sum(r.kg_co2e) as kg_co2e, sum(r.tonne_km) as tonne_km
        from ${source} group by 1, 2, 3, 4, 5
      ) g
      left join carriers ca on ca.id = g.carrier_id
      left join services s on s.id = g.service_id left join carriers sca on sca.id = s.carrier_id`),
  );
}

const MONEY = new Set<keyof Totals>(["rated", "sell", "buy", "charge_kg"]);
const KEYS: (keyof Totals)[] = ["consignments", "rated", "sell", "buy", "charge_kg", "delivered", "with_eta", "on_time", "first_attempt", "with_enquiry", "with_emissions", "kg_co2e", "tonne_km"];

/** The cells summed: counts, weights and emissions over every currency, money (rated, sell, buy, charge kg) over `currency`'s alone when given. */
function summed(cells: Cell[], currency?: string): Totals {
  const t = Object.fromEntries(KEYS.map((k) => [k, 0])) as Record<keyof Totals, number>;
  for (const c of cells) for (const k of KEYS) if (!currency || !MONEY.has(k) || c.currency === currency) t[k] += n(c[k]);
  return t;
}

/** nulls after numbers, as PostgreSQL orders them ascending */
const byIdNullsLast = (a: number | null, b: number | null) => (a == null ? (b == null ? 0 : 1) : b == null ? -1 : a - b);

export interface InsightPage {
  section: Section;
  currency: string;
  /** currencies the scope holds consignments in, most first: the page offers a switch when more than one */
  currencies: string[];
  headline: { consignments: number; on_time_pct: number | null; sell: number; kg_co2e: number; without_emissions: number };
  charts: InsightChart[];
  /** the audit section is for finance users; null when the reader may not see it */
  auditAllowed: boolean;
}

export async function insightFigures(db: DbOrTx, scope: InsightScope, f: InsightFilters): Promise<InsightPage> {
  const read = await readablePeriod(db, scope, f);
  const cells = await cellsOf(db, rollupSource(scope, read));
  // the currencies held, most consignments first; every count summed over all of them, money from the chosen one
  const held = [...groupBy(cells, (c) => c.currency)].map(([currency, rows]) => ({ currency, ...summed(rows) }));
  held.sort((a, b) => n(b.consignments) - n(a.consignments) || (a.currency < b.currency ? -1 : 1));
  const currencies = held.map((h) => h.currency);
  const currency = f.currency ?? currencies[0] ?? CURRENCIES[0];
  const all = summed(cells);
  const chosen = held.find((h) => h.currency === currency);
  const headline = {
    consignments: n(all.consignments),
    on_time_pct: ratio(n(all.on_time), n(all.with_eta)),
    sell: roundTo(n(chosen?.sell ?? 0), 2),
    kg_co2e: roundTo(n(all.kg_co2e), 1),
    without_emissions: n(all.consignments) - n(all.with_emissions),
  };
  const base = { section: f.section, currency, currencies, headline, auditAllowed: scope.finance != null };
  switch (f.section) {
    case "performance":
      return { ...base, charts: await performanceCharts(db, rollupSource(scope, read, "transit"), cells) };
    case "spend":
      return { ...base, charts: spendCharts(cells, scope, f, currency) };
    case "audit":
      return { ...base, charts: scope.finance ? await auditCharts(db, scope, f, currency) : [] };
    case "emissions":
      return { ...base, charts: emissionsCharts(cells, f) };
  }
}

/** The measures per carrier, busiest first (money in `currency`). */
function byCarrier(cells: Cell[], currency = "AUD") {
  const rows = [...groupBy(cells, (c) => c.carrier_id)].map(([carrier_id, rows]) => ({ carrier_id, name: rows[0]!.carrier_name, ...summed(rows, currency) }));
  rows.sort((a, b) => n(b.consignments) - n(a.consignments) || byIdNullsLast(a.carrier_id, b.carrier_id));
  return rows.map((r) => ({ ...r, name: r.carrier_id != null ? (r.name ?? `Carrier ${r.carrier_id}`) : "No carrier" }));
}

async function performanceCharts(db: DbOrTx, source: SQL, cells: Cell[]): Promise<InsightChart[]> {
  const carriers = byCarrier(cells);
  const lanes = rowsOf<{ lane: string; transit_days: number; n: number }>(
    await db.execute(sql`
      select r.from_region || '-' || r.to_region as lane, least(r.transit_days, 10) as transit_days, sum(r.delivered)::int as n
      from ${source} where r.transit_days is not null and r.from_region <> '' and r.to_region <> ''
      group by 1, 2`),
  );
  const busiest = heaviestKeys(
    lanes.map((l) => ({ key: l.lane, weight: n(l.n) })),
    4,
  );
  const days = Array.from({ length: 11 }, (_, i) => i);
  return [
    {
      id: "carrier-performance",
      category: "Carrier",
      title: "Carrier performance",
      description:
        "For each carrier: the share of delivered consignments delivered on or before their estimated delivery date, the share delivered at the first attempt, and the share of consignments with an enquiry.",
      kind: "bar",
      data: {
        unit: "percent",
        categories: carriers.map((c) => c.name),
        series: [
          series("on_time", "On time", carriers.map((c) => ratio(n(c.on_time), n(c.with_eta)))),
          series("first_attempt", "First attempt", carriers.map((c) => ratio(n(c.first_attempt), n(c.delivered)))),
          series("with_enquiry", "With an enquiry", carriers.map((c) => ratio(n(c.with_enquiry), n(c.consignments)))),
        ],
      },
    },
    {
      id: "transit-days",
      category: "Transit days",
      title: "Transit days by lane",
      description: "How many delivered consignments took each number of days from despatch to delivery, on the four busiest lanes (state to state). 10 counts ten days or more.",
      kind: "bar",
      data: {
        unit: "number",
        categories: days.map((d) => (d === 10 ? "10+ days" : d === 1 ? "1 day" : `${d} days`)),
        series: busiest.map((lane) =>
          series(
            lane,
            lane,
            days.map((d) => n(lanes.find((l) => l.lane === lane && Number(l.transit_days) === d)?.n ?? 0)),
          ),
        ),
      },
    },
  ];
}

function spendCharts(cells: Cell[], scope: InsightScope, f: InsightFilters, currency: string): InsightChart[] {
  const months = monthsOf(f.from, f.to);
  const monthly = new Map([...groupBy(cells, (c) => c.month)].map(([month, rows]) => [month, summed(rows, currency)]));
  const at = (m: string) => monthly.get(m);
  const carriers = byCarrier(cells, currency);
  const services = [...groupBy(
    cells.filter((c) => c.currency === currency),
    (c) => c.service_id,
  )]
    .map(([service_id, rows]) => ({ service_id, name: rows[0]!.service_name, ...summed(rows, currency) }))
    .sort((a, b) => n(b.sell) - n(a.sell) || byIdNullsLast(a.service_id, b.service_id))
    .slice(0, 12);
  const serviceName = (row: { service_id: number | null; name: string | null }) => (row.service_id != null ? (row.name ?? `Service ${row.service_id}`) : "No service");
  const buySeries = (rows: (Totals | undefined)[]) =>
    scope.seesBuy
      ? [series("buy", "Buy", rows.map((r) => (r ? roundTo(n(r.buy), 2) : null))), series("margin", "Margin", rows.map((r) => (r ? roundTo(n(r.sell) - n(r.buy), 2) : null)))]
      : [];
  const money = { unit: "money" as const, currency };
  return [
    {
      id: "spend-month",
      category: "Month",
      title: `Freight spend by month (${currency})`,
      description: scope.seesBuy
        ? `What customers were charged (sell), what the carriers charge (buy) and the margin, per month of despatch, excluding GST, in ${currency}.`
        : `What your consignments were charged per month of despatch, excluding GST, in ${currency}.`,
      kind: "line",
      data: { ...money, categories: months, series: [series("sell", "Sell", months.map((m) => (at(m) ? roundTo(n(at(m)!.sell), 2) : null))), ...buySeries(months.map(at))] },
    },
    {
      id: "spend-carrier",
      category: "Carrier",
      title: `Freight spend by carrier (${currency})`,
      description: `The period's charges per carrier, excluding GST, in ${currency}.`,
      kind: "bar",
      data: { ...money, categories: carriers.map((c) => c.name), series: [series("sell", "Sell", carriers.map((c) => roundTo(n(c.sell), 2))), ...buySeries(carriers)] },
    },
    {
      id: "spend-service",
      category: "Service",
      title: `Freight spend by service (${currency})`,
      description: scope.seesBuy
        ? `The period's charges (sell), the carriers' (buy) and the margin for the twelve services charged most, excluding GST, in ${currency}.`
        : `The period's charges for the twelve services charged most, excluding GST, in ${currency}.`,
      kind: "bar",
      data: { ...money, categories: services.map((s) => serviceName(s)), series: [series("sell", "Sell", services.map((s) => roundTo(n(s.sell), 2))), ...buySeries(services)] },
    },
    {
      id: "cost-per-consignment",
      category: "Service",
      title: `Cost per consignment by service (${currency})`,
      description: `The average charge of a rated consignment, excluding GST, for the twelve services charged most, in ${currency}.`,
      kind: "bar",
      data: { ...money, categories: services.map((s) => serviceName(s)), series: [series("per_consignment", "Per consignment", services.map((s) => ratio(n(s.sell), n(s.rated), 1, 2)))] },
    },
    {
      id: "cost-per-kg",
      category: "Service",
      title: `Cost per kg by service (${currency})`,
      description: `The charge per kilogram of charge weight, excluding GST, for the same services, in ${currency}.`,
      kind: "bar",
      data: { ...money, categories: services.map((s) => serviceName(s)), series: [series("per_kg", "Per kg", services.map((s) => ratio(n(s.sell), n(s.charge_kg), 1, 2)))] },
    },
  ];
}

async function auditCharts(db: DbOrTx, scope: InsightScope, f: InsightFilters, currency: string): Promise<InsightChart[]> {
  const months = monthsOf(f.from, f.to);
  const { byMonth, reasons } = await auditFromRollup(db, scope.finance!, f);
  const perMonth = months.map((m) => byMonth.filter((r) => r.month === m));
  const sum = (rows: typeof byMonth, pick: (r: (typeof byMonth)[number]) => number) => (rows.length ? roundTo(rows.reduce((s, r) => s + pick(r), 0), 2) : null);
  const carriers = heaviestKeys(byMonth.map((r) => ({ key: r.carrier_name, weight: r.lines })), 5);
  return [
    {
      id: "audit-money",
      category: "Month",
      title: "What the invoice audit found and won back",
      description:
        "Per month of carrier invoice: overcharges found on lines the comparison did not pass, the overcharge on lines now disputed, credits the carriers issued since for contested lines, and duplicate lines caught at import.",
      kind: "bar",
      data: {
        unit: "money",
        currency,
        categories: months,
        series: [
          series("discrepancy_found", "Discrepancy found", perMonth.map((rows) => sum(rows, (r) => r.discrepancy_found))),
          series("disputed", "Disputed", perMonth.map((rows) => sum(rows, (r) => r.disputed))),
          series("recovered", "Recovered", perMonth.map((rows) => sum(rows, (r) => r.recovered))),
          series("duplicates", "Duplicates caught", perMonth.map((rows) => sum(rows, (r) => r.duplicates_caught.amount))),
        ],
      },
    },
    {
      id: "audit-matched",
      category: "Month",
      title: "Lines matched automatically",
      description: "Per carrier and month of carrier invoice, the share of invoice lines the reconcile job passed within the thresholds, with no person involved.",
      kind: "line",
      data: {
        unit: "percent",
        categories: months,
        series: carriers.map((c) =>
          series(
            c,
            c,
            perMonth.map((rows) => {
              const mine = rows.filter((r) => r.carrier_name === c);
              return mine.length ? ratio(mine.reduce((s, r) => s + r.matched_automatically, 0), mine.reduce((s, r) => s + r.lines, 0)) : null;
            }),
          ),
        ),
      },
    },
    {
      id: "audit-reasons",
      category: "Reason",
      title: "Top discrepancy reasons",
      description: "Why the comparison did not pass the carriers' overcharges, by the overcharge on those lines (a line with two reasons counts under each).",
      kind: "bar",
      data: { unit: "money", currency, categories: reasons.map((r) => REASON_LABELS[r.reason as ReasonCategory] ?? r.reason), series: [series("amount", "Overcharge", reasons.map((r) => roundTo(r.amount, 2)))] },
    },
  ];
}

function emissionsCharts(cells: Cell[], f: InsightFilters): InsightChart[] {
  const months = monthsOf(f.from, f.to);
  const monthly = [...groupBy(cells, (c) => `${c.month}|${c.mode ?? "unknown"}`)].map(([, rows]) => ({ month: rows[0]!.month, mode: rows[0]!.mode, kg: summed(rows).kg_co2e }));
  const modes = [...new Set(monthly.map((r) => r.mode ?? "unknown"))].sort();
  const carriers = byCarrier(cells);
  const label = (mode: string) => (mode === "unknown" ? "No mode" : mode[0]!.toUpperCase() + mode.slice(1));
  return [
    {
      id: "emissions-month",
      category: "Month",
      title: "Emissions by month and mode",
      description: "Well-to-wheel kilograms of CO2e of the period's consignments per month of despatch, by how the freight travelled (ISO 14083, the GLEC Framework).",
      kind: "stacked",
      data: {
        unit: "kg",
        categories: months,
        series: modes.map((mode) =>
          series(
            mode,
            label(mode),
            months.map((m) => roundTo(n(monthly.find((r) => r.month === m && (r.mode ?? "unknown") === mode)?.kg ?? 0), 1)),
          ),
        ),
      },
    },
    {
      id: "emissions-carrier",
      category: "Carrier",
      title: "Emissions by carrier",
      description: "Kilograms of CO2e per carrier over the period.",
      kind: "bar",
      data: { unit: "kg", categories: carriers.map((c) => c.name), series: [series("kg_co2e", "kg CO2e", carriers.map((c) => roundTo(n(c.kg_co2e), 1)))] },
    },
    {
      id: "emissions-intensity",
      category: "Carrier",
      title: "Emissions per tonne-kilometre by carrier",
      description: "Grams of CO2e per tonne-kilometre: each carrier's emissions over the tonnes it carried times the distance.",
      kind: "bar",
      data: { unit: "number", categories: carriers.map((c) => c.name), series: [series("g_per_tkm", "g CO2e per tonne-km", carriers.map((c) => ratio(n(c.kg_co2e) * 1000, n(c.tonne_km), 1, 1)))] },
    },
  ];
}
