/**
 * The per-address count of failed sign-ins, for the server's limiter (an express-rate-limit store):
 * in the database, so that every web process (WEB_CONCURRENCY) counts toward one limit. The
 * public tracking links' limiter keeps its own count the same way (TrackingGuessStore).
 */
import { and, eq, gt, lte, sql } from "drizzle-orm";
import { changeFeedOf, type DbOrTx } from "../../../db/client.server";
import { keptPer, readThrough } from "../../../db/kept.server";
import { signInAttemptCounts, trackingGuessCounts, type AttemptCountsTable } from "../../../db/schema";

export interface AttemptCount {
  totalHits: number;
  resetTime: Date;
}

export class SignInAttemptStore {
  private windowMs = 15 * 60_000;
  /** the counts are shared by every process through the database */
  readonly localKeys = false;

  constructor(
    protected readonly db: DbOrTx,
    private readonly table: AttemptCountsTable = signInAttemptCounts,
  ) {}

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
    const over = sql`${this.table.resetAt} <= ${now.toISOString()}::timestamptz`;
    const [row] = await this.db
      .insert(this.table)
      .values({ key, hits: 1, resetAt })
      .onConflictDoUpdate({
        target: this.table.key,
        set: {
          hits: sql`CASE WHEN ${over} THEN 1 ELSE ${this.table.hits} + 1 END`,
          resetAt: sql`CASE WHEN ${over} THEN excluded.reset_at ELSE ${this.table.resetAt} END`,
        },
      })
      .returning({ hits: this.table.hits, resetAt: this.table.resetAt });
    return { totalHits: row!.hits, resetTime: row!.resetAt };
  }

  /** The count of `key` in its window now, if it has one (read only: the tracking limiter asks before every page). */
  async get(key: string): Promise<AttemptCount | undefined> {
    const [row] = await this.db
      .select({ hits: this.table.hits, resetAt: this.table.resetAt })
      .from(this.table)
      .where(and(eq(this.table.key, key), gt(this.table.resetAt, new Date())));
    return row ? { totalHits: row.hits, resetTime: row.resetAt } : undefined;
  }

  /** An attempt that succeeded is taken back. */
  async decrement(key: string): Promise<void> {
    await this.db
      .update(this.table)
      .set({ hits: sql`greatest(${this.table.hits} - 1, 0)` })
      .where(and(eq(this.table.key, key), gt(this.table.resetAt, new Date())));
  }

  async resetKey(key: string): Promise<void> {
    await this.db.delete(this.table).where(eq(this.table.key, key));
  }
}

/** An address's row as kept: its hits and the end of its window (0: no row). */
type KeptCount = { hits: number; resetAt: number };

// the tracking guesses of each address asked for, kept with the change feed: migration 0043's row
// trigger names the address of any count written or removed, and a TRUNCATE forgets them all
const guessesKept = keptPer<string, KeptCount>((payload, kept) => {
  if (payload.startsWith("tracking_guesses:")) kept.delete(payload.slice("tracking_guesses:".length));
  else if (payload === "tracking_guesses" || payload === "all") kept.clear();
});

/**
 * Tracking links that opened nothing, per address: the sign-in store over its own table. The
 * limiter reads an address's count before every tracking page, and a receiver's address has none:
 * where the database has a change feed, the row (or that there is none) is kept, so a page view
 * shares the feed's sync instead of a statement of its own. The window is judged on each read.
 */
export class TrackingGuessStore extends SignInAttemptStore {
  constructor(db: DbOrTx) {
    super(db, trackingGuessCounts);
  }

  override async get(key: string): Promise<AttemptCount | undefined> {
    const kept = guessesKept(changeFeedOf(this.db));
    if (!kept) return super.get(key);
    const count = (await readThrough(kept, key, async () => {
      const [row] = await this.db.select({ hits: trackingGuessCounts.hits, resetAt: trackingGuessCounts.resetAt }).from(trackingGuessCounts).where(eq(trackingGuessCounts.key, key));
      return { hits: row?.hits ?? 0, resetAt: row?.resetAt.getTime() ?? 0 };
    }))!;
    return count.resetAt > Date.now() ? { totalHits: count.hits, resetTime: new Date(count.resetAt) } : undefined;
  }
}

/** The cleanup job's part: counts whose window is over. */
export async function deleteExpiredAttemptCounts(db: DbOrTx, now = new Date()): Promise<number> {
  let removed = 0;
  for (const table of [signInAttemptCounts, trackingGuessCounts]) {
    removed += (await db.delete(table).where(lte(table.resetAt, now)).returning({ key: table.key })).length;
  }
  return removed;
}
