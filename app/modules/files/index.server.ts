/**
 * The file store's public face (docs/decisions/030, 037): other modules import only this file.
 * Every document the business keeps, and every temporary file a job waits on, is stored here:
 * metadata in PostgreSQL (PGlite the same code), the bytes there too by default or in an S3 bucket
 * (FILE_STORE=s3), never in the OS temporary directory.
 */
import { Readable } from "node:stream";
import { and, eq, isNotNull, lt } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { files } from "../../../db/schema";
import { AppError } from "../../utils/errors";
import { fileStoreSettings } from "./backend.server";
import { deleteGoneObjects, removeOrphanObjects } from "./s3.server";
import { commitsAtOnce, contentComplete, FILE_DAMAGED, FILE_MISSING, FILE_UNAVAILABLE, openFile, statFile, WRITING_TTL_MS, type StoredFile } from "./store.server";

export { CHUNK_BYTES, deleteFile, FILE_DAMAGED, FILE_MISSING, FILE_UNAVAILABLE, openFile, putFile, readWholeFile, statFile } from "./store.server";
export type { FileSource, PutFile, StoredFile } from "./store.server";
export type { FileKind } from "../../../db/schema";

/** A name safe inside content-disposition's quotes: no quote, backslash, line break or control character. */
export const safeFileName = (name: string) =>
  [...name]
    .map((ch) => (ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f || '"\\/'.includes(ch) ? "_" : ch))
    .join("")
    .slice(0, 200) || "file";

/**
 * The file `id` when it is there whole; else a 404 (no such file) or a 409 (its bytes are not all
 * there, or their store cannot be reached), logged with `what` so an operator can find the row
 * that points at it.
 */
export async function requireFile(db: DbOrTx, id: string | null | undefined, what: string): Promise<StoredFile> {
  const file = id ? await statFile(db, id) : null;
  if (!file) {
    console.error(`[files] ${what}: file ${id ?? "(none)"} is missing`);
    throw new AppError("not_found", FILE_MISSING);
  }
  let complete: boolean;
  try {
    complete = await contentComplete(db, file);
  } catch (e) {
    // the S3 backend logged what failed; this names the row
    console.error(`[files] ${what}: file ${file.id} cannot be read: ${e instanceof Error ? e.message : e}`);
    throw e instanceof AppError ? e : new AppError("conflict", FILE_UNAVAILABLE);
  }
  if (!complete) {
    console.error(`[files] ${what}: file ${file.id} is damaged (${file.storage === "s3" ? "its object is not" : "its chunks do not add up to"} ${file.size} bytes)`);
    throw new AppError("conflict", FILE_DAMAGED);
  }
  return file;
}

/** A download of a stored file: its type, length and a safe attachment name; the body streams. */
export function fileResponse(db: DbOrTx, file: StoredFile, name = file.name): Response {
  const body = openFile(db, file);
  body.on("error", (e) => console.error(`[files] reading ${file.id} (${file.name}) failed:`, e instanceof Error ? e.message : e));
  return new Response(Readable.toWeb(body) as ReadableStream, {
    headers: {
      "content-type": file.contentType,
      "content-length": String(file.size),
      "content-disposition": `attachment; filename="${safeFileName(name)}"`,
    },
  });
}

/**
 * Keeps a file that was stored to expire (an upload waiting on its job) for good: called in the
 * transaction that writes the rows it belongs to, so the file is kept exactly when they commit.
 * Answers false when the file is no longer there.
 */
export async function keepFile(db: DbOrTx, id: string): Promise<boolean> {
  const kept = await db.update(files).set({ expiresAt: null }).where(eq(files.id, id)).returning({ id: files.id });
  return kept.length > 0;
}

/** Locks a file's row until the transaction ends (a caller deciding whether to delete it); false when there is none. */
export async function lockFile(tx: DbOrTx, id: string): Promise<boolean> {
  if (!(await statFile(tx, id))) return false;
  const rows = await tx.select({ id: files.id }).from(files).where(eq(files.id, id)).for("update");
  return rows.length > 0;
}

/**
 * The nightly cleanup: removes files whose time has passed (their chunks go with them); answers
 * how many. On the database (not in a transaction), it then deletes the S3 objects of every file
 * deleted since the last sweep, and objects no row names that are older than any write still in
 * progress (a transaction rolled back after its upload). S3 that cannot be reached is logged and
 * left for the next night.
 */
export async function removeExpiredFiles(db: DbOrTx, now: Date): Promise<number> {
  const gone = await db
    .delete(files)
    .where(and(isNotNull(files.expiresAt), lt(files.expiresAt, now)))
    .returning({ id: files.id });
  if (commitsAtOnce(db) && fileStoreSettings().s3) {
    try {
      await deleteGoneObjects(db);
      await removeOrphanObjects(db, new Date(now.getTime() - WRITING_TTL_MS));
    } catch (e) {
      console.error("[files] the S3 sweep failed; left for the next night:", e instanceof Error ? e.message : e);
    }
  }
  return gone.length;
}

export { SCRATCH_PREFIX, withLocalCopy, withScratchCopy } from "./scratch.server";
export { fileStoreReachable } from "./s3.server";
