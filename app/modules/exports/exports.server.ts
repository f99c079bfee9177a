/**
 * The export report (issue 15 item 4; spec 1 lines 69, 107, 142, 193, 241): the criteria are
 * checked and scoped here, the export itself runs as the "exports.run" job (one path for small
 * and large), and its file is downloaded by the user who asked for it.
 */
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { jobs } from "../../../db/schema";
import { fileResponse, requireFile } from "../files/index.server";
import type { CurrentUser } from "../auth/current-user.server";
import { authorize } from "../auth/guard.server";
import { isAdmin, type AccessSubject } from "../auth/roles";
import type { JobQueue } from "../jobs/queue";
import { AppError, notFound } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { ALL_SITES, MESSAGES, checkCriteria, criteriaSchema } from "./criteria";
import { EXPORT_JOB, type ExportPayload, type ExportResult } from "./run.server";

/** The menu entry and /export need can_export, for every role (spec 1 line 43: the flag gates the entry). */
export const canExport = (u: AccessSubject) => Boolean(u.canExport);
/** The New Export button (spec 2 line 191): admins and super admins (devs count as super admins). */
export const canNewExport = (u: AccessSubject) => u.role === "admin" || u.role === "super_admin" || u.role === "devs";
/** Staff (admins incl. customer service, super admins) may export more than 3 months. */
export const rangeLimited = (u: AccessSubject) => !isAdmin(u);

/**
 * POST /api/exports and the /export form: checks and scopes the criteria and queues the job.
 * 403 without can_export, or for new_export when not an admin; 422 per field.
 */
export async function requestExport(queue: JobQueue, user: CurrentUser, raw: Record<string, unknown>): Promise<{ job_id: string }> {
  authorize(user, canExport);
  const parsed = parseOrThrow(criteriaSchema, raw);
  if (parsed.new_export) authorize(user, canNewExport);
  const { criteria, errors } = checkCriteria(parsed, rangeLimited(user));
  let siteIds = user.siteIds;
  if (criteria.siteCode !== ALL_SITES) {
    const site = user.sites.find((s) => s.code.toUpperCase() === criteria.siteCode);
    if (site) siteIds = [site.id];
    else errors.site_code = [MESSAGES.unknownSite];
  }
  if (Object.keys(errors).length) throw new AppError("invalid", Object.values(errors)[0]![0]!, errors);
  const payload: ExportPayload = { customerId: user.customer.id, siteIds, from: criteria.from, to: criteria.to, format: criteria.format, newExport: criteria.newExport };
  const { jobId } = await queue.enqueue(EXPORT_JOB, payload, { userId: user.id, customerId: user.customer.id, siteIds });
  return { job_id: jobId };
}

/**
 * GET /api/exports/{jobId}/download: the file of the user's own finished export, read from the
 * file store (any host's worker wrote it), while the user works for the customer it holds;
 * anyone else's, or one not there (expired), 404.
 */
export async function downloadExport(db: DbOrTx, user: CurrentUser, jobId: string): Promise<Response> {
  authorize(user, canExport);
  if (!/^[0-9a-f-]{36}$/i.test(jobId)) throw notFound("Export");
  const [job] = await db
    .select({ status: jobs.status, info: jobs.info })
    .from(jobs)
    .where(and(eq(jobs.id, jobId), eq(jobs.name, EXPORT_JOB), eq(jobs.userId, user.id)));
  const info = job?.status === "complete" ? (job.info as Partial<ExportResult>) : null;
  if (!info?.file) throw notFound("Export");
  // gone (expired) or damaged: a 404 or 409 saying so, logged
  const file = await requireFile(db, info.file, `export ${jobId}`);
  // the file's own scope as well as the job's: a user moved to another customer no longer reads this one's
  if (file.kind !== "export" || file.customerId !== user.customer.id) throw notFound("Export");
  const res = fileResponse(db, file);
  res.headers.set("Cache-Control", "private, no-store");
  return res;
}
