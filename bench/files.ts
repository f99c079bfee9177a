/**
 * File store benchmark (issue 30): a 10 MB file (a large carrier invoice) stored in the database
 * store and read back, through putFile and openFile as the app uses them (64 KB pieces in, the
 * checksum taken and checked), on a database of its own. Beside it, the floors: the same bytes as
 * the same 512 KB chunks by a plain binary COPY into a table of bytea and back out (PostgreSQL;
 * PGlite has no COPY from a client stream: one INSERT per chunk and one SELECT of them), and a
 * file-system write (fsynced) and read in the OS temporary directory. Target: stored and read back
 * at 50 MB/s or more on PostgreSQL. Median of BENCH_FILES_RUNS runs (default 3).
 * `filesSection` answers the lines of docs/performance.md; alone:
 * `DATABASE_URL=... npx tsx bench/files.ts` (or `npx tsx bench/section.ts files`).
 */
import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import type { Db } from "../db/client.server";
import { BINARY_COPY_HEADER, BINARY_COPY_TRAILER } from "../db/copy.server";
import { chooseFileStore } from "../app/modules/files/backend.server";
import { CHUNK_BYTES, deleteFile, openFile, putFile, statFile } from "../app/modules/files/index.server";
import { createTestDatabase } from "../tests/support/database";

const SIZE = 10 * 1024 * 1024;
const RUNS = Number(process.env.BENCH_FILES_RUNS ?? 3);
const TARGET_MBS = 50;

interface Timing {
  writeMs: number;
  readMs: number;
}
interface FilesRun {
  engine: "PostgreSQL" | "PGlite";
  store: Timing;
  floor: Timing;
  disk: Timing;
}

async function* inPieces(b: Buffer, piece = 64 * 1024) {
  for (let i = 0; i < b.length; i += piece) yield b.subarray(i, i + piece);
}

async function drain(s: AsyncIterable<unknown>): Promise<number> {
  let n = 0;
  for await (const p of s) n += (p as Buffer).length;
  return n;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function storeOnce(db: Db, bytes: Buffer): Promise<Timing> {
  let id = "";
  const writeMs = await timed(async () => (id = (await putFile(db, { kind: "carrier_invoice", name: "bench.csv", contentType: "text/csv" }, inPieces(bytes))).id));
  const f = (await statFile(db, id))!;
  const readMs = await timed(async () => {
    if ((await drain(openFile(db, f))) !== bytes.length) throw new Error("read back short");
  });
  await deleteFile(db, id);
  return { writeMs, readMs };
}

/** PostgreSQL's COPY in binary: the 19-byte header, then per chunk (seq int4, bytes bytea), then the trailer. */
function* copyRows(bytes: Buffer): Generator<Buffer> {
  yield BINARY_COPY_HEADER;
  for (let seq = 0, at = 0; at < bytes.length; seq++, at += CHUNK_BYTES) {
    const chunk = bytes.subarray(at, at + CHUNK_BYTES);
    const head = Buffer.alloc(2 + 4 + 4 + 4);
    head.writeInt16BE(2, 0);
    head.writeInt32BE(4, 2);
    head.writeInt32BE(seq, 6);
    head.writeInt32BE(chunk.length, 10);
    yield head;
    yield chunk;
  }
  yield BINARY_COPY_TRAILER;
}

async function floorOnce(db: Db, url: string | undefined, bytes: Buffer): Promise<Timing> {
  await db.execute(sql`create table if not exists bench_file_floor (seq int primary key, bytes bytea not null)`);
  await db.execute(sql`alter table bench_file_floor alter column bytes set storage external`);
  await db.execute(sql`truncate bench_file_floor`);
  if (url) {
    const client = postgres(url, { max: 1, onnotice: () => {} });
    try {
      // connected before the clock starts, as the store's pool is
      await client`select 1`;
      const writeMs = await timed(() => client.begin(async (tx) => pipeline(Readable.from(copyRows(bytes)), (await tx.unsafe("copy bench_file_floor (seq, bytes) from stdin (format binary)").writable()) as Writable)));
      const readMs = await timed(async () => drain((await client.unsafe("copy (select bytes from bench_file_floor order by seq) to stdout (format binary)").readable()) as AsyncIterable<Buffer>));
      return { writeMs, readMs };
    } finally {
      await client.end();
    }
  }
  const writeMs = await timed(() =>
    db.transaction(async (tx) => {
      for (let seq = 0, at = 0; at < bytes.length; seq++, at += CHUNK_BYTES) await tx.execute(sql`insert into bench_file_floor (seq, bytes) values (${seq}, ${bytes.subarray(at, at + CHUNK_BYTES)})`);
    }),
  );
  const readMs = await timed(() => db.execute(sql`select bytes from bench_file_floor order by seq`));
  return { writeMs, readMs };
}

async function diskOnce(bytes: Buffer): Promise<Timing> {
  const file = path.join(os.tmpdir(), `fd-bench-file-${process.pid}`);
  try {
    const writeMs = await timed(async () => {
      await pipeline(Readable.from(inPieces(bytes)), createWriteStream(file));
      const h = await open(file, "r+");
      await h.sync();
      await h.close();
    });
    const readMs = await timed(() => drain(createReadStream(file)));
    return { writeMs, readMs };
  } finally {
    rmSync(file, { force: true });
  }
}

const median = (runs: Timing[]): Timing => {
  const sorted = [...runs].sort((a, b) => a.writeMs + a.readMs - (b.writeMs + b.readMs));
  return sorted[Math.floor(sorted.length / 2)]!;
};

export async function benchFiles(): Promise<FilesRun> {
  const t = await createTestDatabase();
  chooseFileStore({ writeTo: "db", s3: null });
  try {
    const db = t.database.db;
    const bytes = randomBytes(SIZE);
    const store: Timing[] = [];
    const floor: Timing[] = [];
    const disk: Timing[] = [];
    for (let i = 0; i < RUNS; i++) {
      store.push(await storeOnce(db, bytes));
      floor.push(await floorOnce(db, t.database.url, bytes));
      disk.push(await diskOnce(bytes));
    }
    return { engine: t.database.url ? "PostgreSQL" : "PGlite", store: median(store), floor: median(floor), disk: median(disk) };
  } finally {
    chooseFileStore(null);
    await t.drop();
  }
}

const mbs = (ms: number) => SIZE / 2 ** 20 / (ms / 1000);
const row = (what: string, r: Timing) => `| ${what} | ${mbs(r.writeMs).toFixed(0)} MB/s (${r.writeMs.toFixed(0)} ms) | ${mbs(r.readMs).toFixed(0)} MB/s (${r.readMs.toFixed(0)} ms) | ${mbs(r.writeMs + r.readMs).toFixed(0)} MB/s |`;

export function filesLines(r: FilesRun): string[] {
  return [
    `On ${r.engine}, median of ${RUNS} runs of a 10 MB file:`,
    "",
    "| what | write | read | stored and read back |",
    "| --- | ---: | ---: | ---: |",
    row(`file store (putFile, openFile: 512 KB chunks, checksum both ways${r.engine === "PostgreSQL" ? ", binary COPY" : ""})`, r.store),
    row(r.engine === "PostgreSQL" ? "floor: binary COPY of the same chunks in and out" : "floor: one INSERT per chunk, one SELECT of them (no COPY in PGlite)", r.floor),
    row("file system: write and fsync, read (OS temporary directory)", r.disk),
  ];
}

export async function filesSection(): Promise<string[]> {
  const run = await benchFiles();
  return [
    "## Files: the database file store",
    "",
    `Target (issue 30): a 10 MB carrier invoice stored and read back at ${TARGET_MBS} MB/s or more on PostgreSQL ("stored and read back": its size over the write and read times together). Measured by \`bench/files.ts\` through the store's own functions on a database of its own; the S3 store is not measured (the test's S3 server, s3rver, is no measure of S3).`,
    "",
    ...filesLines(run),
    "",
    `- 10 MB stored and read back at ${TARGET_MBS} MB/s or more: ${mbs(run.store.writeMs + run.store.readMs).toFixed(0)} MB/s, ${mbs(run.store.writeMs + run.store.readMs) >= TARGET_MBS ? "met" : "NOT met"}; the floor, a plain binary COPY of the same bytes in and out, ${mbs(run.floor.writeMs + run.floor.readMs).toFixed(0)} MB/s.`,
    "- What bounds both the store and its floor is PostgreSQL's write of the bytes (TOAST cuts each 512 KB chunk into 2 KB rows, each indexed and WAL-logged); the read is a small part. The store's time over the floor's is the SHA-256 checksum taken both ways, the file's row and its transaction.",
    "- The floor moves with the machine's load: on 2026-11-29 at about 14:00 UTC, with the machine busier, the same bench measured the floor at 35 to 37 MB/s and the store at 37 to 44 MB/s, under the target; on a quiet machine (16:10 UTC) the floor was 80 to 105 MB/s and the store 63 to 64 MB/s. The target holds wherever PostgreSQL takes a 10 MB COPY in about 120 ms or less.",
    "- Before 2026-11-29 the store sent and read each chunk as a bytea parameter and value, which postgres.js codes as hex text: 16 to 20 MB/s (write 340 to 470 ms, read 166 ms). Binary COPY on a connection of its own took it to the floor.",
    "",
  ];
}

// alone
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`${new Date().toISOString()} on ${os.cpus().length} x ${os.cpus()[0]?.model}, Node ${process.version}`);
  console.log(filesLines(await benchFiles()).join("\n"));
  process.exit(0);
}
