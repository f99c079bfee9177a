/**
 * The database file store's own layout (docs/decisions/030); what every backend does is in
 * files-store-contract.test.ts. The default store must not load the AWS SDK: it is mocked here to
 * fail the test if anything imports it.
 */
import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { fileChunks } from "../../db/schema";
import type { Db } from "../../db/client.server";
import { chooseFileStore } from "../../app/modules/files/backend.server";
import { CHUNK_BYTES, deleteFile, putFile, readWholeFile, removeExpiredFiles, requireFile } from "../../app/modules/files/index.server";
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

  it("unset FILE_STORE writes, reads, deletes and cleans up without loading the AWS SDK", async () => {
    const f = await putFile(db, { ...meta, expiresAt: new Date(Date.now() - 1000) }, randomBytes(1000));
    expect((await readWholeFile(db, await requireFile(db, f.id, "test"))).length).toBe(1000);
    await removeExpiredFiles(db, new Date());
    const g = await putFile(db, meta, "x");
    await deleteFile(db, g.id);
    expect(sdkLoaded.by).toEqual([]);
  });
});
