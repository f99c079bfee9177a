import type { Unit } from "./data";

/** What a missing value reads as in a table and in hover details (an en dash). */
export const NO_VALUE = "–";

export type FormatOptions = {
  /** ISO 4217 code for money ("AUD", "NZD", "USD"). Without one, money shows as a plain number:
   * better no symbol than the wrong one. */
  currency?: string;
  /** "table" (default): full figures, as in tables and hover details. "axis": short, for ticks. */
  style?: "table" | "axis";
  /** Axis only: the most decimals to show; formatTicks raises it until the ticks differ. */
  digits?: number;
};

// Intl.NumberFormat is slow to build and a table formats every cell: one per set of options
const formats = new Map<string, Intl.NumberFormat>();
function numberFormat(options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = JSON.stringify(options);
  let f = formats.get(key);
  if (!f) {
    try {
      f = new Intl.NumberFormat("en-AU", options);
    } catch (e) {
      // a malformed currency code from the data: the figure without its symbol, not a broken page
      if (!(e instanceof RangeError) || !options.currency) throw e;
      const { style: _style, currency: _currency, ...plain } = options;
      f = new Intl.NumberFormat("en-AU", plain);
    }
    formats.set(key, f);
  }
  return f;
}

/**
 * Table (and hover) formats, one per unit, always the same so that a column reads evenly:
 * percent one decimal with no space ("92.5%", as en-AU writes it); money two decimals with the
 * currency ("$1,234.50", "NZD 1,234.50"); numbers up to two decimals; kg and days up to one.
 */
function tableOptions(unit: Unit, currency: string | undefined): Intl.NumberFormatOptions {
  switch (unit) {
    case "percent":
      return { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 };
    case "money":
      return currency
        ? { style: "currency", currency, minimumFractionDigits: 2, maximumFractionDigits: 2 }
        : { minimumFractionDigits: 2, maximumFractionDigits: 2 };
    case "number":
      return { maximumFractionDigits: 2 };
    case "kg":
      return { style: "unit", unit: "kilogram", maximumFractionDigits: 1 };
    case "days":
      return { style: "unit", unit: "day", unitDisplay: "long", maximumFractionDigits: 1 };
  }
}

/** Axis formats: compact ("$12K", "1.5M kg") so the value axis stays narrow. */
function axisOptions(unit: Unit, currency: string | undefined, digits: number): Intl.NumberFormatOptions {
  const d = { minimumFractionDigits: 0, maximumFractionDigits: digits };
  switch (unit) {
    case "percent":
      return { style: "percent", ...d };
    case "money":
      return currency ? { style: "currency", currency, notation: "compact", ...d } : { notation: "compact", ...d };
    case "number":
      return { notation: "compact", ...d };
    case "kg":
      return { style: "unit", unit: "kilogram", notation: "compact", ...d };
    case "days":
      return { style: "unit", unit: "day", unitDisplay: "short", ...d };
  }
}

/**
 * A value as text in its unit. Null (and NaN or Infinity, which no query should give but a
 * division by zero can) is "–".
 */
export function formatValue(value: number | null | undefined, unit: Unit, options: FormatOptions = {}): string {
  if (typeof value !== "number" || !Number.isFinite(value)) return NO_VALUE;
  const opts = options.style === "axis" ? axisOptions(unit, options.currency, options.digits ?? 0) : tableOptions(unit, options.currency);
  // Intl's percent style multiplies by 100; our percent values are already percentage points
  // (and -0, which a rounding query can return, reads as 0, not "-0")
  const v = value === 0 ? 0 : value;
  return numberFormat(opts).format(unit === "percent" ? v / 100 : v);
}

/**
 * Labels for a value axis's ticks: as few decimals as keep every label different (ticks 1.05M
 * and 1.1M would both read "1.1M" at one decimal), at most three.
 */
export function formatTicks(ticks: readonly number[], unit: Unit, currency?: string): string[] {
  let labels: string[] = [];
  for (let digits = 0; digits <= 3; digits++) {
    labels = ticks.map((t) => formatValue(t, unit, { currency, style: "axis", digits }));
    if (new Set(labels).size === labels.length) break;
  }
  return labels;
}
