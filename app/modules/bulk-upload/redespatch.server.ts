/**
 * Bulk redespatch (POST /api/bulk_upload/redespatch; admins, super admins and devs): a CSV of
 * consignment numbers whose despatch failed, sent to their carriers again through the despatch
 * module's redespatch (same manifests and numbers). Lines naming no consignment of the customer,
 * or one whose despatch did not fail, are skipped with the reason.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { bulkUploads, consignments } from "../../../db/schema";
import type { JobQueue } from "../jobs/queue";
import type { CurrentUser } from "../auth/current-user.server";
import { canBulkRedespatch } from "../auth/roles";
import { isFailed } from "../consignments/rules";
import { NOT_REDESPATCHABLE, redespatchManifestsOf } from "../despatch/redespatch.server";
import { parseCsv } from "../../utils/csv.server";
import { AppError, forbidden } from "../../utils/errors";
import { UPLOAD_ERRORS_SHOWN } from "../../utils/upload-limits";
import { fingerprintOf } from "./upload.server";
import type { LineError } from "./group";

export const NUMBER_COLUMNS = ["consignment_number", "consignment", "number", "con_note"];
export const NOTHING_TO_REDESPATCH = "None of the consignments in the file can be redespatched.";
/** consignment numbers a file may name */
export const MAX_REDESPATCH_LINES = 5000;

export interface RedespatchReport {
  job_id: string | null;
  /** consignments sent again (the named ones and every failed one on their manifests) */
  redespatched: number;
  skipped: LineError[];
  skipped_total: number;
}

export async function bulkRedespatch(db: DbOrTx, queue: JobQueue, user: CurrentUser, text: string, fileName: string | null): Promise<RedespatchReport> {
  if (!canBulkRedespatch(user)) throw forbidden("Only admins may bulk redespatch.");
  const { headers, rows } = await parseCsv(text);
  const column = headers.find((h) => NUMBER_COLUMNS.includes(h.replace(/[\s-]+/g, "_")));
  if (!column) throw new AppError("invalid", "Missing column: consignment_number", { file: ["Missing column: consignment_number"] });
  if (rows.length > MAX_REDESPATCH_LINES) throw new AppError("invalid", `At most ${MAX_REDESPATCH_LINES} consignments can be redespatched at once.`, { file: [`At most ${MAX_REDESPATCH_LINES} consignments can be redespatched at once.`] });

  const skipped: LineError[] = [];
  const wanted = new Map<string, number[]>();
  for (const r of rows) {
    const number = (r.values[column] ?? "").trim();
    if (!number) skipped.push({ line: r.line, errors: ["Consignment number is required"] });
    else wanted.set(number, [...(wanted.get(number) ?? []), r.line]);
  }
  const found = wanted.size
    ? await db
        .select({ id: consignments.id, number: consignments.consignmentNumber, state: consignments.state, siteId: consignments.siteId })
        .from(consignments)
        .where(and(eq(consignments.customerId, user.customer.id), inArray(consignments.consignmentNumber, [...wanted.keys()])))
    : [];
  const byNumber = new Map(found.filter((f) => user.siteIds.includes(f.siteId)).map((f) => [f.number!, f]));
  const ids: number[] = [];
  for (const [number, lines] of wanted) {
    const c = byNumber.get(number);
    const reason = !c ? `Consignment ${number} not found` : !isFailed(c.state) ? `${NOT_REDESPATCHABLE} (${number} is ${c.state})` : null;
    if (reason) for (const line of lines) skipped.push({ line, errors: [reason] });
    else ids.push(c!.id);
  }
  skipped.sort((a, b) => a.line - b.line);
  const sent = await redespatchManifestsOf(db, queue, user, ids);
  if (!sent && !skipped.length) throw new AppError("invalid", NOTHING_TO_REDESPATCH, { file: [NOTHING_TO_REDESPATCH] });
  if (sent) {
    // the file is recorded for its fingerprint; the same file sent again later redespatches what has failed again
    await db
      .insert(bulkUploads)
      .values({ customerId: user.customer.id, userId: user.id, kind: "redespatch", fileName: (fileName ?? "redespatch.csv").slice(0, 255), fingerprint: fingerprintOf(text), jobId: sent.job_id, totalLines: rows.length, created: sent.ids.length, skipped: skipped.length })
      .onConflictDoUpdate({
        target: [bulkUploads.customerId, bulkUploads.kind, bulkUploads.fingerprint],
        set: { jobId: sent.job_id, userId: user.id, totalLines: rows.length, created: sent.ids.length, skipped: skipped.length },
      });
  }
  return { job_id: sent?.job_id ?? null, redespatched: sent?.ids.length ?? 0, skipped: skipped.slice(0, UPLOAD_ERRORS_SHOWN), skipped_total: skipped.length };
}
