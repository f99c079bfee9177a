import { and, arrayContained, eq, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { jobs, type JobStatus } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { notFound } from "../../utils/errors";

export type JobRow = typeof jobs.$inferSelect;

/**
 * Jobs whose worker died (docs/decisions/008): a working job says it is alive every
 * HEARTBEAT_SECONDS; one silent for STALE_AFTER_SECONDS is taken over by the sweeper, which every
 * worker runs each SWEEP_SECONDS. A job is run at most MAX_RUNS times; after that it is given up.
 */
export const HEARTBEAT_SECONDS = 15;
export const STALE_AFTER_SECONDS = 120;
export const SWEEP_SECONDS = 30;
export const MAX_RUNS = 2;
export const JOB_STOPPED = "This job stopped before it finished: the worker running it stopped.";

export async function createJobRow(
  db: DbOrTx,
  values: {
    name: string;
    customerId?: number | null;
    userId?: number | null;
    message?: string;
    singletonKey?: string;
    payload?: Record<string, unknown>;
    siteIds?: number[] | null;
  },
): Promise<JobRow> {
  const [row] = await db
    .insert(jobs)
    .values({ ...values, siteIds: values.siteIds ?? null, payload: values.payload ?? {}, status: "queued", message: values.message ?? null })
    .returning();
  return row!;
}

export type JobPatch = Partial<{ status: JobStatus; pctComplete: number; message: string | null; errors: string[]; info: Record<string, unknown> }>;

/**
 * Updates a job row. With `workerId`, only while that worker still owns it: a worker that was
 * presumed dead and taken over must not overwrite what its successor reports.
 */
export async function updateJobRow(db: DbOrTx, id: string, patch: JobPatch, workerId?: string): Promise<boolean> {
  const now = new Date();
  const rows = await db
    .update(jobs)
    .set({ ...patch, updatedAt: now, ...(workerId ? { heartbeatAt: now } : {}) })
    .where(and(eq(jobs.id, id), workerId ? eq(jobs.workerId, workerId) : undefined))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/** When a job is judged: at `now`, silent for `staleAfterSeconds` (STALE_AFTER_SECONDS unless a worker is configured otherwise). */
export interface Staleness {
  now?: Date;
  staleAfterSeconds?: number;
}

/** Working, and silent too long (rows from before heartbeats: by updated_at). */
function stale({ now = new Date(), staleAfterSeconds = STALE_AFTER_SECONDS }: Staleness): SQL {
  const cutoff = new Date(now.getTime() - staleAfterSeconds * 1000);
  return and(eq(jobs.status, "working"), sql`coalesce(${jobs.heartbeatAt}, ${jobs.updatedAt}) < ${cutoff.toISOString()}::timestamptz`)!;
}

/**
 * Takes a job for `workerId` to run: a queued one, or one whose worker died and that has runs
 * left. One statement, so of two deliveries (or a delivery and the sweeper) only one runs it.
 */
export async function claimJob(db: DbOrTx, id: string, workerId: string, startMessage: string | null, when: Staleness = {}): Promise<JobRow | null> {
  const [row] = await db
    .update(jobs)
    .set({ status: "working", message: startMessage, workerId, heartbeatAt: new Date(), attempts: sql`${jobs.attempts} + 1`, updatedAt: new Date() })
    .where(and(eq(jobs.id, id), or(eq(jobs.status, "queued"), and(stale(when), lt(jobs.attempts, MAX_RUNS)))))
    .returning();
  return row ?? null;
}

/** The worker says it is alive; false once another worker has taken the job over. */
export async function heartbeat(db: DbOrTx, id: string, workerId: string): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ heartbeatAt: new Date() })
    .where(and(eq(jobs.id, id), eq(jobs.workerId, workerId), eq(jobs.status, "working")))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/** Working jobs whose worker has been silent too long. */
export function staleJobs(db: DbOrTx, when: Staleness): Promise<JobRow[]> {
  return db.select().from(jobs).where(stale(when)).orderBy(jobs.createdAt).limit(100);
}

/**
 * Gives up a stale job that has no runs left: marks it failed for `workerId`, answering null when
 * it is no longer stale (its worker spoke, or another sweeper got there first). Run it in the
 * transaction that releases the job's subject, so the job never ends failed with work stranded.
 */
export async function giveUpJob(tx: DbOrTx, id: string, workerId: string, when: Staleness): Promise<JobRow | null> {
  const [row] = await tx
    .update(jobs)
    .set({ status: "failed", workerId, heartbeatAt: new Date(), message: JOB_STOPPED, errors: [JOB_STOPPED], updatedAt: new Date() })
    .where(and(eq(jobs.id, id), stale(when)))
    .returning();
  return row ?? null;
}

/**
 * The job status of spec 3 (status, pct_complete, message, errors, info). A user reads their own
 * jobs, and their customer's jobs whose sites (a despatch: its consignments' sites) are all sites
 * they may see (the customer's staff see every site); a job of no particular site, anyone of its customer.
 */
export async function jobStatusFor(db: DbOrTx, user: CurrentUser, id: string) {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound("Job");
  const [row] = await db
    .select()
    .from(jobs)
    .where(
      and(
        eq(jobs.id, id),
        or(
          eq(jobs.userId, user.id),
          and(eq(jobs.customerId, user.customer.id), or(isNull(jobs.siteIds), user.siteIds.length ? arrayContained(jobs.siteIds, user.siteIds) : undefined)),
        ),
      ),
    );
  if (!row) throw notFound("Job");
  return {
    id: row.id,
    status: row.status,
    pct_complete: row.pctComplete,
    message: row.message,
    errors: row.errors,
    info: row.info,
    /** how many consignments a despatch job has (its progress label counts them), else null */
    total: Array.isArray((row.payload as { ids?: unknown } | null)?.ids) ? (row.payload as { ids: unknown[] }).ids.length : null,
  };
}

