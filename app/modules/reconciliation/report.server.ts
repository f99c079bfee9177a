/**
 * The reconciliation report (spec 3 section 2 "Reconciliation report", sections 6, 7 and 9; issue
 * 19 point 4; docs/decisions/020-finance-ii-report.md): a finance user uploads what the carrier
 * charged per consignment, and each line is set against the consignment's stored rating with the
 * thresholds given. The result is kept as a CSV to download (formulas neutralised) and the upload
 * is recorded in reconciliation_reports. Nothing else changes: this is a report.
 */
import { and, desc, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { consignments, reconciliationReports } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { isAdmin } from "../auth/roles";
import { canAdministerInvoices, financeScope } from "../invoices/access";
import { fileResponse, putFile, requireFile } from "../files/index.server";
import { csvDownload } from "../item-types/import-export.server";
import { parseCsv, toCsv } from "../../utils/csv.server";
import { AppError, forbidden, notFound } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import {
  REPORT_COLUMNS,
  REPORT_MESSAGES,
  RESULT_COLUMNS,
  ReportFileError,
  TEMPLATE_ROW,
  evaluateLine,
  parseReportRows,
  reportOptionsSchema,
  resultRow,
  summarise,
  type LineError,
  type ReportResult,
  type ReportSummary,
} from "./report-csv";
import { rerateLines } from "./report-rerate.server";

/** How many results the answer carries besides the file (the screen shows the first ones). */
export const RESULTS_SHOWN = 100;
/** The lines a rerate upload may hold: each is priced by the rating engine. */
export const MAX_RERATE_LINES = 2_000;


/** GET /api/reconciliations_template: the header the upload takes and one example row. */
export async function reportTemplate(): Promise<Response> {
  return csvDownload(await toCsv([...REPORT_COLUMNS], [TEMPLATE_ROW]), "reconciliation_template.csv");
}

export interface ReportAnswer {
  id: number;
  file_name: string;
  rerate: boolean;
  threshold_amount: number;
  threshold_percentage: number;
  summary: ReportSummary;
  /** the first RESULTS_SHOWN results, money in dollars as the file has them */
  results: Array<Record<string, string | number>>;
  /** every skipped line with its line number */
  line_errors: LineError[];
  download_url: string;
}

/**
 * POST /api/old_reconciliations?threshold_amount&threshold_percentage[&rerate=true] with the file.
 * Thresholds are checked before the file; a file that has no line to check is refused whole (422);
 * otherwise every good line is reported and every bad one listed with its line number.
 */
export async function runReport(db: DbOrTx, user: CurrentUser, upload: { text: string; filename: string | null; fields: Record<string, unknown> }): Promise<ReportAnswer> {
  const options = parseOrThrow(reportOptionsSchema, upload.fields);
  if (options.rerate && !canAdministerInvoices(user)) throw forbidden(REPORT_MESSAGES.rerateAdmin);
  let parsed;
  try {
    if (upload.text.trim() === "") throw new ReportFileError(REPORT_MESSAGES.empty);
    parsed = parseReportRows(await parseCsv(upload.text));
  } catch (e) {
    if (e instanceof ReportFileError) throw new AppError("invalid", e.message, { file: [e.message] });
    throw e;
  }
  if (options.rerate && parsed.lines.length > MAX_RERATE_LINES) {
    const message = `A rerate upload takes at most ${MAX_RERATE_LINES.toLocaleString("en")} lines.`;
    throw new AppError("invalid", message, { file: [message] });
  }

  const found = await consignmentsByNumber(db, user, [...new Set(parsed.lines.map((l) => l.consignment_number))]);
  const thresholds = { amount: options.threshold_amount, percentage: options.threshold_percentage };
  const results: ReportResult[] = parsed.lines.map((l) => evaluateLine(l, found.get(l.consignment_number.toLowerCase()) ?? null, thresholds));
  if (options.rerate) await rerateLines(db, results, found);

  const summary = summarise(results, parsed.errors);
  // the file lists the lines in the order of the upload, skipped ones where they were
  const all = [...results, ...parsed.errors].sort((a, b) => a.line - b.line).map(resultRow);
  const fileName = (upload.filename ?? "reconciliation.csv").slice(0, 255);
  const text = await toCsv([...RESULT_COLUMNS], all);
  const base = fileName.replace(/\.csv$/i, "").replace(/[^\w.-]+/g, "_") || "reconciliation";
  // the result file and the report that offers it commit together: neither without the other
  const row = await db.transaction(async (tx) => {
    const file = await putFile(tx, { kind: "reconciliation_result", name: `${base}_result.csv`, contentType: "text/csv; charset=utf-8", customerId: user.customer.id }, text);
    const [made] = await tx
      .insert(reconciliationReports)
      .values({
        userId: user.id,
        fileName,
        rerate: options.rerate,
        thresholdAmount: String(options.threshold_amount),
        thresholdPercentage: String(options.threshold_percentage),
        summary: { ...summary },
        resultPath: file.id,
      })
      .returning({ id: reconciliationReports.id });
    return made;
  });
  return {
    id: row!.id,
    file_name: fileName,
    rerate: options.rerate,
    threshold_amount: options.threshold_amount,
    threshold_percentage: options.threshold_percentage,
    summary,
    results: results.slice(0, RESULTS_SHOWN).map(resultRow),
    line_errors: parsed.errors,
    download_url: `/api/old_reconciliations/${row!.id}`,
  };
}

export interface FoundConsignment {
  id: number;
  rating_detail: unknown;
  customer_id: number;
}

/**
 * The consignments the user may see by number (case aside): staff any customer's, a customer's
 * finance user only their own, so another customer's number reads as not found. Where a number
 * was used twice, the newest consignment counts.
 */
async function consignmentsByNumber(db: DbOrTx, user: CurrentUser, numbers: string[]): Promise<Map<string, FoundConsignment>> {
  const scope = financeScope(user);
  const out = new Map<string, FoundConsignment>();
  const CHUNK = 5_000;
  for (let i = 0; i < numbers.length; i += CHUNK) {
    const part = numbers.slice(i, i + CHUNK);
    const wanted = [...new Set(part.flatMap((n) => [n, n.toUpperCase(), n.toLowerCase()]))];
    const rows = await db
      .select({ id: consignments.id, number: consignments.consignmentNumber, rating_detail: consignments.ratingDetail, customer_id: consignments.customerId })
      .from(consignments)
      // the number index serves the exact forms; numbers are written upper case, as carriers print them
      .where(and(inArray(consignments.consignmentNumber, wanted), scope.kind === "customer" ? eq(consignments.customerId, scope.customerId) : undefined))
      .orderBy(desc(consignments.id));
    for (const r of rows) {
      const key = (r.number ?? "").toLowerCase();
      if (!out.has(key)) out.set(key, { id: r.id, rating_detail: r.rating_detail, customer_id: r.customer_id });
    }
  }
  return out;
}

/**
 * GET /api/old_reconciliations/{id}: a report's result file, for whoever uploaded it and for
 * staff; anyone else is told it does not exist.
 */
export async function reportResultFile(db: DbOrTx, user: CurrentUser, id: number): Promise<Response> {
  const [row] = await db
    .select({ userId: reconciliationReports.userId, path: reconciliationReports.resultPath, fileName: reconciliationReports.fileName })
    .from(reconciliationReports)
    .where(eq(reconciliationReports.id, id));
  if (!row?.path || (row.userId !== user.id && !isAdmin(user))) throw notFound("Reconciliation report");
  const file = await requireFile(db, row.path, `reconciliation report ${id}'s result`);
  return fileResponse(db, file);
}

/** The user's last uploads, newest first, for the screen's list of results to download again. */
export async function recentReports(db: DbOrTx, user: CurrentUser, limit = 10) {
  const rows = await db
    .select({ id: reconciliationReports.id, fileName: reconciliationReports.fileName, rerate: reconciliationReports.rerate, summary: reconciliationReports.summary, createdAt: reconciliationReports.createdAt })
    .from(reconciliationReports)
    .where(eq(reconciliationReports.userId, user.id))
    .orderBy(desc(reconciliationReports.id))
    .limit(limit);
  return rows.map((r) => ({ id: r.id, file_name: r.fileName, rerate: r.rerate, summary: r.summary ?? {}, created_at: r.createdAt.toISOString(), download_url: `/api/old_reconciliations/${r.id}` }));
}
