/** The unit every value of a chart is in; it picks the formatting of axis, hover detail and table. */
export type Unit = "percent" | "money" | "number" | "kg" | "days";

export type ChartSeries = { key: string; label: string; values: (number | null)[] };

/**
 * The data every chart takes: one value per category and series (values[i] belongs to
 * categories[i]). Percent values are percentage points (92.5 means 92.5 %, not 0.925);
 * money is in the currency named by `currency`.
 */
export type ChartData = {
  categories: string[];
  series: ChartSeries[];
  unit: Unit;
  currency?: string;
};

/**
 * The value drawn for a series at a category: null when it is null, missing (a values array
 * shorter than the categories) or not a finite number, so a NaN from a division by zero in a
 * query draws nothing instead of a bar at NaN.
 */
export function valueAt(series: ChartSeries, index: number): number | null {
  const v = series.values[index];
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/** True when there is something to draw: a category and at least one value that is not null. */
export function hasData(data: ChartData): boolean {
  return data.categories.length > 0 && data.series.some((s) => data.categories.some((_, i) => valueAt(s, i) !== null));
}

/** The words of a bar's or a point's hover detail, e.g. "Carrier X · On time: 92.5%". */
export const pointTitle = (category: string, series: string, formatted: string) => `${category} · ${series}: ${formatted}`;
