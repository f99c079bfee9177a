/**
 * Invoicing schedules (issue 19 point 7; spec 3 "Invoicing schedule", decision 020-invoicing):
 * POST /api/invoicing_schedules plans an invoicing run of chosen lines, once or weekly, at a time on
 * a zone's wall clock (schedule.ts); a runner every minute claims each due schedule with a
 * compare-and-set on next_run_at and queues the invoicing job for its lines still invoiceable.
 */
import { and, asc, desc, eq, isNotNull, lt, lte, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db, DbOrTx } from "../../../db/client.server";
import { invoiceDetails, invoicingSchedules, jobs } from "../../../db/schema";
import type { JobQueue } from "../jobs/queue";
import type { CurrentUser } from "../auth/current-user.server";
import { assertWriter } from "../allocation/rules.server";
import { financeScope } from "../invoices/access";
import { AppError } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { INVOICING_JOB, INVOICING_MESSAGES } from "./invoice.server";
import { invoiceableIds } from "./invoiceable.server";
import { localDate, nextRunAt, SCHEDULE_MESSAGES, scheduleSchema, type ScheduleTiming } from "./schedule";

export const SCHEDULES_JOB = "invoicing.schedules";
export const schedulesPayload = z.object({ now: z.iso.datetime().optional() });

type Row = typeof invoicingSchedules.$inferSelect;

export function scheduleJson(r: Row) {
  return {
    id: r.id,
    period: r.period,
    options: {
      invoice_detail_ids: r.invoiceDetailIds,
      invoicing_options: { day: r.day, date: r.runDate, hour: r.hour, time_zone: r.timeZone },
    },
    next_run_at: r.nextRunAt?.toISOString() ?? null,
    last_run_at: r.lastRunAt?.toISOString() ?? null,
    last_job_id: r.lastJobId,
  };
}
export type ScheduleJson = ReturnType<typeof scheduleJson>;

const timingOf = (r: Pick<Row, "period" | "day" | "runDate" | "hour" | "timeZone">): ScheduleTiming => ({
  period: r.period,
  day: r.day as ScheduleTiming["day"],
  date: r.runDate,
  hour: r.hour,
  time_zone: r.timeZone as ScheduleTiming["time_zone"],
});

/**
 * POST /api/invoicing_schedules (invoice admins). The lines must be invoiceable now (those that are
 * not are left out; none at all is refused); a time that has passed, or a date before today in the
 * schedule's own zone, is refused on next_run_at.
 */
export async function createSchedule(db: DbOrTx, user: CurrentUser, raw: unknown, now = new Date()): Promise<ScheduleJson> {
  assertWriter(user);
  const input = parseOrThrow(scheduleSchema, raw);
  const o = input.options.invoicing_options;
  const ids = await invoiceableIds(db, financeScope(user), [...new Set(input.options.invoice_detail_ids)]);
  if (!ids.length) throw new AppError("invalid", INVOICING_MESSAGES.noneInvoiceable, { "options.invoice_detail_ids": [INVOICING_MESSAGES.noneInvoiceable] });
  const timing: ScheduleTiming = { period: input.period, day: o.day ?? null, date: input.period === "ONCE" ? (o.date ?? null) : null, hour: o.hour, time_zone: o.time_zone };
  const beforeToday = timing.date != null && timing.date < localDate(now, timing.time_zone);
  const next = beforeToday ? null : nextRunAt(timing, now);
  if (!next) throw new AppError("invalid", SCHEDULE_MESSAGES.passed, { next_run_at: [SCHEDULE_MESSAGES.passed] });
  const [row] = await db
    .insert(invoicingSchedules)
    .values({ period: timing.period, day: timing.day ?? null, runDate: timing.date ?? null, hour: timing.hour, timeZone: timing.time_zone, invoiceDetailIds: ids, nextRunAt: next, createdById: user.id })
    .returning();
  return scheduleJson(row!);
}

/**
 * The Schedules modal's list: upcoming first, then those done. Staff see every schedule; a
 * customer's user those holding one of their customer's lines.
 */
export async function listSchedules(db: DbOrTx, user: CurrentUser): Promise<ScheduleJson[]> {
  const scope = financeScope(user);
  const rows = await db
    .select()
    .from(invoicingSchedules)
    .where(
      scope.kind === "all"
        ? undefined
        : sql`exists (select 1 from ${invoiceDetails} d where d.id = any(${invoicingSchedules.invoiceDetailIds}) and d.customer_id = ${scope.customerId})`,
    )
    .orderBy(sql`${invoicingSchedules.nextRunAt} is null`, asc(invoicingSchedules.nextRunAt), desc(invoicingSchedules.id))
    .limit(200);
  return rows.map(scheduleJson);
}

export interface RunnerResult {
  /** schedules this runner claimed and ran */
  ran: number[];
  /** invoicing jobs queued */
  jobs: string[];
}

/**
 * Runs one due schedule, if this runner wins it. The claim is a compare-and-set: next_run_at moves
 * on only where it still holds the value read, so of two runners (two workers, or a run and a
 * redelivery) only one claims the run; the loser updates nothing and goes on. The invoicing job is
 * queued in the same transaction as the claim, so a claim never commits without its job.
 */
export async function runSchedule(db: Db, queue: Pick<JobQueue, "enqueue">, schedule: Row, now: Date): Promise<string | null | false> {
  return db.transaction(async (tx) => {
    const next = nextRunAt(timingOf(schedule), now, schedule.period === "ONCE" ? now : null);
    const claimed = await tx
      .update(invoicingSchedules)
      .set({ nextRunAt: next, lastRunAt: now })
      .where(and(eq(invoicingSchedules.id, schedule.id), eq(invoicingSchedules.nextRunAt, schedule.nextRunAt!)))
      .returning({ id: invoicingSchedules.id });
    if (!claimed.length) return false;
    // the lines billed meanwhile (by hand or by another schedule) are left out
    const ids = await invoiceableIds(tx, { kind: "all" }, schedule.invoiceDetailIds);
    if (!ids.length) return null;
    const { jobId } = await queue.enqueue(INVOICING_JOB, { invoiceDetailIds: ids, userId: schedule.createdById }, { tx, userId: schedule.createdById });
    await tx.update(invoicingSchedules).set({ lastJobId: jobId }).where(eq(invoicingSchedules.id, schedule.id));
    return jobId;
  });
}

/** The runner (pg-boss cron, every minute): every schedule due at `now`. */
export async function runDueSchedules(db: Db, queue: Pick<JobQueue, "enqueue"> | null, now = new Date()): Promise<RunnerResult> {
  const result: RunnerResult = { ran: [], jobs: [] };
  if (!queue) return result;
  const due = await db
    .select()
    .from(invoicingSchedules)
    .where(and(isNotNull(invoicingSchedules.nextRunAt), lte(invoicingSchedules.nextRunAt, now)))
    .orderBy(asc(invoicingSchedules.nextRunAt));
  for (const s of due) {
    const outcome = await runSchedule(db, queue, s, now);
    if (outcome === false) continue;
    result.ran.push(s.id);
    if (outcome) result.jobs.push(outcome);
  }
  return result;
}

export const runnerMessage = (r: RunnerResult) => `Ran ${r.ran.length} invoicing schedule${r.ran.length === 1 ? "" : "s"}, queued ${r.jobs.length} invoicing job${r.jobs.length === 1 ? "" : "s"}.`;

/**
 * The runner's own job records that ran no schedule, once a day old: one a minute would otherwise
 * pile up 1,440 a day. Records of runs that did run a schedule are kept with the jobs they queued.
 */
export async function pruneIdleRunnerJobs(db: DbOrTx, now = new Date()): Promise<number> {
  const gone = await db
    .delete(jobs)
    .where(and(eq(jobs.name, SCHEDULES_JOB), eq(jobs.status, "complete"), lt(jobs.updatedAt, new Date(now.getTime() - 24 * 3600 * 1000)), sql`coalesce(jsonb_array_length(${jobs.info}->'ran'), 0) = 0`))
    .returning({ id: jobs.id });
  return gone.length;
}
