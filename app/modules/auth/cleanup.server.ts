import type { DbOrTx } from "../../../db/client.server";
import { deleteExpiredResetTokens, deleteOldSignInAudits } from "./auth.server";
import { deleteExpiredSessions } from "./sessions.server";
import { deleteExpiredAttemptCounts } from "./sign-in-counts.server";

export interface CleanupResult {
  sessions: number;
  resetTokens: number;
  signInAudits: number;
  attemptCounts: number;
}

/**
 * Removes expired sessions, expired reset links, sign-in audits past retention and per-address
 * attempt counts whose window is over.
 * Idempotent: a second run at the same moment finds nothing left to remove.
 */
export async function runCleanup(
  db: DbOrTx,
  now: Date,
  progress: (pct: number, message: string) => Promise<void> = async () => {},
): Promise<CleanupResult> {
  const sessions = await deleteExpiredSessions(db, now);
  await progress(33, "Removed expired sessions");
  const resetTokens = await deleteExpiredResetTokens(db, now);
  await progress(66, "Removed expired reset links");
  const signInAudits = await deleteOldSignInAudits(db, now);
  const attemptCounts = await deleteExpiredAttemptCounts(db, now);
  return { sessions, resetTokens, signInAudits, attemptCounts };
}
