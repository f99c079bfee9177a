/**
 * Taking a bulk upload file (POST /api/bulk_upload/import and the /bulk_upload screen): checks who
 * may upload what, refuses a file that is not CSV or whose header is wrong before any job starts,
 * and queues the import job. The same file (SHA-256 of its text) for the same customer and kind is
 * taken once: a second upload answers the first one's job (a failed one is run again).
 */
import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import { bulkUploads, jobs } from "../../../db/schema";
import type { JobQueue } from "../jobs/queue";
import type { CurrentUser } from "../auth/current-user.server";
import { canBulkUpload } from "../auth/roles";
import { jobStatusFor } from "../jobs/jobs.server";
import { csvTextProblem, parseCsv } from "../../utils/csv.server";
import { AppError, forbidden, notFound } from "../../utils/errors";
import { headerProblem, mapHeaders } from "./columns";
import { storeUploadFile } from "./files.server";
import { KIND_REFUSED, mayUploadKind, UPLOAD_KINDS, type UploadKind } from "./kinds";

export const BULK_UPLOAD_JOB = "bulk_upload.import";
export const bulkUploadPayload = z.object({ uploadId: z.number().int().positive() });

export const kindSchema = z.object({
  type: z.enum(UPLOAD_KINDS, { error: "Type must be consignment or quote" }),
});

export const fingerprintOf = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** The file refused whole: not CSV text, or a header that misses, mistakes or repeats a column. */
export async function fileProblem(text: string): Promise<string | null> {
  const body = text.replace(/^\uFEFF/, "");
  const notCsv = csvTextProblem(body);
  if (notCsv) return notCsv;
  const firstLine = body.split(/\r?\n/, 1)[0] ?? "";
  if (!firstLine.trim()) return "The file is empty.";
  const { headers } = await parseCsv(firstLine);
  return headerProblem(mapHeaders(headers));
}

export interface StartedUpload {
  job_id: string | null;
  bulk_upload_id: number;
  /** this file was uploaded before: the answer is the first upload's */
  duplicate: boolean;
}

/** Queues the import of `text` as `kind` for the user's working customer. */
export async function startBulkUpload(db: DbOrTx, queue: JobQueue, user: CurrentUser, raw: { type?: unknown; text: string; fileName: string | null }): Promise<StartedUpload> {
  if (!canBulkUpload(user)) throw forbidden("You may not bulk upload.");
  const parsed = kindSchema.safeParse({ type: raw.type });
  if (!parsed.success) throw new AppError("invalid", "Type must be consignment or quote", { type: ["Type must be consignment or quote"] });
  const kind: UploadKind = parsed.data.type;
  if (!mayUploadKind(user, kind)) throw forbidden(KIND_REFUSED[kind]);
  const problem = await fileProblem(raw.text);
  if (problem) throw new AppError("invalid", problem, { file: [problem] });

  const fingerprint = fingerprintOf(raw.text);
  const customerId = user.customer.id;
  // one transaction: the upload row, its stored file and its job exist together; a second upload
  // of the same file waits on the unique index for the first to commit, then answers the first's job
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(bulkUploads)
      .values({ customerId, userId: user.id, kind, fileName: (raw.fileName ?? "upload.csv").slice(0, 255), fingerprint })
      .onConflictDoNothing()
      .returning();
    if (row) {
      await storeUploadFile(tx, row, raw.text);
      return { job_id: await enqueue(tx, queue, user, row.id), bulk_upload_id: row.id, duplicate: false };
    }
    const [first] = await tx
      .select({ id: bulkUploads.id, customerId: bulkUploads.customerId, fileName: bulkUploads.fileName, jobId: bulkUploads.jobId, status: jobs.status })
      .from(bulkUploads)
      .leftJoin(jobs, eq(jobs.id, bulkUploads.jobId))
      .where(and(eq(bulkUploads.customerId, customerId), eq(bulkUploads.kind, kind), eq(bulkUploads.fingerprint, fingerprint)))
      .for("update", { of: bulkUploads });
    if (!first) throw new AppError("conflict", "The upload could not be taken: try again.");
    // a run that failed (the database gone, the uploader's rights changed) is run again: per-row
    // references keep what it made from being made twice; it reads the file as uploaded now
    if (first.status === "failed" || !first.jobId) {
      await storeUploadFile(tx, first, raw.text);
      return { job_id: await enqueue(tx, queue, user, first.id), bulk_upload_id: first.id, duplicate: true };
    }
    return { job_id: first.jobId, bulk_upload_id: first.id, duplicate: true };
  });
}

async function enqueue(tx: DbOrTx, queue: JobQueue, user: CurrentUser, uploadId: number): Promise<string> {
  const { jobId } = await queue.enqueue(BULK_UPLOAD_JOB, { uploadId }, { tx, userId: user.id, customerId: user.customer.id, siteIds: user.siteIds });
  await tx.update(bulkUploads).set({ jobId, userId: user.id }).where(eq(bulkUploads.id, uploadId));
  return jobId;
}

/** An upload of the user's working customer with its job's status (the screen's progress and result); 404 otherwise. */
export async function bulkUploadFor(db: DbOrTx, user: CurrentUser, id: number) {
  const [row] = await db
    .select()
    .from(bulkUploads)
    .where(and(eq(bulkUploads.id, id), eq(bulkUploads.customerId, user.customer.id)));
  if (!row || row.kind === "redespatch" || !row.jobId) throw notFound("Bulk upload");
  return { upload: row, job: await jobStatusFor(db, user, row.jobId) };
}
