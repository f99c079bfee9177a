import type { DbOrTx } from "../../../db/client.server";
import { deleteExpiredResetTokens, deleteOldSignInAudits } from "./auth.server";
import { deleteExpiredSessions } from "./sessions.server";

export interface CleanupResult {
  sessions: number;
  resetTokens: number;
  signInAudits: number;
}

/**
 * Removes expired sessions, expired reset links and sign-in audits past retention.
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
  return { sessions, resetTokens, signInAudits };
}
