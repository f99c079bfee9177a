/**
 * The reconciliation report's upload (spec 3 section 2 "Reconciliation report", spec 2 the same;
 * docs/decisions/020-finance-ii-report.md): what a finance user has from a carrier's bill, one
 * line a consignment, checked line by line. Pure: the server parses the CSV text (csv.server.ts
 * parseCsv) and hands the header and rows here; a bad line is reported with its line number and
 * the good lines are still reconciled.
 */
import { z } from "zod";
import { centsToAmount, divideRounded, toCents } from "../invoicing/money";
import { differences, readRating, withinThresholds } from "./compare";
import { MAX_WEIGHT } from "../rating/payload";

/** The template's columns, in order; the first two are required in every file. */
export const REPORT_COLUMNS = ["consignment_number", "charged_amount", "charge_weight", "from_zone", "to_zone"] as const;
export const REQUIRED_COLUMNS = ["consignment_number", "charged_amount"] as const;
/** The template's example row: a consignment billed 42.50 excl. GST for 12.5 kg, MEL to SYD. */
export const TEMPLATE_ROW: Record<(typeof REPORT_COLUMNS)[number], string> = {
  consignment_number: "CN00012345",
  charged_amount: "42.50",
  charge_weight: "12.5",
  from_zone: "MEL",
  to_zone: "SYD",
};

/** One upload reconciles at most this many lines (a carrier's monthly bill; larger bills split). */
export const MAX_REPORT_LINES = 50_000;
export const MAX_CONSIGNMENT_NUMBER = 50;
export const MAX_ZONE = 20;
/** the largest charged amount a line may hold: the reconciliations' numeric(12,2) */
export const MAX_CHARGED_CENTS = 9_999_999_999;

export const REPORT_MESSAGES = {
  empty: "The file is empty.",
  headerOnly: "The file has no lines to reconcile.",
  header: `The header must name the columns ${REQUIRED_COLUMNS.join(" and ")} (download the template).`,
  tooMany: `The file has more than ${MAX_REPORT_LINES.toLocaleString("en")} lines; split it into smaller files.`,
  numberRequired: "Consignment number is required.",
  numberTooLong: `Consignment number must be at most ${MAX_CONSIGNMENT_NUMBER} characters.`,
  amountRequired: "Charged amount is required.",
  amountInvalid: "Charged amount must be a number of at least 0 with up to 2 decimals.",
  amountTooLarge: "Charged amount is too large.",
  weightInvalid: `Charge weight must be a number above 0 and at most ${MAX_WEIGHT} with up to 3 decimals.`,
  zoneTooLong: `Zones must be at most ${MAX_ZONE} characters.`,
  thresholdAmount: "Threshold amount must be a number of at least 0 with up to 2 decimals, at most 6 characters.",
  thresholdPercentage: "Variance threshold percentage must be a number from 0 to 100 with up to 2 decimals, at most 4 characters.",
  rerateAdmin: "Only admins may upload a rerate.",
} as const;

export interface ReportLine {
  /** the line's number in the file (the header is line 1) */
  line: number;
  consignment_number: string;
  charged: number;
  /** kg to 3 decimals as written, or null when not given */
  charge_weight: number | null;
  from_zone: string | null;
  to_zone: string | null;
}

export interface LineError {
  line: number;
  message: string;
}

export interface ParsedReport {
  lines: ReportLine[];
  errors: LineError[];
}

/** Thrown for a file that cannot be reconciled at all: no line of it is. */
export class ReportFileError extends Error {}

// a "$" or thousands separators as a spreadsheet writes them; the rest digits with up to 2 decimals
const AMOUNT = /^\d+(\.\d{1,2})?$/;
const WEIGHT = /^\d+(\.\d{1,3})?$/;

/** Checks the header and every row; throws ReportFileError for a file that has no line to check. */
export function parseReportRows(parsed: { headers: string[]; rows: Array<{ line: number; values: Record<string, string> }> }): ParsedReport {
  if (parsed.headers.length === 0 || parsed.headers.every((h) => h === "")) throw new ReportFileError(REPORT_MESSAGES.empty);
  if (!REQUIRED_COLUMNS.every((c) => parsed.headers.includes(c))) throw new ReportFileError(REPORT_MESSAGES.header);
  // a row of blank cells (a spreadsheet's trailing commas) is no line
  const rows = parsed.rows.filter((r) => Object.values(r.values).some((v) => (v ?? "").trim() !== ""));
  if (rows.length === 0) throw new ReportFileError(REPORT_MESSAGES.headerOnly);
  if (rows.length > MAX_REPORT_LINES) throw new ReportFileError(REPORT_MESSAGES.tooMany);
  const lines: ReportLine[] = [];
  const errors: LineError[] = [];
  for (const { line, values } of rows) {
    const problems: string[] = [];
    const number = (values.consignment_number ?? "").trim();
    if (!number) problems.push(REPORT_MESSAGES.numberRequired);
    else if (number.length > MAX_CONSIGNMENT_NUMBER) problems.push(REPORT_MESSAGES.numberTooLong);
    const amountText = (values.charged_amount ?? "").trim().replace(/^\$/, "").replace(/,(?=\d{3}(\D|$))/g, "");
    let charged = 0;
    if (!amountText) problems.push(REPORT_MESSAGES.amountRequired);
    else if (!AMOUNT.test(amountText)) problems.push(REPORT_MESSAGES.amountInvalid);
    else if ((charged = toCents(amountText)) > MAX_CHARGED_CENTS) problems.push(REPORT_MESSAGES.amountTooLarge);
    const weightText = (values.charge_weight ?? "").trim();
    const weight = weightText === "" ? null : Number(weightText);
    if (weightText !== "" && (!WEIGHT.test(weightText) || !(weight! > 0) || weight! > MAX_WEIGHT)) problems.push(REPORT_MESSAGES.weightInvalid);
    const zone = (v: string | undefined) => (v ?? "").trim() || null;
    const from = zone(values.from_zone);
    const to = zone(values.to_zone);
    if ((from?.length ?? 0) > MAX_ZONE || (to?.length ?? 0) > MAX_ZONE) problems.push(REPORT_MESSAGES.zoneTooLong);
    if (problems.length) errors.push({ line, message: problems.join(" ") });
    else lines.push({ line, consignment_number: number, charged, charge_weight: weight, from_zone: from, to_zone: to });
  }
  return { lines, errors };
}

/** A threshold field: blank or missing takes the spec's default; otherwise digits with up to 2 decimals within its length. */
const threshold = (maxLength: number, fallback: number, max: number, message: string) =>
  z
    .union([z.string(), z.number(), z.null()])
    .optional()
    .transform((v, ctx) => {
      const text = v == null ? "" : String(v).trim();
      if (text === "") return fallback;
      if (text.length > maxLength || !/^\d*(\.\d{1,2})?$/.test(text) || text === "." || Number(text) > max) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return Number(text);
    });

/** spec 3 sections 2 and 9: threshold_amount (6 characters, default 0.2), threshold_percentage (4, default 2) */
export const DEFAULT_THRESHOLD_AMOUNT = 0.2;
export const DEFAULT_THRESHOLD_PERCENTAGE = 2;
export const THRESHOLD_AMOUNT_LENGTH = 6;
export const THRESHOLD_PERCENTAGE_LENGTH = 4;

/** The upload's query (or form) fields, shared by the screen and POST /api/old_reconciliations. */
export const reportOptionsSchema = z.object({
  threshold_amount: threshold(THRESHOLD_AMOUNT_LENGTH, DEFAULT_THRESHOLD_AMOUNT, 999_999, REPORT_MESSAGES.thresholdAmount),
  threshold_percentage: threshold(THRESHOLD_PERCENTAGE_LENGTH, DEFAULT_THRESHOLD_PERCENTAGE, 100, REPORT_MESSAGES.thresholdPercentage),
  rerate: z
    .union([z.string(), z.boolean(), z.null()])
    .optional()
    .transform((v) => v === true || v === "true" || v === "1" || v === "on"),
});
export type ReportOptions = z.output<typeof reportOptionsSchema>;

export const REPORT_STATUSES = ["within", "outside", "not_found", "not_rated"] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];
export const STATUS_LABELS: Record<ReportStatus, string> = {
  within: "Within thresholds",
  outside: "Outside thresholds",
  not_found: "Consignment not found",
  not_rated: "No rated buy to compare with",
};

/** What the report found for one good line; money in cents. */
export interface ReportResult extends ReportLine {
  status: ReportStatus;
  rated_buy: number | null;
  /** charged minus rated buy */
  variance: number | null;
  /** variance over rated buy, percent to 2 decimals */
  variance_percentage: number | null;
  rated_charge_weight: number | null;
  rated_from_zone: string | null;
  rated_to_zone: string | null;
  /** what the line says differently from the rating: "charge weight", "from zone", "to zone" */
  differences: string[];
  /** the admin's Rerate upload: the price again with the line's weight, or why it failed */
  rerate?: { buy: number; sell: number; old_sell: number } | { error: string };
}

/**
 * One line against its consignment's stored rating (null: no consignment by that number that
 * the user may see). The variance is the charged amount less the rated buy (GST left out on both
 * sides, as compare.ts reads rating_detail); within the thresholds by compare.ts's own rule.
 */
export function evaluateLine(line: ReportLine, consignment: { rating_detail: unknown } | null, thresholds: { amount: number; percentage: number }): ReportResult {
  const blank = { rated_buy: null, variance: null, variance_percentage: null, rated_charge_weight: null, rated_from_zone: null, rated_to_zone: null, differences: [] };
  if (!consignment) return { ...line, ...blank, status: "not_found" };
  const rated = readRating(consignment.rating_detail);
  const ratedBuy = rated ? [...rated.buy.values()].reduce((a, b) => a + b, 0) : 0;
  const facts = {
    rated_charge_weight: rated?.charge_weight == null ? null : rated.charge_weight / 1000,
    rated_from_zone: rated?.from_zone ?? null,
    rated_to_zone: rated?.to_zone ?? null,
  };
  if (!rated || ![...rated.buy.values()].some((v) => v !== 0)) return { ...line, ...blank, ...facts, status: "not_rated" };
  const diff = differences({ costs: [], charge_weight: line.charge_weight, from_zone: line.from_zone, to_zone: line.to_zone, service_id: null }, rated, { service_id: null });
  const variance = line.charged - ratedBuy;
  return {
    ...line,
    ...facts,
    status: withinThresholds(variance, ratedBuy, { flat: thresholds.amount, percentage: thresholds.percentage }) ? "within" : "outside",
    rated_buy: ratedBuy,
    variance,
    variance_percentage: divideRounded(Math.sign(ratedBuy) * variance * 10_000, Math.abs(ratedBuy)) / 100,
    differences: [diff.weight && "charge weight", diff.from_zone && "from zone", diff.to_zone && "to zone"].filter((d): d is string => Boolean(d)),
  };
}

/** The result file's columns (the template's first, then what was found). */
export const RESULT_COLUMNS = [
  "line",
  "consignment_number",
  "status",
  "charged_amount",
  "rated_buy",
  "variance",
  "variance_percentage",
  "charge_weight",
  "rated_charge_weight",
  "from_zone",
  "rated_from_zone",
  "to_zone",
  "rated_to_zone",
  "differences",
  "rerated_buy",
  "rerated_sell",
  "original_sell",
  "rerate_error",
] as const;

const money = (cents: number | null | undefined) => (cents == null ? "" : centsToAmount(cents));

/** A result as a row of the result file: dollars to 2 decimals, the status in words; a skipped line with its message. */
export function resultRow(r: ReportResult | LineError): Record<string, string | number> {
  if (!("status" in r)) return { line: r.line, status: "Skipped", differences: r.message };
  const rerate = r.rerate && "buy" in r.rerate ? r.rerate : null;
  return {
    line: r.line,
    consignment_number: r.consignment_number,
    status: STATUS_LABELS[r.status],
    charged_amount: money(r.charged),
    rated_buy: money(r.rated_buy),
    variance: money(r.variance),
    variance_percentage: r.variance_percentage == null ? "" : r.variance_percentage.toFixed(2),
    charge_weight: r.charge_weight ?? "",
    rated_charge_weight: r.rated_charge_weight ?? "",
    from_zone: r.from_zone ?? "",
    rated_from_zone: r.rated_from_zone ?? "",
    to_zone: r.to_zone ?? "",
    rated_to_zone: r.rated_to_zone ?? "",
    differences: r.differences.join("; "),
    rerated_buy: money(rerate?.buy),
    rerated_sell: money(rerate?.sell),
    original_sell: money(rerate?.old_sell),
    rerate_error: r.rerate && "error" in r.rerate ? r.rerate.error : "",
  };
}

export interface ReportSummary {
  lines: number;
  within: number;
  outside: number;
  not_found: number;
  not_rated: number;
  skipped: number;
  /** sum of the variances of the lines compared, cents */
  variance: number;
}

export function summarise(results: ReportResult[], errors: LineError[]): ReportSummary {
  const s: ReportSummary = { lines: results.length + errors.length, within: 0, outside: 0, not_found: 0, not_rated: 0, skipped: errors.length, variance: 0 };
  for (const r of results) {
    s[r.status] += 1;
    s.variance += r.variance ?? 0;
  }
  return s;
}

/**
 * The caption of the report's result table. 'Every line reconciled.' only when it is true: every
 * line of the file compared (none skipped, none without its consignment or a rated buy) and all
 * of them shown; otherwise it says what the table holds and how many lines were not compared.
 */
export function resultsCaption(s: ReportSummary, shown: number): string {
  const compared = s.within + s.outside;
  const notCompared = s.lines - compared;
  const table = shown < s.lines - s.skipped ? `The first ${shown} lines; the file has them all.` : null;
  if (notCompared === 0) return table ?? "Every line reconciled.";
  const of = `${compared} of ${s.lines} ${s.lines === 1 ? "line" : "lines"} reconciled; ${notCompared} could not be (see the summary).`;
  return table ? `${of} ${table}` : of;
}
