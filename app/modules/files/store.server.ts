/**
 * The file store (docs/decisions/030, 037): a file is a `files` row in PostgreSQL (PGlite the
 * same code) and its bytes in the backend the row names, `file_chunks` by default or an S3 bucket
 * (FILE_STORE=s3). Size and checksum are taken here as the bytes pass, and checked here as they
 * are read back, whichever backend holds them; no file sits whole in memory.
 */
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { eq, is } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../../../db/client.server";
import { files, type FileKind, type FileStorage } from "../../../db/schema";
import { AppError } from "../../utils/errors";
import { fileStoreSettings, FILE_DAMAGED, isUuid, type ContentBackend } from "./backend.server";
import { databaseBackend } from "./chunks.server";
import { deleteGoneObjects, s3Backend } from "./s3.server";

export { CHUNK_BYTES } from "./chunks.server";
export { FILE_DAMAGED, FILE_MISSING, FILE_UNAVAILABLE } from "./backend.server";

/** A file still being written expires after this, so one whose writer died is cleaned up. */
export const WRITING_TTL_MS = 24 * 3_600_000;

export type FileSource = Buffer | Uint8Array | string | AsyncIterable<Buffer | Uint8Array | string>;

export interface PutFile {
  kind: FileKind;
  name: string;
  contentType: string;
  customerId?: number | null;
  /** null or absent: kept until deleted */
  expiresAt?: Date | null;
  /** refused while streaming once more than this many bytes came */
  maxBytes?: number;
  /** the message of that refusal */
  tooLarge?: string;
}

export interface StoredFile {
  id: string;
  kind: FileKind;
  name: string;
  contentType: string;
  size: number;
  sha256: string;
  customerId: number | null;
  createdAt: Date;
  expiresAt: Date | null;
  /** where the bytes are; a row read from `files` has it, absent: looked up when the file is read */
  storage?: FileStorage;
}

const BACKENDS: Record<FileStorage, ContentBackend> = { db: databaseBackend, s3: s3Backend };

/** Whether deletions made through `db` are committed as soon as it answers (not a transaction). */
export const commitsAtOnce = (db: DbOrTx) => !is(db, PgTransaction);

async function* pieces(source: FileSource): AsyncIterable<Buffer> {
  if (typeof source === "string") yield Buffer.from(source, "utf8");
  else if (source instanceof Uint8Array) yield Buffer.from(source.buffer, source.byteOffset, source.byteLength);
  else for await (const p of source) yield typeof p === "string" ? Buffer.from(p, "utf8") : Buffer.from(p.buffer, p.byteOffset, p.byteLength);
}

/**
 * Stores a file from a stream, iterable or buffer in the configured backend; answers its row. More
 * than maxBytes is refused at once. Given a transaction, the row is part of it (rolled back with
 * it; an S3 object written for it then is an orphan the nightly sweep removes, decision 037);
 * given the database, a failed write removes what it had written.
 */
export async function putFile(db: DbOrTx, meta: PutFile, source: FileSource): Promise<StoredFile> {
  const storage = fileStoreSettings().writeTo;
  const [row] = await db
    .insert(files)
    .values({ kind: meta.kind, name: meta.name, contentType: meta.contentType, customerId: meta.customerId ?? null, storage, expiresAt: new Date(Date.now() + WRITING_TTL_MS) })
    .returning({ id: files.id });
  const id = row!.id;
  try {
    const hash = createHash("sha256");
    let size = 0;
    async function* measured() {
      for await (const piece of pieces(source)) {
        size += piece.length;
        if (meta.maxBytes != null && size > meta.maxBytes) throw new AppError("invalid", meta.tooLarge ?? "The file is too large.");
        hash.update(piece);
        yield piece;
      }
    }
    await BACKENDS[storage].write(db, { id, size: 0, contentType: meta.contentType }, measured());
    const [done] = await db
      .update(files)
      .set({ size, sha256: hash.digest("hex"), expiresAt: meta.expiresAt ?? null })
      .where(eq(files.id, id))
      .returning();
    return done as StoredFile;
  } catch (e) {
    // the row's delete lists an S3 object for deletion (migration 0031's trigger)
    await db
      .delete(files)
      .where(eq(files.id, id))
      .then(() => (commitsAtOnce(db) && storage === "s3" ? deleteGoneObjects(db, [id]) : 0))
      .catch(() => {});
    throw e;
  }
}

/** A file's row, or null when there is none (or `id` is no file id at all). */
export async function statFile(db: DbOrTx, id: string): Promise<StoredFile | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(files).where(eq(files.id, id));
  return (row as StoredFile | undefined) ?? null;
}

async function backendOf(db: DbOrTx, file: StoredFile): Promise<ContentBackend> {
  if (file.storage) return BACKENDS[file.storage];
  const [row] = await db.select({ storage: files.storage }).from(files).where(eq(files.id, file.id));
  return BACKENDS[row?.storage ?? "db"];
}

/**
 * Whether all the file's bytes are there, by length alone (no byte is read). A row without its
 * bytes, or with bytes missing, is damaged. A store that cannot be reached throws FILE_UNAVAILABLE.
 */
export async function contentComplete(db: DbOrTx, file: StoredFile): Promise<boolean> {
  return (await backendOf(db, file)).complete(db, file);
}

/**
 * The file's bytes as a stream, read as it is consumed. The checksum is checked as it goes: bytes
 * missing or changed end the stream with FILE_DAMAGED (a 409).
 */
export function openFile(db: DbOrTx, file: StoredFile): Readable {
  async function* checked() {
    const hash = createHash("sha256");
    let size = 0;
    for await (const bytes of (await backendOf(db, file)).read(db, file)) {
      size += bytes.length;
      // more than the row says: damaged, and not worth reading on
      if (size > file.size) break;
      hash.update(bytes);
      yield bytes;
    }
    if (size !== file.size || hash.digest("hex") !== file.sha256) throw new AppError("conflict", FILE_DAMAGED);
  }
  return Readable.from(checked(), { objectMode: false });
}

/** The whole file as one buffer: only for files known to be small (a test-run sample, a report). */
export async function readWholeFile(db: DbOrTx, file: StoredFile): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const p of openFile(db, file)) parts.push(p as Buffer);
  return Buffer.concat(parts);
}

/**
 * Deletes a file. Its chunks go with its row; an S3 object is listed for deletion by the row's
 * delete, and deleted at once unless `db` is a transaction (which may yet roll back): then the
 * nightly cleanup's sweep deletes it.
 */
export async function deleteFile(db: DbOrTx, id: string): Promise<void> {
  if (!isUuid(id)) return;
  const gone = await db.delete(files).where(eq(files.id, id)).returning({ storage: files.storage });
  if (gone[0]?.storage === "s3" && commitsAtOnce(db)) await deleteGoneObjects(db, [id]);
}
