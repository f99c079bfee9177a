/**
 * The admin's job list (GET /jobs): every background job and start-up report, newest first, so a
 * failure nobody was watching (a file upgrade's missing files, decision 030; an import that gave
 * up) is found without reading the log. Staff only: jobs of every customer are listed.
 */
import { count, desc, eq, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import { customers, jobs, JOB_STATUSES } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { authorize } from "../auth/guard.server";
import { homeButtons } from "../auth/roles";

export const JOBS_PER_PAGE = 25;
/** The errors shown with a job; the rest are counted (an import can list thousands of lines). */
export const JOB_ERRORS_SHOWN = 200;

export const jobListQuery = z.object({
  status: z.enum(JOB_STATUSES).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});
export type JobListQuery = z.infer<typeof jobListQuery>;

export interface ListedJob {
  id: string;
  name: string;
  customer: string | null;
  status: (typeof JOB_STATUSES)[number];
  pctComplete: number;
  message: string | null;
  errors: string[];
  errorCount: number;
  createdAt: Date;
  updatedAt: Date;
}

export async function listJobs(db: DbOrTx, user: CurrentUser, query: JobListQuery): Promise<{ jobs: ListedJob[]; total: number; page: number; pages: number }> {
  authorize(user, homeButtons.jobs);
  const where: SQL | undefined = query.status ? eq(jobs.status, query.status) : undefined;
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(jobs).where(where);
  const pages = Math.max(1, Math.ceil(n / JOBS_PER_PAGE));
  const page = Math.min(query.page, pages);
  const rows = await db
    .select({
      id: jobs.id,
      name: jobs.name,
      customer: customers.name,
      status: jobs.status,
      pctComplete: jobs.pctComplete,
      message: jobs.message,
      errors: jobs.errors,
      createdAt: jobs.createdAt,
      updatedAt: jobs.updatedAt,
    })
    .from(jobs)
    .leftJoin(customers, eq(customers.id, jobs.customerId))
    .where(where)
    .orderBy(desc(jobs.createdAt), desc(jobs.id))
    .limit(JOBS_PER_PAGE)
    .offset((page - 1) * JOBS_PER_PAGE);
  return {
    jobs: rows.map((r) => ({ ...r, errors: r.errors.slice(0, JOB_ERRORS_SHOWN), errorCount: r.errors.length })),
    total: n,
    page,
    pages,
  };
}
