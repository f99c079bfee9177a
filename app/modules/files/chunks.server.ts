/**
 * The database backend (docs/decisions/030, 037): a file's bytes in `file_chunks`, CHUNK_BYTES a
 * row, written and read a few chunks per statement so no file sits whole in memory. The same code runs on
 * PostgreSQL and PGlite; the rows go with the file's row (on delete cascade) and its transaction.
 */
import { and, asc, eq, gte, lt, sql } from "drizzle-orm";
import { fileChunks } from "../../../db/schema";
import { rowsOf } from "../../utils/sql-rows";
import type { ContentBackend } from "./backend.server";

/** Big enough that a 10 MB file is 20 round trips, small enough that a chunk is nothing in memory. */
export const CHUNK_BYTES = 512 * 1024;
/** Chunks fetched and inserted per statement: 2 MB in memory at most, a quarter of the round trips. */
export const CHUNKS_PER_STATEMENT = 4;

export const databaseBackend: ContentBackend = {
  async write(db, file, bytes) {
    let seq = 0;
    let held: Buffer[] = [];
    let heldBytes = 0;
    let ready: { fileId: string; seq: number; bytes: Buffer }[] = [];
    const insert = async () => {
      if (ready.length) await db.insert(fileChunks).values(ready);
      ready = [];
    };
    const flush = async (all: boolean) => {
      while (heldBytes >= CHUNK_BYTES || (all && heldBytes > 0)) {
        const joined = held.length === 1 ? held[0]! : Buffer.concat(held);
        const chunk = joined.subarray(0, CHUNK_BYTES);
        const rest = joined.subarray(chunk.length);
        held = rest.length ? [rest] : [];
        heldBytes = rest.length;
        ready.push({ fileId: file.id, seq: seq++, bytes: Buffer.from(chunk) });
        if (ready.length === CHUNKS_PER_STATEMENT) await insert();
      }
      if (all) await insert();
    };
    for await (const piece of bytes) {
      held.push(piece);
      heldBytes += piece.length;
      if (heldBytes >= CHUNK_BYTES) await flush(false);
    }
    await flush(true);
  },

  async complete(db, file) {
    const [r] = rowsOf<{ n: number; bytes: number | string }>(
      await db.execute(sql`select count(*)::int as n, coalesce(sum(octet_length(bytes)), 0)::bigint as bytes from ${fileChunks} where ${fileChunks.fileId} = ${file.id}`),
    );
    if (!r) return false;
    return Number(r.bytes) === file.size && Number(r.n) === Math.ceil(file.size / CHUNK_BYTES);
  },

  async *read(db, file) {
    let size = 0;
    for (let seq = 0; size < file.size; seq += CHUNKS_PER_STATEMENT) {
      const rows = await db
        .select({ seq: fileChunks.seq, bytes: fileChunks.bytes })
        .from(fileChunks)
        .where(and(eq(fileChunks.fileId, file.id), gte(fileChunks.seq, seq), lt(fileChunks.seq, seq + CHUNKS_PER_STATEMENT)))
        .orderBy(asc(fileChunks.seq));
      for (const [i, c] of rows.entries()) {
        // a gap means a lost chunk: stop, and the store's size check calls the file damaged
        if (c.seq !== seq + i) return;
        const bytes = Buffer.from(c.bytes);
        size += bytes.length;
        yield bytes;
      }
      if (rows.length < CHUNKS_PER_STATEMENT) return;
    }
  },
};
