/**
 * PostgreSQL's COPY through the postgres.js handle under a drizzle database or transaction. COPY
 * moves rows without a statement per batch and, in its binary format, bytea without the hex text
 * postgres.js sends and reads for every bytea parameter and value (twice the bytes, coded both
 * ways). PGlite takes no COPY from a client stream: there the handle is null and callers use SQL.
 */
import type { Readable, Writable } from "node:stream";
import type { DbOrTx } from "./client.server";

export type CopyQuery = Promise<Record<string, unknown>[]> & { writable(): Promise<Writable>; readable(): Promise<Readable>; reject(e: unknown): void };
export interface CopyClient {
  unsafe(query: string, params?: unknown[]): CopyQuery;
  /** on the pool's handle only: a connection of its own until released */
  reserve?(): Promise<CopyClient & { release(): void }>;
}

/** The postgres.js handle under `db` (the pool, or the transaction's connection); null on PGlite, which has no `unsafe`. */
export function copyClient(db: DbOrTx): CopyClient | null {
  const client = (db as unknown as { session?: { client?: { unsafe?: unknown } } }).session?.client;
  return client && typeof client.unsafe === "function" ? (client as unknown as CopyClient) : null;
}

/**
 * A pool connection of `db`'s own for a COPY outside any transaction, to release when done:
 * postgres.js would otherwise pipeline other callers' queries onto a busy connection, and one in
 * a COPY refuses them (COPY_IN_PROGRESS). Null on PGlite and inside a transaction, whose
 * statements its caller may interleave with a COPY: those take the plain SQL path.
 */
export async function reserveCopyConnection(db: DbOrTx): Promise<(CopyClient & { release(): void }) | null> {
  const pool = copyClient(db);
  return pool?.reserve ? pool.reserve() : null;
}

/** The binary COPY format's start: signature, flags, no header extension. */
export const BINARY_COPY_HEADER = Buffer.concat([Buffer.from("PGCOPY\n\xff\r\n\0", "latin1"), Buffer.alloc(8)]);
/** Its end: a tuple of -1 fields. */
export const BINARY_COPY_TRAILER = Buffer.from([0xff, 0xff]);

/**
 * The tuples of a binary COPY TO STDOUT as they arrive, each as its fields (null for SQL null).
 * Pieces may split a tuple anywhere; a tuple is copied only when it does span pieces.
 */
export async function* binaryCopyTuples(pieces: AsyncIterator<Buffer>): AsyncGenerator<Array<Buffer | null>> {
  let pending: Buffer = Buffer.alloc(0);
  const need = async (n: number) => {
    while (pending.length < n) {
      const next = await pieces.next();
      if (next.done) throw new Error("the COPY ended inside a tuple");
      pending = pending.length ? Buffer.concat([pending, next.value]) : next.value;
    }
  };
  await need(BINARY_COPY_HEADER.length);
  if (!pending.subarray(0, 11).equals(BINARY_COPY_HEADER.subarray(0, 11))) throw new Error("not a binary COPY");
  const extension = pending.readInt32BE(15);
  await need(19 + extension);
  pending = pending.subarray(19 + extension);
  for (;;) {
    await need(2);
    const count = pending.readInt16BE(0);
    pending = pending.subarray(2);
    if (count === -1) return;
    const fields: Array<Buffer | null> = [];
    for (let i = 0; i < count; i++) {
      await need(4);
      const length = pending.readInt32BE(0);
      if (length === -1) {
        pending = pending.subarray(4);
        fields.push(null);
        continue;
      }
      await need(4 + length);
      fields.push(pending.subarray(4, 4 + length));
      pending = pending.subarray(4 + length);
    }
    yield fields;
  }
}
