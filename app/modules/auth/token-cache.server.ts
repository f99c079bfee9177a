/**
 * API callers' users (Bearer `authentication_token`) kept in memory between requests (issue 32),
 * as session-cache.server.ts keeps browsers' sessions and under the same rule (db/kept.server.ts):
 * served only after the process's change feed has synced from within the request, so a changed or
 * removed token, a disabled user or customer, a role change or a customer switch takes effect on
 * the next call, on every web process (migration 0038's triggers name the user, or everything).
 * Kept by the token's SHA-256, so the tokens themselves are not held in memory.
 */
import { changeFeedOf, type DbOrTx } from "../../../db/client.server";
import { keptPer, readThrough } from "../../../db/kept.server";
import { loadCurrentUserByToken, type CurrentUser } from "./current-user.server";
import { forgetUsers } from "./session-cache.server";
import { tokenDigest } from "./tokens.server";

const tokensKept = keptPer<string, CurrentUser>((payload, kept) => forgetUsers(payload, kept, (user) => user.id));

/** The user whose token this is (null: none, or one who may not sign in), kept where a change feed allows. */
export async function userOfToken(db: DbOrTx, token: string): Promise<CurrentUser | null> {
  const user = await readThrough(tokensKept(changeFeedOf(db)), tokenDigest(token), async () => (await loadCurrentUserByToken(db, token)) ?? undefined);
  // a copy: the kept user is frozen and shared, and a request may replace its own user's fields
  return user ? { ...user } : null;
}
