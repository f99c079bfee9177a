import PgBoss from "pg-boss";
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Database, DbOrTx, SqlExecutor } from "../db/client.server";
import { jobs } from "../db/schema";
import { createJobRow, updateJobRow } from "../app/modules/jobs/jobs.server";
import type { Mailer } from "../app/modules/mail/mailer.server";
import type { Renderer } from "../app/modules/printing/renderer.server";
import { JOBS, type JobName, type JobPayload } from "./definitions";

export interface EnqueueOptions {
  /** run the insert inside this transaction, so the job exists only if the change commits */
  tx?: DbOrTx;
  userId?: number | null;
  customerId?: number | null;
  /** a key for "at most one such job queued at a time" */
  singletonKey?: string;
}

export interface JobQueue {
  enqueue<N extends JobName>(name: N, payload: JobPayload<N>, options?: EnqueueOptions): Promise<{ jobId: string }>;
  /** begins processing jobs in this process (the web process by default, or `npm run worker`) */
  work(): Promise<void>;
  stop(): Promise<void>;
}

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
}

/**
 * Runs one delivery of a job. The job row is claimed first (queued or failed -> working in one
 * statement), so a second or concurrent delivery of the same job does nothing and the first
 * result stands.
 */
export async function runJob(deps: QueueDeps, name: JobName, data: Record<string, unknown>): Promise<"ran" | "skipped"> {
  const { db } = deps.database;
  const definition = JOBS[name];
  const { jobId, ...rest } = data as { jobId?: string };
  const id = jobId ?? (await createJobRow(db, { name })).id;
  const [claimed] = await db
    .update(jobs)
    .set({ status: "working", message: definition.startMessage ?? null, updatedAt: new Date() })
    .where(and(eq(jobs.id, id), inArray(jobs.status, ["queued", "failed"])))
    .returning({ id: jobs.id });
  if (!claimed) return "skipped";
  try {
    const payload = definition.payload.parse(rest);
    const info = await definition.run({ db, mailer: deps.mailer, renderer: deps.renderer }, payload as never, (pct, message) =>
      updateJobRow(db, id, { pctComplete: Math.round(pct), message }),
    );
    const errors = definition.errorsOf?.(info as never) ?? [];
    await updateJobRow(db, id, {
      status: errors.length ? "failed" : "complete",
      pctComplete: 100,
      message: definition.doneMessage(info as never),
      errors,
      info: info as unknown as Record<string, unknown>,
    });
    return "ran";
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await updateJobRow(db, id, { status: "failed", message, errors: [message] });
    throw error;
  }
}

export async function createQueue(deps: QueueDeps): Promise<JobQueue> {
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

  return {
    async enqueue(name, payload, options = {}) {
      const definition = JOBS[name];
      const data = definition.payload.parse(payload);
      const db = options.tx ?? database.db;
      const row = await createJobRow(db, {
        name,
        userId: options.userId ?? null,
        customerId: options.customerId ?? null,
        singletonKey: options.singletonKey,
      });
      await boss.send(name, { ...data, jobId: row.id }, options.tx ? { db: executorFor(options.tx) } : {});
      return { jobId: row.id };
    },

    async work() {
      if (working) return;
      working = true;
      for (const name of Object.keys(JOBS) as JobName[]) {
        await boss.work(name, { pollingIntervalSeconds: 1 }, async ([job]) => {
          await runJob(deps, name, job!.data as Record<string, unknown>);
        });
      }
      for (const [name, definition] of Object.entries(JOBS)) {
        if (definition.cron) await boss.schedule(name, definition.cron, {});
      }
    },

    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: 5000 });
    },
  };
}
