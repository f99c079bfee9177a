/**
 * The export report's columns (issue 15 item 4, spec 1 line 69): what a customer's accountant
 * needs to reconcile a period's freight, one consignment a row. Pure, so the unit tests and the
 * job build rows the same way. Numbers stay numbers; every text cell goes through the formula
 * neutraliser (= + - @ tab CR gain a leading apostrophe), in CSV and XLSX alike.
 */
import { COST_CATEGORIES, type CostLine } from "../rating/engine";
import { neutraliseFormula } from "../../utils/csv.server";
import { consignmentStateLabel } from "../consignments/state-labels";

/** One consignment as the export query reads it. */
export interface ExportSource {
  consignmentNumber: string | null;
  reference: string | null;
  customReference: string | null;
  siteCode: string | null;
  despatchDate: string | null;
  estimatedDeliveryDate: string | null;
  createdAt: Date | string | null;
  state: string;
  returnType: string | null;
  senderName: string | null;
  senderLocality: string | null;
  senderRegion: string | null;
  senderPostcode: string | null;
  receiverName: string | null;
  receiverLocality: string | null;
  receiverRegion: string | null;
  receiverPostcode: string | null;
  carrierName: string | null;
  serviceName: string | null;
  itemCount: number;
  totalWeight: string | number | null;
  totalVolume: string | number | null;
  serviceRate: string | number | null;
  serviceRateExclGst: string | number | null;
  ratingDetail: Record<string, unknown> | null;
  /** the stored well-to-wheel figure (docs/decisions/041); null when it has none */
  kgCo2e: string | number | null;
}

export type Cell = string | number | null;

const BASE_HEADERS = [
  "Consignment number",
  "Reference",
  "Custom reference",
  "Site",
  "Despatch date",
  "Estimated delivery date",
  "Created date",
  "State",
  "Type",
  "Sender",
  "Sender suburb",
  "Sender state",
  "Sender postcode",
  "Receiver",
  "Receiver suburb",
  "Receiver state",
  "Receiver postcode",
  "Carrier",
  "Service",
  "Items",
  "Weight (kg)",
  "Volume (m3)",
  "Price excl GST",
  "GST",
  "Price incl GST",
  "kg CO2e",
] as const;

/** "fuel_charge" -> "Fuel charge" */
const categoryLabel = (category: string) => (category.charAt(0).toUpperCase() + category.slice(1)).replaceAll("_", " ");

/** The new export's cost columns: the sell (charged) and buy (carrier's) lines per category, then the totals. */
export const COST_HEADERS = [
  ...COST_CATEGORIES.map((c) => `Sell ${categoryLabel(c)}`),
  "Sell total excl GST",
  ...COST_CATEGORIES.map((c) => `Buy ${categoryLabel(c)}`),
  "Buy total",
];

export function exportHeaders(newExport: boolean): string[] {
  return newExport ? [...BASE_HEADERS, ...COST_HEADERS] : [...BASE_HEADERS];
}

const TYPES: Record<string, string> = { return: "Return", third_party: "Third party" };

/** YYYY-MM-DD (or a timestamp) as DD/MM/YYYY, the spec's date format (spec 1 line 107). */
export function ddmmyyyy(value: Date | string | null): string {
  if (value == null) return "";
  const iso = value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10);
  // by position, not a pattern: three a row made the pattern 4% of a CSV export's CPU
  return isIsoDay(iso) ? `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}` : iso;
}

const DIGITS_AT = [0, 1, 2, 3, 5, 6, 8, 9];
/** Whether `s` is ten characters of the shape 9999-99-99. */
function isIsoDay(s: string): boolean {
  if (s.length !== 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return false;
  for (const i of DIGITS_AT) {
    const code = s.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

const num = (value: string | number | null | undefined): number | null => {
  if (value == null || value === "") return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
};
const cents = (n: number) => Math.round(n * 100) / 100;

/** Sums a rating detail's lines per category (a category may have several lines: two surcharges). */
function byCategory(lines: unknown): Map<string, number> {
  const out = new Map<string, number>();
  if (!Array.isArray(lines)) return out;
  for (const line of lines as CostLine[]) {
    const amount = num(line?.amount);
    if (amount == null || typeof line.category !== "string") continue;
    out.set(line.category, cents((out.get(line.category) ?? 0) + amount));
  }
  return out;
}

function costCells(detail: Record<string, unknown> | null): Cell[] {
  const sell = byCategory(detail?.sell);
  const buy = byCategory(detail?.buy);
  return [
    ...COST_CATEGORIES.map((c) => sell.get(c) ?? null),
    num(detail?.total_sell as number | undefined),
    ...COST_CATEGORIES.map((c) => buy.get(c) ?? null),
    num(detail?.total_buy as number | undefined),
  ];
}

/** One consignment's cells, in exportHeaders order; text neutralised, numbers left numbers. */
export function exportRow(c: ExportSource, newExport: boolean): Cell[] {
  const text = (v: string | null | undefined) => neutraliseFormula(v ?? "");
  const incl = num(c.serviceRate);
  const excl = num(c.serviceRateExclGst);
  const row: Cell[] = [
    text(c.consignmentNumber),
    text(c.reference),
    text(c.customReference),
    text(c.siteCode),
    ddmmyyyy(c.despatchDate),
    ddmmyyyy(c.estimatedDeliveryDate),
    ddmmyyyy(c.createdAt),
    // the state as the screens say it, never its code (issue 31 #6)
    consignmentStateLabel(c.state),
    TYPES[c.returnType ?? ""] ?? "Outbound",
    text(c.senderName),
    text(c.senderLocality),
    text(c.senderRegion),
    text(c.senderPostcode),
    text(c.receiverName),
    text(c.receiverLocality),
    text(c.receiverRegion),
    text(c.receiverPostcode),
    text(c.carrierName),
    text(c.serviceName),
    c.itemCount,
    num(c.totalWeight),
    num(c.totalVolume),
    excl,
    incl != null && excl != null ? cents(incl - excl) : null,
    incl,
    num(c.kgCo2e),
  ];
  return newExport ? [...row, ...costCells(c.ratingDetail)] : row;
}
