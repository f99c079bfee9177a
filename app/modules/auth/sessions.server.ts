import { and, eq, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { sessions } from "../../../db/schema";
import type { CallRequest } from "../../utils/http.server";
import { loadSessionWithUser, sessionTimeoutMinutes, type CurrentUser, type SessionWithUser } from "./current-user.server";
import type { SessionCache } from "./session-cache.server";
import { newToken, tokenDigest } from "./tokens.server";

export const SESSION_COOKIE = "fd_session";
/** "Remember me" keeps a session across browser restarts and past the idle timeout for this long. */
export const REMEMBER_ME_DAYS = 14;
/** Longest a session without "remember me" may live, however active. */
const MAX_SESSION_HOURS = 24;
/** last_seen_at is written at most this often, so reads do not each cost a write. */
const TOUCH_EVERY_MS = 60_000;

export function sessionCookie(token: string, options: { rememberMe: boolean; secure: boolean }): string {
  const parts = [`${SESSION_COOKIE}=${token}`, "Path=/", "HttpOnly", "SameSite=Lax"];
  if (options.secure) parts.push("Secure");
  if (options.rememberMe) parts.push(`Max-Age=${REMEMBER_ME_DAYS * 24 * 3600}`);
  return parts.join("; ");
}

export function clearSessionCookie(secure: boolean): string {
  return [`${SESSION_COOKIE}=`, "Path=/", "HttpOnly", "SameSite=Lax", "Max-Age=0", ...(secure ? ["Secure"] : [])].join("; ");
}

export function readSessionToken(request: Pick<CallRequest, "headers">): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === SESSION_COOKIE) return rest.join("=") || null;
  }
  return null;
}

/** Starts a new session (a fresh token at every sign-in, so a planted cookie is never promoted). */
export async function createSession(
  db: DbOrTx,
  userId: number,
  options: { rememberMe: boolean; ip?: string | null; userAgent?: string | null; now?: Date },
): Promise<string> {
  const now = options.now ?? new Date();
  const token = newToken();
  const expiresAt = new Date(
    now.getTime() + (options.rememberMe ? REMEMBER_ME_DAYS * 24 * 3600_000 : MAX_SESSION_HOURS * 3600_000),
  );
  await db.insert(sessions).values({
    id: tokenDigest(token),
    userId,
    rememberMe: options.rememberMe,
    createdAt: now,
    lastSeenAt: now,
    expiresAt,
    ip: options.ip ?? null,
    userAgent: options.userAgent?.slice(0, 300) ?? null,
  });
  return token;
}

/** What a session's state allows now: to serve, to serve after writing last_seen_at, or nothing. */
function sessionState({ session, user, homeCustomerOptions }: SessionWithUser, now: Date): "expired" | "touch" | "live" {
  const idleLimitMs = sessionTimeoutMinutes(homeCustomerOptions) * 60_000;
  const expired =
    !user ||
    session.expiresAt.getTime() <= now.getTime() ||
    (!session.rememberMe && now.getTime() - session.lastSeenAt.getTime() > idleLimitMs);
  if (expired) return "expired";
  return now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS ? "touch" : "live";
}

/**
 * The signed-in user of a live session, or null, in one query (loadSessionWithUser). A session
 * ends at its expiry, when the user is disabled or their customer disabled, and, unless
 * it was started with "remember me", after the home customer's session_timeout minutes without a
 * request. With a `cache` (session-cache.server.ts) a kept session that is live by its kept state
 * answers without a query; any other case is decided on the database's rows.
 */
export async function resolveSession(db: DbOrTx, token: string, now = new Date(), cache?: SessionCache | null): Promise<CurrentUser | null> {
  const id = tokenDigest(token);
  const kept = await cache?.get(id);
  // a copy: the kept user is frozen and shared, and a request may replace its own user's fields
  if (kept && sessionState(kept, now) === "live") return { ...kept.user };
  const mark = cache?.mark() ?? 0;
  const found = await loadSessionWithUser(db, id);
  if (!found) return null;
  const state = sessionState(found, now);
  if (state === "expired") {
    await db.delete(sessions).where(eq(sessions.id, id));
    return null;
  }
  if (state === "touch") {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id));
    found.session = { ...found.session, lastSeenAt: now };
  }
  const user = found.user!;
  cache?.keep(id, { ...found, user: { ...user } }, mark);
  return user;
}

export async function destroySession(db: DbOrTx, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, tokenDigest(token)));
}

/** Ends every session of a user (password change, disabling), optionally keeping one. */
export async function destroyUserSessions(db: DbOrTx, userId: number, keepToken?: string): Promise<void> {
  await db
    .delete(sessions)
    .where(
      keepToken
        ? and(eq(sessions.userId, userId), sql`${sessions.id} <> ${tokenDigest(keepToken)}`)
        : eq(sessions.userId, userId),
    );
}

export async function deleteExpiredSessions(db: DbOrTx, now = new Date()): Promise<number> {
  const deleted = await db.delete(sessions).where(lt(sessions.expiresAt, now)).returning({ id: sessions.id });
  return deleted.length;
}
