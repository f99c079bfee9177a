/**
 * The database file store's own layout (docs/decisions/030); what every backend does is in
 * files-store-contract.test.ts. The default store must not load the AWS SDK: it is mocked here to
 * fail the test if anything imports it.
 * @engines: PostgreSQL and PGlite in CI, because the two take different paths: binary COPY on
 * PostgreSQL, a few chunks per statement on PGlite.
 */
import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { fileChunks } from "../../db/schema";
import type { Db } from "../../db/client.server";
import { chooseFileStore } from "../../app/modules/files/backend.server";
import { CHUNK_BYTES, deleteFile, openFile, putFile, readWholeFile, removeExpiredFiles, requireFile } from "../../app/modules/files/index.server";
import { rowsOf } from "../../app/utils/sql-rows";
import { createTestDatabase, type TestDatabase } from "../support/database";

const sdkLoaded = vi.hoisted(() => ({ by: [] as string[] }));
vi.mock("@aws-sdk/client-s3", () => {
  sdkLoaded.by.push("@aws-sdk/client-s3");
  throw new Error("the default file store loaded the AWS SDK");
});
vi.mock("@aws-sdk/lib-storage", () => {
  sdkLoaded.by.push("@aws-sdk/lib-storage");
  throw new Error("the default file store loaded the AWS SDK");
});

let t: TestDatabase;
let db: Db;
beforeAll(async () => {
  t = await createTestDatabase();
  db = t.database.db;
  // as a server without FILE_STORE: from the environment
  delete process.env.FILE_STORE;
  delete process.env.FILE_STORE_S3_BUCKET;
  chooseFileStore(null);
}, 180_000);
afterAll(() => t.drop());

const meta = { kind: "export" as const, name: "a.csv", contentType: "text/csv" };

async function* inPieces(b: Buffer, piece = 70_001) {
  for (let i = 0; i < b.length; i += piece) yield b.subarray(i, i + piece);
}

describe("database file store", () => {
  it("keeps the bytes in chunks of CHUNK_BYTES, whatever sizes the source yields", async () => {
    const bytes = randomBytes(CHUNK_BYTES * 2 + 12_345);
    const f = await putFile(db, meta, inPieces(bytes));
    expect(f.storage).toBe("db");
    const chunks = await db.select({ seq: fileChunks.seq, n: sql<number>`octet_length(bytes)` }).from(fileChunks).where(eq(fileChunks.fileId, f.id)).orderBy(fileChunks.seq);
    expect(chunks.map((c) => Number(c.n))).toEqual([CHUNK_BYTES, CHUNK_BYTES, 12_345]);
  });

  it("reads back a file spanning several batches of chunks byte for byte, and calls one with a lost middle chunk damaged", async () => {
    const bytes = randomBytes(CHUNK_BYTES * 9 + 7);
    const f = await putFile(db, meta, inPieces(bytes, 300_000));
    expect((await readWholeFile(db, await requireFile(db, f.id, "test"))).equals(bytes)).toBe(true);
    await db.execute(sql`delete from ${fileChunks} where ${fileChunks.fileId} = ${f.id} and ${fileChunks.seq} = 5`);
    // read past the completeness check that requireFile makes: the stream itself ends damaged
    await expect(readWholeFile(db, f)).rejects.toMatchObject({ status: 409 });
  });

  it("a file refused inside a transaction leaves nothing of itself and the transaction going on", async () => {
    const kept = await db.transaction(async (tx) => {
      await expect(putFile(tx, { ...meta, maxBytes: CHUNK_BYTES + 10, tooLarge: "Too big." }, inPieces(randomBytes(CHUNK_BYTES * 3)))).rejects.toThrow("Too big.");
      // the refusal ended its COPY (PostgreSQL) within a savepoint: the transaction still works
      return putFile(tx, meta, "kept");
    });
    expect((await readWholeFile(db, kept)).toString()).toBe("kept");
    expect(rowsOf(await db.execute(sql`select 1 from ${fileChunks} c where not exists (select 1 from files f where f.id = c.file_id)`))).toHaveLength(0);
  });

  it("readers that stop after the first chunk give their connections back, more of them than the pool holds", async () => {
    const bytes = randomBytes(CHUNK_BYTES * 4);
    const f = await putFile(db, meta, bytes);
    // the pool has 10 connections: a reader that kept its own (a COPY left unread) would stop the 11th
    for (let i = 0; i < 12; i++) {
      for await (const piece of openFile(db, f)) {
        expect((piece as Buffer).equals(bytes.subarray(0, CHUNK_BYTES))).toBe(true);
        break;
      }
    }
    await Promise.all(Array.from({ length: 10 }, () => db.execute(sql`select pg_sleep(0.01)`)));
    expect((await readWholeFile(db, f)).equals(bytes)).toBe(true);
  });

  it("a reader that stops after the first chunk inside a transaction leaves it free for the next statement", async () => {
    const bytes = randomBytes(CHUNK_BYTES * 6);
    const f = await putFile(db, meta, bytes);
    // in one transaction, so the next statement must use the very connection the read used
    const after = await db.transaction(async (tx) => {
      for await (const piece of openFile(tx, f)) {
        expect((piece as Buffer).equals(bytes.subarray(0, CHUNK_BYTES))).toBe(true);
        break;
      }
      return tx.execute(sql`select count(*)::int as n from ${fileChunks} where ${fileChunks.fileId} = ${f.id}`);
    });
    expect(rowsOf<{ n: number }>(after)[0]?.n).toBe(6);
  });

  it("unset FILE_STORE writes, reads, deletes and cleans up without loading the AWS SDK", async () => {
    const f = await putFile(db, { ...meta, expiresAt: new Date(Date.now() - 1000) }, randomBytes(1000));
    expect((await readWholeFile(db, await requireFile(db, f.id, "test"))).length).toBe(1000);
    await removeExpiredFiles(db, new Date());
    const g = await putFile(db, meta, "x");
    await deleteFile(db, g.id);
    expect(sdkLoaded.by).toEqual([]);
  });
});
