/**
 * The per-address count of failed sign-ins, for the server's limiter (an express-rate-limit store):
 * in the database, so that every web process (WEB_CONCURRENCY) counts toward one limit.
 */
import { and, eq, gt, lte, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { signInAttemptCounts } from "../../../db/schema";

export interface AttemptCount {
  totalHits: number;
  resetTime: Date;
}

export class SignInAttemptStore {
  private windowMs = 15 * 60_000;
  /** the counts are shared by every process through the database */
  readonly localKeys = false;

  constructor(private readonly db: DbOrTx) {}

  init(options: { windowMs: number }) {
    this.windowMs = options.windowMs;
  }

  /**
   * One more attempt from `key`, in one statement (concurrent attempts cannot both read the same
   * count); a window that has run out starts again at 1.
   */
  async increment(key: string): Promise<AttemptCount> {
    const now = new Date();
    const resetAt = new Date(now.getTime() + this.windowMs);
    const over = sql`${signInAttemptCounts.resetAt} <= ${now.toISOString()}::timestamptz`;
    const [row] = await this.db
      .insert(signInAttemptCounts)
      .values({ key, hits: 1, resetAt })
      .onConflictDoUpdate({
        target: signInAttemptCounts.key,
        set: {
          hits: sql`CASE WHEN ${over} THEN 1 ELSE ${signInAttemptCounts.hits} + 1 END`,
          resetAt: sql`CASE WHEN ${over} THEN excluded.reset_at ELSE ${signInAttemptCounts.resetAt} END`,
        },
      })
      .returning({ hits: signInAttemptCounts.hits, resetAt: signInAttemptCounts.resetAt });
    return { totalHits: row!.hits, resetTime: row!.resetAt };
  }

  /** An attempt that succeeded is taken back. */
  async decrement(key: string): Promise<void> {
    await this.db
      .update(signInAttemptCounts)
      .set({ hits: sql`greatest(${signInAttemptCounts.hits} - 1, 0)` })
      .where(and(eq(signInAttemptCounts.key, key), gt(signInAttemptCounts.resetAt, new Date())));
  }

  async resetKey(key: string): Promise<void> {
    await this.db.delete(signInAttemptCounts).where(eq(signInAttemptCounts.key, key));
  }
}

/** The cleanup job's part: counts whose window is over. */
export async function deleteExpiredAttemptCounts(db: DbOrTx, now = new Date()): Promise<number> {
  const rows = await db.delete(signInAttemptCounts).where(lte(signInAttemptCounts.resetAt, now)).returning({ key: signInAttemptCounts.key });
  return rows.length;
}
