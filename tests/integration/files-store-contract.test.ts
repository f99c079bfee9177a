/**
 * The file store's contract (docs/decisions/030, 037), the same cases run against each backend:
 * the database store (chunks in PostgreSQL, or PGlite) and the S3 store against s3rver, an
 * S3-compatible server started inside this test. Then what only S3 has: files written before a
 * switch, a server that cannot be reached, objects left by a rollback or a deletion.
 */
import { createHash, randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { DeleteObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { fileChunks, fileObjectsGone, files } from "../../db/schema";
import type { Db } from "../../db/client.server";
import { chooseFileStore, type FileStoreSettings, type S3Settings } from "../../app/modules/files/backend.server";
import { CHUNK_BYTES, deleteFile, FILE_DAMAGED, FILE_MISSING, FILE_UNAVAILABLE, fileResponse, openFile, putFile, readWholeFile, removeExpiredFiles, requireFile, statFile, type StoredFile } from "../../app/modules/files/index.server";
import { CHUNKS_PER_STATEMENT } from "../../app/modules/files/chunks.server";
import { fileStoreReachable } from "../../app/modules/files/s3.server";
import { createTestDatabase, type TestDatabase } from "../support/database";
import { startS3Server, type S3TestServer } from "../support/s3-server";

let t: TestDatabase;
let db: Db;
let s3: S3TestServer;
let bucket: S3Settings;
let client: S3Client;
beforeAll(async () => {
  [t, s3] = await Promise.all([createTestDatabase(), startS3Server()]);
  db = t.database.db;
  bucket = { bucket: s3.bucket, endpoint: s3.endpoint, region: "us-east-1", accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
  client = new S3Client({ endpoint: s3.endpoint, region: "us-east-1", forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
}, 180_000);
afterAll(async () => {
  chooseFileStore(null);
  client?.destroy();
  await Promise.all([t?.drop(), s3?.close()]);
});

const meta = { kind: "export" as const, name: "a.csv", contentType: "text/csv" };
const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const A_DAY_LATER = () => new Date(Date.now() + 25 * 3_600_000);

/** Pieces of odd sizes, so chunk and part boundaries never line up with what the source yields. */
const PIECE = 70_001;
async function* inPieces(b: Buffer, piece = PIECE) {
  for (let i = 0; i < b.length; i += piece) yield b.subarray(i, i + piece);
}

async function readAll(s: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const p of s) parts.push(p as Buffer);
  return Buffer.concat(parts);
}

const key = (id: string) => `files/${id}`;
async function objectThere(id: string): Promise<boolean> {
  try {
    await client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key(id) }));
    return true;
  } catch {
    return false;
  }
}

/** One backend as the contract sees it: how to choose it, and how to look at its bytes from outside. */
interface Backend {
  name: "db" | "s3";
  settings(): FileStoreSettings;
  /** bytes it has kept so far, all files together */
  stored(): Promise<number>;
  /** whether any of the file's bytes are there */
  present(f: StoredFile): Promise<boolean>;
  /** how many files have bytes there */
  count(): Promise<number>;
  /** some of the file's bytes gone (a lost chunk, a truncated object) */
  damage(f: StoredFile): Promise<void>;
  /** the same length, other bytes */
  change(f: StoredFile, bytes: Buffer): Promise<void>;
  /** how far ahead of what it has kept a writer may pull the source */
  holds: number;
}

const database: Backend = {
  name: "db",
  settings: () => ({ writeTo: "db", s3: null }),
  // with what a COPY writing chunks has handed the server so far (PostgreSQL: nothing shows before it ends)
  async stored() {
    const [r] = await db.select({ n: sql<string>`coalesce(sum(octet_length(bytes)), 0) + coalesce((select sum(bytes_processed) from pg_stat_progress_copy where relid = 'file_chunks'::regclass), 0)` }).from(fileChunks);
    return Number(r!.n);
  },
  present: async (f) => (await db.select({ seq: fileChunks.seq }).from(fileChunks).where(eq(fileChunks.fileId, f.id))).length > 0,
  count: async () => (await db.selectDistinct({ id: fileChunks.fileId }).from(fileChunks)).length,
  damage: async (f) => void (await db.execute(sql`delete from ${fileChunks} where ${fileChunks.fileId} = ${f.id} and ${fileChunks.seq} = (select max(seq) from ${fileChunks} where ${fileChunks.fileId} = ${f.id})`)),
  change: async (f, bytes) => void (await db.update(fileChunks).set({ bytes }).where(eq(fileChunks.fileId, f.id))),
  holds: CHUNK_BYTES * CHUNKS_PER_STATEMENT,
};

const objectStore: Backend = {
  name: "s3",
  settings: () => ({ writeTo: "s3", s3: bucket }),
  stored: async () => s3.received(),
  present: (f) => objectThere(f.id),
  count: async () => (await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: "files/" }))).KeyCount ?? 0,
  damage: async (f) => void (await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key(f.id), Body: randomBytes(Math.floor(f.size / 2)) }))),
  change: async (f, bytes) => void (await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key(f.id), Body: bytes }))),
  // S3's smallest multipart part
  holds: 5 * 1024 * 1024,
};

describe.each([database, objectStore])("the file store on $name", (backend) => {
  beforeEach(() => chooseFileStore(backend.settings()));

  it("stores a stream and reads the same bytes back, with its size, checksum and backend", async () => {
    const bytes = randomBytes(CHUNK_BYTES * 2 + 12_345);
    const f = await putFile(db, meta, inPieces(bytes));
    expect(f).toMatchObject({ size: bytes.length, sha256: sha(bytes), expiresAt: null, storage: backend.name });
    expect(await backend.present(f)).toBe(true);
    expect((await readAll(openFile(db, f))).equals(bytes)).toBe(true);
    expect((await statFile(db, f.id))?.sha256).toBe(sha(bytes));
    // a row read another way (no `storage` in hand) is still read from its backend
    const { storage: _, ...without } = f;
    expect((await readWholeFile(db, without)).equals(bytes)).toBe(true);
  });

  it("stores a buffer, a string and an empty file", async () => {
    const a = await putFile(db, meta, Buffer.from("abc"));
    expect((await readWholeFile(db, a)).toString()).toBe("abc");
    const s = await putFile(db, meta, "héllo");
    expect((await readWholeFile(db, s)).toString("utf8")).toBe("héllo");
    const e = await putFile(db, meta, Buffer.alloc(0));
    expect(e.size).toBe(0);
    expect((await requireFile(db, e.id, "test")).id).toBe(e.id);
    expect((await readWholeFile(db, e)).length).toBe(0);
  });

  it("refuses a file over its limit while it streams and leaves nothing behind", async () => {
    const rows = (await db.select({ id: files.id }).from(files)).length;
    const kept = await backend.count();
    let pulled = 0;
    async function* endless() {
      for (;;) {
        pulled += 1;
        yield randomBytes(100_000);
      }
    }
    await expect(putFile(db, { ...meta, maxBytes: 1_000_000, tooLarge: "Too big." }, endless())).rejects.toThrow("Too big.");
    // refused at the first piece over the limit, not after reading everything
    expect(pulled).toBe(11);
    expect((await db.select({ id: files.id }).from(files)).length).toBe(rows);
    expect(await backend.count()).toBe(kept);
    expect(await db.select().from(fileObjectsGone)).toEqual([]);
  });

  it("streams a 10 MB file both ways: never more than a chunk or part ahead of what is kept", async () => {
    const bytes = randomBytes(10 * 1024 * 1024 + 3);
    const before = await backend.stored();
    let pulled = 0;
    let furthest = 0;
    /**
     * What the backend has kept once what the writer sent has arrived. Bytes on their way (the
     * loopback socket's buffers, megabytes of them) are the connection's, not the writer's: read
     * at once, a busy server that had not yet read them made a streaming writer look 3 MB ahead
     * (CI, 2026-11-30). The writer waits for this piece meanwhile, so what stays unsent is what it
     * holds; a writer holding the whole file would still be 10 MB ahead.
     */
    async function settled() {
      let last = await backend.stored();
      for (let tries = 0; tries < 50; tries++) {
        await sleep(5);
        const now = await backend.stored();
        if (now === last) return now;
        last = now;
      }
      return last;
    }
    async function* watched() {
      for await (const piece of inPieces(bytes)) {
        furthest = Math.max(furthest, pulled - ((await settled()) - before));
        pulled += piece.length;
        yield piece;
      }
    }
    const f = await putFile(db, meta, watched());
    expect(furthest).toBeGreaterThan(0);
    // what the backend holds, and the source's one piece in hand besides
    expect(furthest).toBeLessThanOrEqual(backend.holds + PIECE);
    const hash = createHash("sha256");
    let size = 0;
    let largest = 0;
    for await (const piece of openFile(db, f)) {
      hash.update(piece as Buffer);
      size += (piece as Buffer).length;
      largest = Math.max(largest, (piece as Buffer).length);
    }
    expect(size).toBe(bytes.length);
    expect(hash.digest("hex")).toBe(sha(bytes));
    expect(largest).toBeLessThanOrEqual(backend.holds);
    // PGlite under load took 99 s here
  }, 300_000);

  it("a file written in a transaction that fails is not there, and none of its bytes a day later", async () => {
    let file: StoredFile | undefined;
    await expect(
      db.transaction(async (tx) => {
        file = await putFile(tx, meta, randomBytes(CHUNK_BYTES + 1));
        throw new Error("the row failed");
      }),
    ).rejects.toThrow("the row failed");
    expect(file).toBeDefined();
    expect(await statFile(db, file!.id)).toBeNull();
    // the object is written before its row commits: the rollback leaves it, the nightly sweep takes it
    expect(await backend.present(file!)).toBe(backend.name === "s3");
    await removeExpiredFiles(db, A_DAY_LATER());
    expect(await backend.present(file!)).toBe(false);
  });

  it("deletes a file with its bytes", async () => {
    const f = await putFile(db, meta, randomBytes(1000));
    await deleteFile(db, f.id);
    expect(await statFile(db, f.id)).toBeNull();
    expect(await backend.present(f)).toBe(false);
    expect(await db.select().from(fileObjectsGone)).toEqual([]);
    // not a file id at all: nothing happens, nothing is found
    await deleteFile(db, "../etc/passwd");
    expect(await statFile(db, "../etc/passwd")).toBeNull();
  });

  it("a delete in a transaction that rolls back leaves the file whole; one that commits, none of its bytes after the cleanup", async () => {
    const bytes = randomBytes(2000);
    const f = await putFile(db, meta, bytes);
    await expect(
      db.transaction(async (tx) => {
        await deleteFile(tx, f.id);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect((await readWholeFile(db, (await requireFile(db, f.id, "test")))).equals(bytes)).toBe(true);
    await db.transaction((tx) => deleteFile(tx, f.id));
    expect(await statFile(db, f.id)).toBeNull();
    await removeExpiredFiles(db, new Date());
    expect(await backend.present(f)).toBe(false);
    expect(await db.select().from(fileObjectsGone)).toEqual([]);
  });

  it("a download answers the type, length and a safe name, and streams the bytes", async () => {
    const bytes = randomBytes(CHUNK_BYTES + 5);
    const f = await putFile(db, { ...meta, name: 'bad"name\r\n.csv' }, bytes);
    const res = fileResponse(db, f);
    expect(res.headers.get("content-type")).toBe("text/csv");
    expect(res.headers.get("content-length")).toBe(String(bytes.length));
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="bad_name__.csv"');
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it("a missing file is a 404 and a damaged one a 409, each with a clear message, logged", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await expect(requireFile(db, "00000000-0000-4000-8000-000000000000", "test")).rejects.toMatchObject({ status: 404, message: FILE_MISSING });
      await expect(requireFile(db, null, "test")).rejects.toMatchObject({ status: 404 });
      const f = await putFile(db, meta, randomBytes(CHUNK_BYTES * 2));
      await backend.damage(f);
      await expect(requireFile(db, f.id, "invoice 7")).rejects.toMatchObject({ status: 409, message: FILE_DAMAGED });
      expect(logged.mock.calls.flat().join(" ")).toContain(`invoice 7: file ${f.id} is damaged`);
      // bytes changed in place: the length adds up, the checksum read as it streams does not
      const g = await putFile(db, meta, randomBytes(1000));
      await backend.change(g, randomBytes(1000));
      expect((await requireFile(db, g.id, "test")).id).toBe(g.id);
      await expect(readAll(openFile(db, g))).rejects.toThrow(FILE_DAMAGED);
    } finally {
      logged.mockRestore();
    }
  });

  it("the cleanup removes expired files only, with their bytes", async () => {
    const now = new Date();
    const old = await putFile(db, { ...meta, expiresAt: new Date(now.getTime() - 1000) }, randomBytes(10));
    const live = await putFile(db, { ...meta, expiresAt: new Date(now.getTime() + 60_000) }, randomBytes(10));
    const kept = await putFile(db, meta, randomBytes(10));
    expect(await removeExpiredFiles(db, now)).toBeGreaterThanOrEqual(1);
    expect(await statFile(db, old.id)).toBeNull();
    expect(await backend.present(old)).toBe(false);
    expect(await statFile(db, live.id)).not.toBeNull();
    expect(await backend.present(live)).toBe(true);
    expect(await backend.present(kept)).toBe(true);
  });
});

describe("the S3 store besides the contract", () => {
  it("files written before a switch of FILE_STORE stay readable, either way", async () => {
    chooseFileStore(database.settings());
    const inDb = await putFile(db, meta, "kept in the database");
    chooseFileStore(objectStore.settings());
    const inS3 = await putFile(db, meta, "kept in S3");
    expect([inDb.storage, inS3.storage]).toEqual(["db", "s3"]);
    expect((await readWholeFile(db, (await requireFile(db, inDb.id, "test")))).toString()).toBe("kept in the database");
    // back to the database, the bucket still configured: S3's files are read from S3
    chooseFileStore({ writeTo: "db", s3: bucket });
    expect((await readWholeFile(db, (await requireFile(db, inS3.id, "test")))).toString()).toBe("kept in S3");
  });

  it("a server that cannot be reached answers 409 with a clear message, logged, and a deletion waits for it", async () => {
    chooseFileStore(objectStore.settings());
    const bytes = randomBytes(3000);
    const f = await putFile(db, meta, bytes);
    const g = await putFile(db, meta, randomBytes(10));
    // the same bucket at an address where nothing listens (port 9 is discard, never served here)
    chooseFileStore({ writeTo: "s3", s3: { ...bucket, endpoint: "http://127.0.0.1:9" } });
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await expect(requireFile(db, f.id, "invoice 9")).rejects.toMatchObject({ status: 409, message: FILE_UNAVAILABLE });
      expect(logged.mock.calls.flat().join(" ")).toContain(`invoice 9: file ${f.id} cannot be read`);
      expect(logged.mock.calls.flat().join(" ")).toContain(`S3 look-up of files/${f.id} failed`);
      await expect(readAll(openFile(db, f))).rejects.toMatchObject({ status: 409, message: FILE_UNAVAILABLE });
      const rows = (await db.select({ id: files.id }).from(files)).length;
      await expect(putFile(db, meta, randomBytes(100))).rejects.toMatchObject({ status: 409, message: FILE_UNAVAILABLE });
      expect((await db.select({ id: files.id }).from(files)).length).toBe(rows);
      // the row goes; the object waits on the list for a sweep that can reach the server
      await deleteFile(db, g.id);
      expect(await statFile(db, g.id)).toBeNull();
      await expect(removeExpiredFiles(db, new Date())).resolves.toBeGreaterThanOrEqual(0);
      expect((await db.select().from(fileObjectsGone)).map((r) => r.fileId)).toContain(g.id);
      expect(await objectThere(g.id)).toBe(true);
      // and GET /readyz calls the process not ready
      expect(await fileStoreReachable()).toBe("unreachable");
      chooseFileStore({ writeTo: "s3", s3: { ...bucket, bucket: "no-such-bucket" } });
      expect(await fileStoreReachable()).toBe("unreachable");
    } finally {
      logged.mockRestore();
    }
    // reachable again: ready, the file reads whole, and the next cleanup deletes the waiting object
    chooseFileStore(objectStore.settings());
    expect(await fileStoreReachable()).toBe("ok");
    expect((await readWholeFile(db, (await requireFile(db, f.id, "test")))).equals(bytes)).toBe(true);
    await removeExpiredFiles(db, new Date());
    expect(await objectThere(g.id)).toBe(false);
    expect(await db.select().from(fileObjectsGone)).toEqual([]);
  }, 60_000);

  it("a file in S3 with no bucket configured any more is a 409, logged", async () => {
    chooseFileStore(objectStore.settings());
    const f = await putFile(db, meta, "x");
    chooseFileStore({ writeTo: "db", s3: null });
    // nothing to ask a readiness check about
    expect(await fileStoreReachable()).toBe("database");
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await expect(requireFile(db, f.id, "test")).rejects.toMatchObject({ status: 409, message: FILE_UNAVAILABLE });
      expect(logged.mock.calls.flat().join(" ")).toContain("no bucket is configured (FILE_STORE_S3_BUCKET)");
    } finally {
      logged.mockRestore();
    }
  });

  it("the nightly sweep leaves alone objects that are not this store's, and recent ones without a row", async () => {
    chooseFileStore(objectStore.settings());
    await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: "files/not-a-file-id", Body: "x" }));
    await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: "elsewhere/00000000-0000-4000-8000-000000000001", Body: "x" }));
    // written moments ago for a row not yet committed, as far as the sweep can tell
    const young = "00000000-0000-4000-8000-000000000002";
    await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key(young), Body: "x" }));
    await removeExpiredFiles(db, new Date());
    expect(await objectThere(young)).toBe(true);
    await removeExpiredFiles(db, A_DAY_LATER());
    expect(await objectThere(young)).toBe(false);
    const head = (k: string) => client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: k }));
    await expect(head("files/not-a-file-id")).resolves.toBeDefined();
    await expect(head("elsewhere/00000000-0000-4000-8000-000000000001")).resolves.toBeDefined();
    await client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: "files/not-a-file-id" }));
  });
});
