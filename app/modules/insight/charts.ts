/**
 * A dashboard chart as data (issue 33 items 2 and 3): categories, one or more series and a unit.
 * The page draws it (components/charts), shows it as a table, and /insight.csv writes the same
 * figures, so the three never disagree. Pure: the page's bundle imports the type.
 */
import type { Section } from "./filters";

/** Which section draws each chart: a chart's CSV is worked out by its section's figures. */
export const CHART_SECTIONS: Record<string, Section> = {
  "carrier-performance": "performance",
  "transit-days": "performance",
  "spend-month": "spend",
  "spend-carrier": "spend",
  "spend-service": "spend",
  "cost-per-consignment": "spend",
  "cost-per-kg": "spend",
  "audit-money": "audit",
  "audit-matched": "audit",
  "audit-reasons": "audit",
  "emissions-month": "emissions",
  "emissions-carrier": "emissions",
  "emissions-intensity": "emissions",
};

export type ChartUnit = "percent" | "money" | "number" | "kg" | "days";

export interface ChartSeries {
  key: string;
  label: string;
  values: (number | null)[];
}

export interface ChartData {
  categories: string[];
  series: ChartSeries[];
  unit: ChartUnit;
  currency?: string;
}

export interface InsightChart {
  /** also the CSV's name and the chart's element ids */
  id: string;
  title: string;
  description: string;
  kind: "bar" | "stacked" | "line";
  /** what the categories are (Carrier, Month, ...): the table's and the CSV's first column */
  category: string;
  data: ChartData;
}

export const series = (key: string, label: string, values: (number | null)[]): ChartSeries => ({ key, label, values });

export const roundTo = (value: number, places: number) => {
  const f = 10 ** places;
  return Math.round(value * f) / f;
};

/** part / whole × scale, rounded; null without a whole (no share of nothing). Percent by default. */
export function ratio(part: number, whole: number, scale = 100, places = 1): number | null {
  return whole ? roundTo((part / whole) * scale, places) : null;
}

/** The `limit` heaviest keys, heaviest first (the series a chart can show legibly). */
export function heaviestKeys(items: { key: string; weight: number }[], limit: number): string[] {
  const totals = new Map<string, number>();
  for (const i of items) totals.set(i.key, (totals.get(i.key) ?? 0) + i.weight);
  return [...totals]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([k]) => k);
}

/** The CSV's header and rows: the category column, then one column per series (unit in the header). */
export function chartTable(chart: InsightChart): { headers: string[]; rows: Record<string, unknown>[] } {
  const unit = chart.data.unit === "money" ? ` (${chart.data.currency ?? "AUD"})` : chart.data.unit === "percent" ? " (%)" : chart.data.unit === "kg" ? " (kg CO2e)" : "";
  const first = chart.category;
  const headers = [first, ...chart.data.series.map((s) => `${s.label}${unit}`)];
  const rows = chart.data.categories.map((c, i) => Object.fromEntries([[first, c], ...chart.data.series.map((s) => [`${s.label}${unit}`, s.values[i] ?? ""])]));
  return { headers, rows };
}
