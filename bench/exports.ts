/**
 * Export report benchmarks (issue 15 item 4): 100,000 consignments of demo.acme exported through
 * POST /api/exports and the "exports.run" job, run in this process while its RSS is sampled every
 * 50 ms: XLSX under 15 s with RSS growing less than 150 MB; CSV at 50,000 rows a second or more.
 * Each beside its floor: the same rows read by one plain SELECT. `exportsSection` answers the
 * lines of docs/performance.md. Alone: `npx tsx bench/exports.ts` (after `npm run build`), against
 * DATABASE_URL when set, else PGlite; EXPORTS_BENCH_N sets how many consignments (default 100,000).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { and, eq, gte, inArray, lte, sql } from "drizzle-orm";
import { consignments, users } from "../db/schema";
import { createMailer } from "../app/modules/mail/mailer.server";
import { statFile } from "../app/modules/files/index.server";
import { isoToDdmmyyyy } from "../app/modules/exports/criteria";
import { runJob } from "../queues/queue.server";
import { runRecompute } from "../app/modules/emissions/factors.server";
import type { JobName } from "../queues/definitions";
import { rowsOf } from "../app/utils/sql-rows";
import { startTestServer } from "../tests/support/server";
import { fillConsignments } from "./fixtures";
import { prepareBench, type Bench } from "./setup";

/** A worker's heap capped well under the 150 MB the target allows the export. */
const CAPPED = "--max-old-space-size=160 --max-semi-space-size=8";
const N = Number(process.env.EXPORTS_BENCH_N ?? 100_000);
/** fillConsignments spreads the rows over this many days, ending a week from today: inside the 3-month rule. */
const DAYS = 80;

interface Run {
  format: "csv" | "xlsx";
  rows: number;
  wallMs: number;
  rssGrowthMb: number;
  bytes: number;
}


/** One export from the API call to the finished file, the job played in this process; RSS sampled every 50 ms. */
async function runExport(bench: Bench, format: "csv" | "xlsx", range: { from: string; to: string }): Promise<Run> {
  const { server } = bench;
  const deps = { database: server.test.database, mailer: createMailer(server.db, { from: "bench@freightdesk.local" }), renderer: server.renderer, queue: server.queue };
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const started = performance.now();
  try {
    const res = await fetch(`${server.url}/api/exports?format=${format}`, {
      method: "POST",
      headers: { ...bench.headers, "content-type": "application/json" },
      body: JSON.stringify({ site_code: "ALL", from_date: isoToDdmmyyyy(range.from), to_date: isoToDdmmyyyy(range.to) }),
    });
    const { job_id } = (await res.json()) as { job_id: string };
    if (res.status !== 202) throw new Error(`export refused: ${res.status} ${JSON.stringify(job_id)}`);
    const [job] = rowsOf<{ name: string; data: Record<string, unknown> }>((await server.db.execute(sql`select name, data from pgboss.job where data->>'jobId' = ${job_id}`)));
    await runJob(deps, job!.name as JobName, job!.data);
    const status = (await (await fetch(`${server.url}/api/job_status/${job_id}`, { headers: bench.headers })).json()) as { status: string; info: { rows: number; file: string } };
    if (status.status !== "complete") throw new Error(`export ${status.status}`);
    const wallMs = performance.now() - started;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    // the file is in the file store (issue 30): its size is its row's
    return { format, rows: status.info.rows, wallMs, rssGrowthMb: (peak - baseline) / 1024 / 1024, bytes: (await statFile(server.db, status.info.file))!.size };
  } finally {
    clearInterval(sampler);
  }
}

interface WorkerRun {
  baselineMb: number;
  growthMb: number;
  /** from the API call to the job seen complete (asked every 25 ms) */
  wallMs: number;
  /** from the API call to the job first seen working: the queue's pickup */
  pickupMs: number;
  /** from pg-boss handing the job to the worker to its completion, on the database's clock */
  jobMs: number;
}

/**
 * The same export run by `npm run worker` (build/worker.js) in a process of its own, as a
 * deployment runs jobs, sampling that process's RSS alone every 50 ms: the bench's own process
 * holds every earlier section's heap, whose collection moves its RSS by hundreds of megabytes
 * whatever the export does. Needs PostgreSQL (the worker shares the database); null on PGlite.
 */
async function rssInWorker(bench: Bench, format: "csv" | "xlsx", range: { from: string; to: string }, nodeOptions = ""): Promise<WorkerRun | null> {
  const url = bench.server.test.database.url;
  if (!url) return null;
  // queued jobs left by earlier sections (tracking fetches, say) would run in the worker too
  await bench.server.db.execute(sql`delete from pgboss.job where state in ('created', 'retry')`);
  const root = path.resolve(import.meta.dirname, "..");
  const child = spawn(process.execPath, [path.join(root, "build/worker.js")], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url, NODE_ENV: "production", NODE_OPTIONS: nodeOptions, PRINT_WARMUP: "0" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout!.setEncoding("utf8").on("data", (chunk: string) => chunk.includes("processing jobs") && resolve());
      void exited.then((code) => reject(new Error(`build/worker.js exited (${code}) before working`)));
    });
    const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
    await sleep(2000);
    const baseline = rss();
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rss())), 50);
    const started = performance.now();
    let pickupMs: number | undefined;
    let wallMs = 0;
    let jobMs = 0;
    try {
      const res = await fetch(`${bench.server.url}/api/exports?format=${format}`, {
        method: "POST",
        headers: { ...bench.headers, "content-type": "application/json" },
        body: JSON.stringify({ site_code: "ALL", from_date: isoToDdmmyyyy(range.from), to_date: isoToDdmmyyyy(range.to) }),
      });
      const { job_id } = (await res.json()) as { job_id: string };
      for (let waited = 0; ; waited += 25) {
        const { status } = (await (await fetch(`${bench.server.url}/api/job_status/${job_id}`, { headers: bench.headers })).json()) as { status: string };
        if (status !== "queued") pickupMs ??= performance.now() - started;
        if (status === "complete") break;
        if (status === "failed" || waited > 300_000) throw new Error(`worker export ${status}`);
        await sleep(25);
      }
      wallMs = performance.now() - started;
      const [job] = rowsOf<{ ms: number }>(await bench.server.db.execute(sql`select extract(epoch from completed_on - started_on) * 1000 as ms from pgboss.job where data->>'jobId' = ${job_id}`));
      jobMs = Number(job!.ms);
    } finally {
      clearInterval(sampler);
    }
    return { baselineMb: baseline / 2 ** 20, growthMb: (peak - baseline) / 2 ** 20, wallMs, pickupMs: pickupMs!, jobMs };
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}

/** The floor: the same rows and joins read by one SELECT, nothing written. */
async function floor(bench: Bench, siteIds: number[], range: { from: string; to: string }): Promise<{ rows: number; wallMs: number }> {
  const started = performance.now();
  const raw = (await bench.server.db.execute(sql`
    select consignments.*, s.code, sa.name, sa.locality, ra.name, ra.locality, sv.name, ca.name
    from consignments
    left join sites s on s.id = consignments.site_id
    left join addresses sa on sa.id = consignments.sender_address_id
    left join addresses ra on ra.id = consignments.receiver_address_id
    left join services sv on sv.id = consignments.service_id
    left join carriers ca on ca.id = sv.carrier_id
    where ${and(eq(consignments.customerId, bench.demo.acme.id), inArray(consignments.siteId, siteIds), eq(consignments.active, true), eq(consignments.isQuote, false), gte(consignments.despatchDate, range.from), lte(consignments.despatchDate, range.to))}
    order by consignments.despatch_date, consignments.id`));
  return { rows: rowsOf(raw).length, wallMs: performance.now() - started };
}

export async function exportsSection(bench: Bench): Promise<string[]> {
  const { server, demo } = bench;
  const siteIds = [demo.sites.melbourne.id, demo.sites.sydney.id];
  await fillConsignments(server.db, demo.acme.id, siteIds, N, DAYS);
  // the rows' emission figures stored, as a save stores them: else the worker started below
  // queues the upgrade's backfill of all 100,000 as it starts, and the first export measured
  // shares the process with it (its RSS growth read 200 MB against 80 capped, 2026-11-30)
  await runRecompute(server.db, { carrierId: null, missing: true }, async () => {});
  // the bench's despatcher exports (can_export), over the filled days
  await server.db.update(users).set({ canExport: true }).where(eq(users.id, bench.despatcher.id));
  const today = new Date().toISOString().slice(0, 10);
  const day = (offset: number) => new Date(Date.parse(`${today}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
  const range = { from: day(7 - DAYS + 1), to: day(7) };

  const base = await floor(bench, siteIds, range);
  const xlsx = await runExport(bench, "xlsx", range);
  const csv = await runExport(bench, "csv", range);
  const xlsxWorker = await rssInWorker(bench, "xlsx", range);
  const csvWorker = await rssInWorker(bench, "csv", range);
  // the same with the heap capped: if the export held its rows it would fail here, and the growth
  // left is what it really needs (the uncapped worker's is V8 using the headroom it is given)
  const xlsxCapped = await rssInWorker(bench, "xlsx", range, CAPPED);
  const csvCapped = await rssInWorker(bench, "csv", range, CAPPED);
  // the time the worker process took (its export thread bundled, as deployed); the bench's own
  // run plays the job from the sources, whose thread loads them through tsx
  const xlsxMs = xlsxWorker?.wallMs ?? xlsx.wallMs;
  const csvMs = csvWorker?.wallMs ?? csv.wallMs;
  const csvPerSecond = csv.rows / (csvMs / 1000);
  const met = (ok: boolean) => (ok ? "met" : "NOT met");
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  // the target's RSS is the worker process's when there is one (PostgreSQL), else the bench's own
  const xlsxRss = xlsxWorker?.growthMb ?? xlsx.rssGrowthMb;
  const workerCell = (w: WorkerRun | null) => (w ? `${w.growthMb.toFixed(1)} (from ${w.baselineMb.toFixed(0)})` : "-");
  return [
    "## Export report",
    "",
    `Targets (issue 15 item 4): with ${N.toLocaleString("en")} consignments of the benchmark customer (despatcher's two sites, ${DAYS} days), an XLSX export of about that many rows under 15 s with the server's RSS growing less than 150 MB; a CSV export at 50,000 rows a second or more. Each runs through POST /api/exports and the exports.run job. Times and RSS: the export run by \`npm run worker\` (build/worker.js, its export thread bundled) in a process of its own, from the API call to the job seen complete (asked every 25 ms), RSS sampled every 50 ms (PGlite, which has no worker process: the job played in the bench's process). The bench's process, which holds every earlier section's heap, plays it too, shown beside it.`,
    "",
    "| what | rows | wall s | rows/s | worker RSS growth MB | worker, heap capped | bench process RSS growth MB | file MB |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    `| XLSX export (API call, job, file) | ${xlsx.rows.toLocaleString("en")} | ${(xlsxMs / 1000).toFixed(2)} | ${(xlsx.rows / (xlsxMs / 1000)).toFixed(0)} | ${workerCell(xlsxWorker)} | ${workerCell(xlsxCapped)} | ${xlsx.rssGrowthMb.toFixed(1)} | ${mb(xlsx.bytes)} |`,
    `| CSV export (API call, job, file) | ${csv.rows.toLocaleString("en")} | ${(csvMs / 1000).toFixed(2)} | ${csvPerSecond.toFixed(0)} | ${workerCell(csvWorker)} | ${workerCell(csvCapped)} | ${csv.rssGrowthMb.toFixed(1)} | ${mb(csv.bytes)} |`,
    `| floor: the same rows and joins in one SELECT, nothing written | ${base.rows.toLocaleString("en")} | ${(base.wallMs / 1000).toFixed(2)} | ${(base.rows / (base.wallMs / 1000)).toFixed(0)} | - | - | - | - |`,
    "",
    `- XLSX of ${xlsx.rows.toLocaleString("en")} rows under 15 s: ${(xlsxMs / 1000).toFixed(2)} s, ${met(xlsxMs < 15_000)}; RSS growth under 150 MB: ${xlsxRss.toFixed(1)} MB${xlsxWorker ? " (worker process as `npm run worker` runs it)" : ""}, ${met(xlsxRss < 150)}${xlsxCapped ? `; with its heap capped (${CAPPED}) the same export completes growing ${xlsxCapped.growthMb.toFixed(1)} MB` : ""}`,
    `- CSV at 50,000 rows a second or more: ${csvPerSecond.toFixed(0)} rows a second (floor ${(base.rows / (base.wallMs / 1000)).toFixed(0)}), ${met(csvPerSecond >= 50_000)}`,
    ...(csvWorker
      ? [
          `- of the CSV export's ${(csvMs / 1000).toFixed(2)} s, the queue took ${(csvWorker.pickupMs / 1000).toFixed(2)} s to start the job (API call to the job first seen working); the job itself, from pg-boss handing it to the worker to its completion, its thread's start included, took ${(csvWorker.jobMs / 1000).toFixed(2)} s: ${(csv.rows / (csvWorker.jobMs / 1000)).toFixed(0)} rows a second`,
        ]
      : []),
    "",
    "The job reads keyset pages of 1,000 rows (despatch date, id) on consignments_customer_date_idx and",
    "writes each row as it comes: CSV lines go out in 64 KB chunks that wait on the file; exceljs's streaming",
    "writer commits every row without shared strings or styles. Since 2026-11-29 a page is one plain",
    "statement whose columns are named as the export's fields: drizzle's mapping of the same select",
    "(an entity check per cell) was 37% of the CSV export's CPU, and the job alone went from 3.3 s to",
    "1.5 s for 96,000 rows (profiled in process, bench/profile-summary.ts). Since the same day a queued",
    "job wakes its worker by a notification (decision 045; it waited up to a second for the next poll),",
    "and the export's thread starts in about 0.3 s instead of 1.15 s (its own bundle: Node resolving",
    "drizzle-orm's ES module files took 640 ms of it; exceljs only for XLSX). What is left is the read",
    "itself: profiled warm in process, a quarter of the job is waiting for the next page and a fifth",
    "is collecting the rows' garbage; in the thread the code also starts cold.",
    "",
    "The bench's rows now have their emission figures stored before the worker starts (2026-11-30).",
    "Without them the worker queued the upgrade's emissions backfill of all 100,000 as it started, and",
    "the first export measured shared its process and cores with it: the XLSX export read 5.5 to 6.3 s",
    "and an RSS growth of 199 to 210 MB (NOT met) against 80 MB capped, in three runs on a quiet",
    "machine. The CSV figure of 2026-11-29 (26,698 rows a second, floor 62,746) was measured with the",
    "floor itself 1.6 times slower than now, in a worker that may have been running the same backfill",
    "(each worker start queued it again while rows lacked figures); on a quiet machine the same code",
    "read 59,000 to 66,000 rows a second in three runs",
    "(floor 90,000 to 103,000), and 55,000 to 62,000 with the figures stored (the export then reads a",
    "figure for every row; floor 90,000 to 108,000).",
    "",
    "Where the worker's RSS goes (measured 2026-11-29 with a forced collection every 12 pages): the",
    "CSV export's live heap stays flat (within 1 MB) from the first page to the last, so its RSS growth",
    "is garbage V8 promotes and has not yet collected; a larger or smaller young generation",
    "(--max-semi-space-size 16, 32, 64), smaller pages (250 rows) and no allocation-site pretenuring",
    "all left it at 240 to 260 MB. The XLSX export also held buffers that grew with the rows (57 MB",
    "for 96,000): the wait for the zip read `writableNeedDrain`, which archiver's readable-stream 2",
    "PassThrough does not have, so it never waited; it now reads the stream's state, and the capped",
    "worker's growth fell from 88 to 59 MB (app/modules/exports/files.server.test.ts shows the writer",
    "keeps pace with its file). Since decision 044 the export runs in a worker thread with a heap",
    "limit of its own (96 MB old generation), so V8 collects within it and the thread's memory goes",
    "when it ends.",
    "",
  ];
}

// alone: its own server and bench data
if (import.meta.url === `file://${process.argv[1]}`) {
  const server = await startTestServer();
  try {
    const bench = await prepareBench(server);
    console.log((await exportsSection(bench)).join("\n"));
  } finally {
    await server.close();
  }
}
