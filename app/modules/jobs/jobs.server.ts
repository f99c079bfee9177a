import { and, eq, or } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { jobs, type JobStatus } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { notFound } from "../../utils/errors";

export type JobRow = typeof jobs.$inferSelect;

export async function createJobRow(
  db: DbOrTx,
  values: { name: string; customerId?: number | null; userId?: number | null; message?: string; singletonKey?: string },
): Promise<JobRow> {
  const [row] = await db
    .insert(jobs)
    .values({ ...values, status: "queued", message: values.message ?? null })
    .returning();
  return row!;
}

export async function updateJobRow(
  db: DbOrTx,
  id: string,
  patch: Partial<{ status: JobStatus; pctComplete: number; message: string | null; errors: string[]; info: Record<string, unknown> }>,
): Promise<void> {
  await db
    .update(jobs)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(jobs.id, id));
}

/** The job status of spec 3 (status, pct_complete, message, errors, info), for its owner's customer only. */
export async function jobStatusFor(db: DbOrTx, user: CurrentUser, id: string) {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound("Job");
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.id, id), or(eq(jobs.userId, user.id), eq(jobs.customerId, user.customer.id))));
  if (!row) throw notFound("Job");
  return {
    id: row.id,
    status: row.status,
    pct_complete: row.pctComplete,
    message: row.message,
    errors: row.errors,
    info: row.info,
  };
}
