/**
 * Asking for a redespatch (spec 1 section 8): a failed manifest goes to its carrier again, same
 * manifest and numbers, with every failed consignment on it. The job is despatch's own
 * (runDespatch in despatch.server.ts).
 */
import { and, asc, eq, inArray, or } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { consignments } from "../../../db/schema";
import type { JobQueue } from "../jobs/queue";
import type { CurrentUser } from "../auth/current-user.server";
import { AppError, notFound } from "../../utils/errors";
import { isFailed } from "../consignments/rules";
import { lockScoped, markDespatching, sitesOf } from "./despatch.server";

export const NOT_REDESPATCHABLE = "Only a consignment whose despatch failed can be redespatched";

/** Moves the locked failed rows to despatching and queues their redespatch in the caller's transaction. */
async function enqueueRedespatch(tx: DbOrTx, queue: JobQueue, user: CurrentUser, rows: (typeof consignments.$inferSelect)[]): Promise<string> {
  await markDespatching(tx, rows, "redespatch", user.id);
  const { jobId } = await queue.enqueue(
    "consignments.redespatch",
    { ids: rows.map((r) => r.id), customerId: user.customer.id, userId: user.id, sendEmail: false },
    { tx, userId: user.id, customerId: user.customer.id, siteIds: sitesOf(rows) },
  );
  return jobId;
}

/**
 * PUT /api/consignments/{id} { redespatch: true }: sends the failed manifest of this consignment
 * to its carrier again (same manifest and numbers). Every failed consignment of that manifest
 * goes with it. Answers the job.
 */
export async function requestRedespatch(db: DbOrTx, queue: JobQueue, user: CurrentUser, id: number): Promise<{ job_id: string }> {
  const refuse = () => new AppError("conflict", NOT_REDESPATCHABLE, { base: [NOT_REDESPATCHABLE] });
  return db.transaction(async (tx) => {
    // the manifest is read unlocked, then the consignment and its manifest's are locked together
    // in id order, as every state change locks them: two redespatches of one manifest from two of
    // its consignments wait for each other instead of deadlocking
    const [probe] = await lockScoped(tx, user, [id], false);
    if (!probe) throw notFound("Consignment");
    if (!probe.manifestId) throw refuse();
    const manifestId = probe.manifestId;
    const locked = await tx
      .select()
      .from(consignments)
      .where(and(eq(consignments.customerId, user.customer.id), or(eq(consignments.id, id), eq(consignments.manifestId, manifestId))))
      .orderBy(asc(consignments.id))
      .for("update");
    const row = locked.find((r) => r.id === id)!;
    if (!isFailed(row.state) || row.manifestId !== manifestId) throw refuse();
    const rows = locked.filter((r) => r.manifestId === manifestId && isFailed(r.state));
    return { job_id: await enqueueRedespatch(tx, queue, user, rows) };
  });
}

/**
 * Bulk redespatch (POST /api/bulk_upload/redespatch): the failed manifests of these consignments
 * (scoped to the user), each with every failed consignment on it, sent again in one job. Null when
 * none of them is left to send.
 */
export async function redespatchManifestsOf(db: DbOrTx, queue: JobQueue, user: CurrentUser, ids: number[]): Promise<{ job_id: string; ids: number[] } | null> {
  if (!ids.length) return null;
  return db.transaction(async (tx) => {
    // read unlocked, then locked together in id order as requestRedespatch does (no deadlock with it)
    const probes = await lockScoped(tx, user, ids, false);
    const manifestIds = [...new Set(probes.flatMap((r) => (isFailed(r.state) && r.manifestId ? [r.manifestId] : [])))];
    if (!manifestIds.length) return null;
    const locked = await tx
      .select()
      .from(consignments)
      .where(and(eq(consignments.customerId, user.customer.id), inArray(consignments.manifestId, manifestIds)))
      .orderBy(asc(consignments.id))
      .for("update");
    const rows = locked.filter((r) => isFailed(r.state));
    if (!rows.length) return null;
    return { job_id: await enqueueRedespatch(tx, queue, user, rows), ids: rows.map((r) => r.id) };
  });
}
