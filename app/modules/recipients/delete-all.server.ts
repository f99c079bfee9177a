import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import { addresses } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import type { JobQueue } from "../jobs/queue";
import { recipientsCustomerToEdit, removeFromBook } from "./recipients.server";

export const DELETE_ALL_JOB = "recipients.delete_all";
export const deleteAllPayload = z.object({ customerId: z.number().int().positive() });
export type DeleteAllResult = { deleted: number };

const BATCH = 5000;

/** DELETE /api/customers/{id}/recipients and the screen's Delete all: queues the job, one at a time per customer. */
export async function requestDeleteAll(db: DbOrTx, queue: JobQueue, user: CurrentUser, customerId: number): Promise<{ job_id: string }> {
  const customer = await recipientsCustomerToEdit(db, user, customerId);
  const { jobId } = await queue.enqueue(DELETE_ALL_JOB, { customerId: customer.id }, { userId: user.id, customerId: customer.id, singletonKey: `recipients-delete-${customer.id}` });
  return { job_id: jobId };
}

/**
 * The job: deletes the address book in batches (short statements: the typeahead and the list
 * keep working meanwhile), reporting progress; run again it simply deletes what is left.
 * Consignments keep their own copies of addresses (is_recipient false), which stay.
 */
export async function runDeleteAll(db: DbOrTx, payload: z.infer<typeof deleteAllPayload>, progress: (pct: number, message: string) => Promise<void>): Promise<DeleteAllResult> {
  const ofCustomer = and(eq(addresses.customerId, payload.customerId), eq(addresses.isRecipient, true));
  const [{ total }] = (await db.select({ total: sql<number>`count(*)::int` }).from(addresses).where(ofCustomer)) as [{ total: number }];
  let deleted = 0;
  for (;;) {
    const ids = (await db.select({ id: addresses.id }).from(addresses).where(ofCustomer).limit(BATCH)).map((r) => r.id);
    if (!ids.length) break;
    await removeFromBook(db, ids);
    deleted += ids.length;
    if (ids.length < BATCH) break;
    await progress(Math.min(99, Math.floor((deleted / Math.max(1, total)) * 100)), `Deleted ${deleted} of ${total} recipients...`);
  }
  return { deleted };
}

export const deleteAllMessage = (r: DeleteAllResult) => `Deleted ${r.deleted} recipient(s).`;
