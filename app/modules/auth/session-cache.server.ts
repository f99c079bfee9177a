/**
 * Signed-in users kept in memory between requests (issue 32, docs/decisions/043), so a request
 * need not load its session and user from the database every time.
 *
 * What is kept is served only as db/kept.server.ts allows: after the process's change feed has
 * synced from within the request. Migration 0038's triggers tell every process of any change to a
 * session, a user, a customer, a site or a user's sites. So a revoked session, a disabled user or
 * customer, a role change or a customer switch takes effect on the next request, on every web
 * process. Anything the kept state does not plainly allow (expiry, the idle limit, last_seen_at to
 * write) goes back to the database (sessions.server.ts).
 */
import { changeFeedOf, type DbOrTx } from "../../../db/client.server";
import { keptPer, type FeedKept } from "../../../db/kept.server";
import type { SessionWithUser } from "./current-user.server";

export type KeptSession = SessionWithUser & { user: NonNullable<SessionWithUser["user"]> };
export type SessionCache = FeedKept<string, KeptSession>;

/**
 * What a kept signed-in user forgets on a notification (migration 0038): the entries of a user
 * whose row changed, and everything on "all". Shared by the sessions and the API callers kept.
 */
export function forgetUsers<V>(payload: string, kept: Map<string, V>, userIdOf: (value: V) => number): void {
  if (payload.startsWith("users:")) {
    const userId = Number(payload.slice("users:".length));
    for (const [key, value] of kept) if (userIdOf(value) === userId) kept.delete(key);
  } else if (payload === "all") {
    kept.clear();
  }
}

const sessionsKept = keptPer<string, KeptSession>((payload, kept) => {
  if (payload.startsWith("sessions:")) kept.delete(payload.slice("sessions:".length));
  else forgetUsers(payload, kept, (entry) => entry.user.id);
});

/** The process's kept sessions over `db`'s database, or null where there is no change feed (PGlite, a transaction). */
export function sessionCacheOf(db: DbOrTx): SessionCache | null {
  return sessionsKept(changeFeedOf(db));
}
