/**
 * Where an uploaded file waits for its job: the file store (docs/decisions/030), not a directory,
 * so a job on any host reads what a web process on another took. A bulk upload's file is linked
 * to its row (bulk_uploads.file_id) and removed when its job is done; a recipients file is named
 * by its job's payload. Either expires after UPLOAD_KEEP_DAYS, so the nightly cleanup removes one
 * whose job never finished.
 */
import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { bulkUploads } from "../../../db/schema";
import { deleteFile, putFile, readWholeFile, requireFile, type FileSource, type StoredFile } from "../files/index.server";
import { AppError } from "../../utils/errors";

/** Long enough for a job queued behind others or a worker down over a weekend; the file is removed as soon as its job is done. */
export const UPLOAD_KEEP_DAYS = 7;
export const UPLOAD_GONE = "The uploaded file is no longer available: upload it again.";

export const uploadExpiry = (now: Date) => new Date(now.getTime() + UPLOAD_KEEP_DAYS * 86_400_000);

/** Stores an upload for its job (a recipients file as sent, a .gz still packed). */
export const storeUpload = (db: DbOrTx, meta: { kind: "bulk_upload" | "recipients_upload"; name: string; customerId: number }, source: FileSource): Promise<StoredFile> =>
  putFile(db, { ...meta, contentType: "text/csv", expiresAt: uploadExpiry(new Date()) }, source);

/** The stored upload `id`, whole; a file gone (expired, or its job done) fails its job with UPLOAD_GONE. */
export async function requireUpload(db: DbOrTx, id: string | null, what: string): Promise<StoredFile> {
  try {
    return await requireFile(db, id, what);
  } catch (e) {
    if (e instanceof AppError && e.code === "not_found") throw new Error(UPLOAD_GONE);
    throw e;
  }
}

interface Upload {
  id: number;
  customerId: number;
  fileName: string;
}

/**
 * Stores `text` as the upload's file and links it to its row, in the caller's transaction (the
 * row and its file exist together); a file it had before (a failed run's) goes.
 */
export async function storeUploadFile(tx: DbOrTx, upload: Upload, text: string): Promise<void> {
  const [before] = await tx.select({ fileId: bulkUploads.fileId }).from(bulkUploads).where(eq(bulkUploads.id, upload.id));
  const file = await storeUpload(tx, { kind: "bulk_upload", name: upload.fileName, customerId: upload.customerId }, text);
  await tx.update(bulkUploads).set({ fileId: file.id }).where(eq(bulkUploads.id, upload.id));
  if (before?.fileId) await deleteFile(tx, before.fileId);
}

/** The upload's file as text (at most the 10 MB an upload may be: the CSV parser takes it whole). */
export async function readUploadFile(db: DbOrTx, upload: { id: number; fileId: string | null }): Promise<string> {
  const file = await requireUpload(db, upload.fileId, `bulk upload ${upload.id}`);
  return (await readWholeFile(db, file)).toString("utf8");
}

/** Its job is done: the file goes (the row's link with it). */
export async function removeUploadFile(db: DbOrTx, upload: { fileId: string | null }): Promise<void> {
  if (upload.fileId) await deleteFile(db, upload.fileId);
}
