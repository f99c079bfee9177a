/**
 * A scratch copy on the local disk for readers that need a path (the spreadsheet readers open a
 * file twice: a sniff of its first bytes, then the parse). The copy lives in a private directory
 * only while `read` runs and is removed at once: nothing kept is ever there (docs/decisions/030).
 */
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { DbOrTx } from "../../../db/client.server";
import { openFile, type FileSource, type StoredFile } from "./store.server";

/** The scratch directories' prefix (a test checks that nothing is left under it). */
export const SCRATCH_PREFIX = "fd-scratch-";

export async function withScratchCopy<T>(source: FileSource, ext: string, read: (path: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), SCRATCH_PREFIX));
  try {
    const path = join(dir, `file${ext.replace(/[^.a-z0-9]/gi, "")}`);
    const from = typeof source === "string" || source instanceof Uint8Array ? Readable.from([Buffer.from(source)]) : Readable.from(source);
    await pipeline(from, createWriteStream(path, { mode: 0o600 }));
    return await read(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A stored file as a scratch copy (its checksum checked as it is copied). */
export const withLocalCopy = <T>(db: DbOrTx, file: StoredFile, ext: string, read: (path: string) => Promise<T>): Promise<T> => withScratchCopy(openFile(db, file), ext, read);
