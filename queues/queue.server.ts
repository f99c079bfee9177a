import PgBoss from "pg-boss";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { sql, type SQL } from "drizzle-orm";
import type { Database, DbOrTx, SqlExecutor } from "../db/client.server";
import {
  claimJob,
  createJobRow,
  giveUpJob,
  heartbeat,
  HEARTBEAT_SECONDS,
  JOB_STOPPED,
  MAX_RUNS,
  STALE_AFTER_SECONDS,
  staleJobs,
  SWEEP_SECONDS,
  updateJobRow,
  type JobRow,
  type Staleness,
} from "../app/modules/jobs/jobs.server";
import type { Mailer } from "../app/modules/mail/mailer.server";
import type { Renderer } from "../app/modules/printing/renderer.server";
import type { JobQueue } from "../app/modules/jobs/queue";
import { startDispatcher, type Dispatcher } from "../app/modules/webhooks/dispatcher.server";
import { startInsightRefresher } from "../app/modules/insight/rollup.server";
import { queueEmissionsBackfill } from "../app/modules/emissions/factors.server";
import { JOBS, type JobName } from "./definitions";
import { announceJob, listenForJobs } from "./wake.server";

// the interface lives below the modules that use it (app/modules/jobs/queue.ts); re-exported for the callers above them
export type { EnqueueOptions, JobQueue } from "../app/modules/jobs/queue";

/**
 * A pg-boss parameter as the pg driver would send it: drizzle drops an undefined parameter from
 * the statement (leaving `COALESCE(::uuid, ...)`), and hands objects to the driver unserialised.
 */
function param(value: unknown): unknown {
  if (value === undefined) return null;
  if (value !== null && typeof value === "object" && !(value instanceof Date) && !Buffer.isBuffer(value)) return JSON.stringify(value);
  return value;
}

/** pg-boss's raw SQL runner over a drizzle connection or transaction. */
function executorFor(db: DbOrTx): SqlExecutor {
  return {
    async executeSql(text, values = []) {
      // turn "$1 ... $2" into drizzle chunks with bound parameters
      const pieces = text.split(/\$(\d+)/);
      const chunks: SQL[] = [];
      pieces.forEach((piece, i) => {
        if (i % 2 === 0) chunks.push(sql.raw(piece));
        else chunks.push(sql`${param(values[Number(piece) - 1])}`);
      });
      const result = (await db.execute(sql.join(chunks))) as unknown as { rows?: unknown[] } | unknown[];
      return { rows: Array.isArray(result) ? [...result] : (result.rows ?? []) };
    },
  };
}

export interface QueueDeps {
  database: Database;
  mailer: Mailer;
  /** PDFs for jobs that send documents (return e-mails) */
  renderer: Renderer;
  /** for jobs that queue others (a despatch queues its consignments' tracking); absent when a caller plays the worker without one */
  queue?: JobQueue;
}

/** A name for this worker process in job rows: whose heartbeat a job carries. */
export const newWorkerId = () => `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Runs one delivery of a job. The job row is claimed first (queued, or working with a dead worker
 * and runs left, in one statement), so a second or concurrent delivery of the same job does
 * nothing and the first result stands. While it runs, the row's heartbeat is renewed; a run that
 * throws ends the job failed with its work released (no delivery runs it again).
 */
export async function runJob(
  deps: QueueDeps,
  name: JobName,
  data: Record<string, unknown>,
  options: { workerId?: string } & Staleness = {},
): Promise<"ran" | "skipped"> {
  const { db } = deps.database;
  const definition = JOBS[name];
  const { jobId, ...rest } = data as { jobId?: string };
  const workerId = options.workerId ?? newWorkerId();
  const id = jobId ?? (await createJobRow(db, { name, payload: rest })).id;
  const claimed = await claimJob(db, id, workerId, definition.startMessage ?? null, options);
  if (!claimed) return "skipped";
  // well inside the staleness a sweeper judges by, so a live run is never taken for a dead one
  const every = Math.min(HEARTBEAT_SECONDS, (options.staleAfterSeconds ?? STALE_AFTER_SECONDS) / 4);
  const timer = setInterval(() => void heartbeat(db, id, workerId).catch(() => {}), every * 1000);
  let payload: unknown;
  try {
    payload = definition.payload.parse(rest);
    const info = await definition.run({ db, databaseUrl: deps.database.url, mailer: deps.mailer, renderer: deps.renderer, queue: deps.queue ?? null }, payload as never, async (pct, message) => {
      await updateJobRow(db, id, { pctComplete: Math.round(pct), message }, workerId);
    });
    const errors = definition.errorsOf?.(info as never) ?? [];
    await updateJobRow(
      db,
      id,
      { status: errors.length ? "failed" : "complete", pctComplete: 100, message: definition.doneMessage(info as never), errors, info: info as unknown as Record<string, unknown> },
      workerId,
    );
    return "ran";
  } catch (error) {
    const message = errorText(error);
    // if this fails too, the job stays working, falls silent and the sweeper takes it
    await db.transaction(async (tx) => {
      if (!(await updateJobRow(tx, id, { status: "failed", message, errors: [message] }, workerId))) return;
      if (payload === undefined || !definition.release) return;
      const released = await definition.release(tx, payload as never);
      await updateJobRow(tx, id, { errors: [message, ...released.errors], info: released.info as Record<string, unknown> });
    });
    throw error;
  } finally {
    clearInterval(timer);
  }
}

/** What the job was asked: its row's payload, or (rows from before payloads were kept) pg-boss's copy. */
async function payloadOf(db: DbOrTx, job: JobRow): Promise<Record<string, unknown>> {
  if (Object.keys(job.payload).length) return job.payload;
  const raw = (await db.execute(sql`select data from pgboss.job where data->>'jobId' = ${job.id} limit 1`)) as unknown as { rows?: { data: Record<string, unknown> }[] } | { data: Record<string, unknown> }[];
  const [row] = Array.isArray(raw) ? raw : (raw.rows ?? []);
  const { jobId: _, ...data } = (row?.data ?? {}) as Record<string, unknown>;
  return data;
}

/**
 * The sweeper (docs/decisions/008): every working job whose worker has been silent for
 * STALE_AFTER_SECONDS is run again here when it has runs left, else given up: ended failed, in
 * one transaction with the release of what it left half done. Every worker sweeps; the claim
 * (one statement) decides between two sweepers. `now` is the clock the staleness is judged by.
 */
export async function sweepStaleJobs(deps: QueueDeps, options: { workerId: string } & Staleness): Promise<{ resumed: string[]; givenUp: string[] }> {
  const { db } = deps.database;
  const resumed: string[] = [];
  const givenUp: string[] = [];
  const runs: Promise<unknown>[] = [];
  for (const job of await staleJobs(db, options)) {
    const name = job.name as JobName;
    const definition = JOBS[name] as (typeof JOBS)[JobName] | undefined;
    const data = await payloadOf(db, job);
    if (definition && job.attempts < MAX_RUNS) {
      runs.push(
        runJob(deps, name, { ...data, jobId: job.id }, options).then(
          (r) => void (r === "ran" && resumed.push(job.id)),
          // it ran and threw: runJob has ended it failed and released its work
          (e: unknown) => {
            resumed.push(job.id);
            console.error("[queue] resumed job failed", job.id, errorText(e));
          },
        ),
      );
      continue;
    }
    const payload = definition?.payload.safeParse(data);
    const gaveUp = await db.transaction(async (tx) => {
      if (!(await giveUpJob(tx, job.id, options.workerId, options))) return false;
      if (definition?.release && payload?.success) {
        const released = await definition.release(tx, payload.data as never);
        await updateJobRow(tx, job.id, { errors: [JOB_STOPPED, ...released.errors], info: released.info as Record<string, unknown> });
      }
      return true;
    });
    if (gaveUp) givenUp.push(job.id);
  }
  await Promise.all(runs);
  return { resumed, givenUp };
}

/** How often this worker sweeps, and after how long a silent job is taken over (docs/decisions/008). */
export interface SweepOptions {
  sweepSeconds?: number;
  staleAfterSeconds?: number;
  /** how often each queue is asked for work when no job was announced (wake.server.ts) */
  pollingSeconds?: number;
}

/** How often a queue is polled: a job announced on the channel is fetched at once regardless. */
export const POLLING_SECONDS = 1;

export async function createQueue(deps: QueueDeps, options: SweepOptions = {}): Promise<JobQueue> {
  const { database } = deps;
  const boss =
    database.kind === "postgres"
      ? new PgBoss({ connectionString: database.url!, schema: "pgboss", max: 4 })
      : new PgBoss({ db: database.executor, schema: "pgboss" } as PgBoss.ConstructorOptions);
  boss.on("error", (error) => console.error("[queue]", error));
  await boss.start();
  for (const name of Object.keys(JOBS) as JobName[]) {
    await boss.createQueue(name);
  }
  let working = false;
  const workerId = newWorkerId();
  // this process's pg-boss worker for each queue, to be woken when a job of it is announced
  const bossWorkers = new Map<string, string>();
  const wake = (name: string) => {
    const id = bossWorkers.get(name);
    if (id) boss.notifyWorker(id);
  };
  let stopListening: (() => Promise<void>) | null = null;
  let sweeper: NodeJS.Timeout | null = null;
  let sweeping: Promise<unknown> | null = null;
  // webhook deliveries: their own table is their queue, worked where the jobs are (docs/decisions/039)
  let webhooks: Dispatcher | null = null;
  // the insight rollup's marked slices, recomputed where the jobs are (docs/decisions/042)
  let insight: { stop(): Promise<void> } | null = null;

  const queue: JobQueue = {
    async enqueue(name, payload, options = {}) {
      const definition = JOBS[name];
      const data = definition.payload.parse(payload);
      const db = options.tx ?? database.db;
      const row = await createJobRow(db, {
        name,
        userId: options.userId ?? null,
        customerId: options.customerId ?? null,
        singletonKey: options.singletonKey,
        siteIds: options.siteIds ?? null,
        payload: data as Record<string, unknown>,
      });
      await boss.send(name, { ...data, jobId: row.id }, { ...(options.tx ? { db: executorFor(options.tx) } : {}), ...(options.startAfter ? { startAfter: options.startAfter } : {}) });
      // a job for later is found by the poll when its time comes; PGlite's worker is this process
      // (one inside a transaction is found by the next poll, after the commit)
      if (!options.startAfter) {
        if (database.kind === "postgres") await announceJob(db, name);
        else if (!options.tx) wake(name);
      }
      return { jobId: row.id };
    },

    async work() {
      if (working) return;
      working = true;
      if (database.kind === "postgres") stopListening = await listenForJobs(database.url!, wake);
      for (const name of Object.keys(JOBS) as JobName[]) {
        const id = await boss.work(name, { pollingIntervalSeconds: options.pollingSeconds ?? POLLING_SECONDS }, async ([job]) => {
          await runJob(withQueue, name, job!.data as Record<string, unknown>, { workerId, staleAfterSeconds: options.staleAfterSeconds });
        });
        bossWorkers.set(name, id);
      }
      for (const [name, definition] of Object.entries(JOBS)) {
        if (definition.cron) await boss.schedule(name, definition.cron, {});
      }
      // at start (what a worker that died before this one left) and then every SWEEP_SECONDS;
      // one sweep at a time in this process
      const sweep = () => {
        sweeping ??= sweepStaleJobs(withQueue, { workerId, staleAfterSeconds: options.staleAfterSeconds })
          .catch((e: unknown) => console.error("[queue] sweep failed", errorText(e)))
          .finally(() => (sweeping = null));
      };
      sweep();
      // an upgrade's consignments without an emissions figure (decision 041): computed once, by a job
      await queueEmissionsBackfill(database.db, queue).catch((e: unknown) => console.error("[queue] emissions backfill not queued", errorText(e)));
      webhooks = startDispatcher(database.db, deps.mailer);
      insight = startInsightRefresher(database.db);
      sweeper = setInterval(sweep, (options.sweepSeconds ?? SWEEP_SECONDS) * 1000);
    },

    async stop() {
      if (sweeper) clearInterval(sweeper);
      await stopListening?.();
      await webhooks?.stop();
      await insight?.stop();
      // a job the sweep resumed may run long: waited for as pg-boss waits for its own, then left to the next worker
      await Promise.race([sweeping, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
      await boss.stop({ graceful: true, wait: true, timeout: 5000 });
    },
  };
  // the jobs this worker runs may queue others
  const withQueue: QueueDeps = { ...deps, queue };
  return queue;
}
