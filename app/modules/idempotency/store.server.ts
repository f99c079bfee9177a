import { and, eq, lte } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { idempotencyKeys, type StoredHeaders } from "../../../db/schema";
import { ABANDONED_AFTER_MS, KEY_TTL_MS } from "./key";

/** Whose key it is: the user and the customer they work in (a staff user's keys differ per customer). */
export interface Caller {
  userId: number;
  customerId: number;
}

export interface StoredAnswer {
  status: number;
  headers: StoredHeaders;
  body: Buffer;
}

export type Claim =
  /** this request holds the key (claimed at `at`): run the call, then store or release */
  | { kind: "claimed"; at: Date }
  | { kind: "replay"; answer: StoredAnswer }
  /** the same request is still running under this key */
  | { kind: "in_flight" }
  /** the key's first request was another one */
  | { kind: "reused" };

const row = (caller: Caller, key: string) => and(eq(idempotencyKeys.userId, caller.userId), eq(idempotencyKeys.customerId, caller.customerId), eq(idempotencyKeys.key, key));
/** the row of this one claim: a later claim of the same key (after a release or a takeover) is not it */
const claimRow = (caller: Caller, key: string, at: Date) => and(row(caller, key), eq(idempotencyKeys.state, "in_flight"), eq(idempotencyKeys.createdAt, at));

/**
 * Claims `key` for a request whose hash is `hash`, or says what its first request left. A row past
 * 24 hours is ignored (removed, and the key claimed afresh); a claim in flight past
 * ABANDONED_AFTER_MS is taken over. A few rounds at most: each round ends unless another request
 * changed the row in between.
 */
export async function claimKey(db: DbOrTx, caller: Caller, key: string, hash: string, now: Date): Promise<Claim> {
  for (let round = 0; round < 3; round++) {
    // The primary key (user, customer, key) settles the race of two requests with the same key:
    // both insert, only one row is made, and the other reads it below as in flight (409), so the
    // call never runs twice. No transaction is held while the call runs.
    const inserted = await db
      .insert(idempotencyKeys)
      .values({ ...caller, key, requestHash: hash, state: "in_flight", createdAt: now })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted.length) return { kind: "claimed", at: now };
    const [found] = await db.select().from(idempotencyKeys).where(row(caller, key));
    if (!found) continue; // released (a 5xx) or removed since the insert: claim it again
    const age = now.getTime() - found.createdAt.getTime();
    if (age >= KEY_TTL_MS) {
      // only this expired row: a fresh claim another request made meanwhile stays
      await db.delete(idempotencyKeys).where(and(row(caller, key), eq(idempotencyKeys.createdAt, found.createdAt)));
      continue;
    }
    if (found.requestHash !== hash) return { kind: "reused" };
    if (found.state === "done") {
      return { kind: "replay", answer: { status: found.status ?? 200, headers: found.headers ?? {}, body: Buffer.from(found.body ?? []) } };
    }
    if (age < ABANDONED_AFTER_MS) return { kind: "in_flight" };
    // a dead process's claim: taken over by compare-and-set on its claim time, so of two
    // retries arriving together only one runs the call
    const taken = await db.update(idempotencyKeys).set({ createdAt: now }).where(claimRow(caller, key, found.createdAt)).returning({ key: idempotencyKeys.key });
    if (taken.length) return { kind: "claimed", at: now };
  }
  return { kind: "in_flight" };
}

/** The call's answer, kept for replays; only while this request still holds its claim. */
export async function storeAnswer(db: DbOrTx, caller: Caller, key: string, claimedAt: Date, answer: StoredAnswer): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ state: "done", status: answer.status, headers: answer.headers, body: answer.body })
    .where(claimRow(caller, key, claimedAt));
}

/** Gives the key up (the call failed with a 5xx, or threw): a retry runs the call again. */
export async function releaseKey(db: DbOrTx, caller: Caller, key: string, claimedAt: Date): Promise<void> {
  await db.delete(idempotencyKeys).where(claimRow(caller, key, claimedAt));
}

/** For the nightly cleanup: keys older than 24 hours, which no replay reads any more. */
export async function deleteExpiredIdempotencyKeys(db: DbOrTx, now: Date): Promise<number> {
  const deleted = await db
    .delete(idempotencyKeys)
    .where(lte(idempotencyKeys.createdAt, new Date(now.getTime() - KEY_TTL_MS)))
    .returning({ key: idempotencyKeys.key });
  return deleted.length;
}
