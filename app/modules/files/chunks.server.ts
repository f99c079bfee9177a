/**
 * The database backend (docs/decisions/030, 037): a file's bytes in `file_chunks`, CHUNK_BYTES a
 * row, so no file sits whole in memory; the rows go with the file's row (on delete cascade) and
 * its transaction. On PostgreSQL outside a transaction they are written and read by binary COPY,
 * streamed both ways on a connection of their own (postgres.js would send and read every bytea
 * as hex text: twice the bytes, coded both ways; bench/files.ts). Inside a transaction (a PDF with
 * its invoice), and on PGlite, which takes no COPY from a client: a few chunks per statement.
 */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { and, asc, eq, gte, lt, sql } from "drizzle-orm";
import { BINARY_COPY_HEADER, BINARY_COPY_TRAILER, binaryCopyTuples, reserveCopyConnection, type CopyClient } from "../../../db/copy.server";
import { fileChunks } from "../../../db/schema";
import { rowsOf } from "../../utils/sql-rows";
import { isUuid, type ContentBackend, type FileBytes } from "./backend.server";

/** Big enough that a 10 MB file is 20 round trips, small enough that a chunk is nothing in memory. */
export const CHUNK_BYTES = 512 * 1024;
/** Without COPY (PGlite): chunks fetched and inserted per statement, 2 MB in memory at most, a quarter of the round trips. */
export const CHUNKS_PER_STATEMENT = 4;

/** `bytes` cut into chunks of CHUNK_BYTES (the last may be shorter), whatever sizes they come in. */
async function* chunked(bytes: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let held: Buffer[] = [];
  let heldBytes = 0;
  for await (const piece of bytes) {
    held.push(piece);
    heldBytes += piece.length;
    while (heldBytes >= CHUNK_BYTES) {
      const joined = held.length === 1 ? held[0]! : Buffer.concat(held);
      // a copy: the source may reuse its buffer once it is asked for the next piece
      yield Buffer.from(joined.subarray(0, CHUNK_BYTES));
      const rest = joined.subarray(CHUNK_BYTES);
      held = rest.length ? [rest] : [];
      heldBytes = rest.length;
    }
  }
  if (heldBytes) yield held.length === 1 ? Buffer.from(held[0]!) : Buffer.concat(held);
}

const uuidOf = (id: string) => {
  if (!isUuid(id)) throw new Error(`not a file id: ${id}`);
  return id;
};

/** The binary COPY of file `id`'s chunks: per chunk a tuple (file_id uuid, seq int4, bytes bytea). */
async function* copyTuples(id: string, chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const uuid = Buffer.from(uuidOf(id).replaceAll("-", ""), "hex");
  yield BINARY_COPY_HEADER;
  let seq = 0;
  for await (const chunk of chunks) {
    const head = Buffer.alloc(2 + 4 + 16 + 4 + 4 + 4);
    head.writeInt16BE(3, 0);
    head.writeInt32BE(16, 2);
    uuid.copy(head, 6);
    head.writeInt32BE(4, 22);
    head.writeInt32BE(seq++, 26);
    head.writeInt32BE(chunk.length, 30);
    yield head;
    yield chunk;
  }
  yield BINARY_COPY_TRAILER;
}

/** A refused file ends the COPY with CopyFail: nothing of it is kept. */
async function copyIn(client: CopyClient, file: FileBytes, bytes: AsyncIterable<Buffer>): Promise<void> {
  const into = await client.unsafe("copy file_chunks (file_id, seq, bytes) from stdin (format binary)").writable();
  // bytes, not objects: the source is read a chunk ahead of the socket at most
  await pipeline(Readable.from(copyTuples(file.id, chunked(bytes)), { objectMode: false, highWaterMark: 1 }), into);
}

/**
 * File `id`'s chunks in order by binary COPY TO STDOUT, read as they are consumed. The stream is
 * read to its end for a reader that stops early too: postgres.js pauses the connection while a
 * piece waits to be read, so a COPY left unread would hold it (and see patches/postgres+*.patch).
 */
async function* copyOut(client: CopyClient, file: FileBytes): AsyncGenerator<Buffer> {
  const out = await client.unsafe(`copy (select seq, bytes from file_chunks where file_id = '${uuidOf(file.id)}' order by seq) to stdout (format binary)`).readable();
  try {
    let seq = 0;
    // destroying postgres.js's stream would leave the connection mid-COPY: never on return
    for await (const [at, bytes] of binaryCopyTuples(out.iterator({ destroyOnReturn: false }))) {
      // a gap means a lost chunk: stop, and the store's size check calls the file damaged
      if (!at || !bytes || at.readInt32BE(0) !== seq++) break;
      yield bytes;
    }
  } finally {
    for await (const rest of out.iterator({ destroyOnReturn: false })) void rest;
  }
}

export const databaseBackend: ContentBackend = {
  async write(db, file, bytes) {
    const own = await reserveCopyConnection(db);
    if (own) {
      try {
        return await copyIn(own, file, bytes);
      } finally {
        own.release();
      }
    }
    let seq = 0;
    let ready: { fileId: string; seq: number; bytes: Buffer }[] = [];
    for await (const chunk of chunked(bytes)) {
      ready.push({ fileId: file.id, seq: seq++, bytes: chunk });
      if (ready.length === CHUNKS_PER_STATEMENT) {
        await db.insert(fileChunks).values(ready);
        ready = [];
      }
    }
    if (ready.length) await db.insert(fileChunks).values(ready);
  },

  async complete(db, file) {
    const [r] = rowsOf<{ n: number; bytes: number | string }>(
      await db.execute(sql`select count(*)::int as n, coalesce(sum(octet_length(bytes)), 0)::bigint as bytes from ${fileChunks} where ${fileChunks.fileId} = ${file.id}`),
    );
    if (!r) return false;
    return Number(r.bytes) === file.size && Number(r.n) === Math.ceil(file.size / CHUNK_BYTES);
  },

  async *read(db, file) {
    const own = await reserveCopyConnection(db);
    if (own) {
      try {
        return yield* copyOut(own, file);
      } finally {
        own.release();
      }
    }
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
