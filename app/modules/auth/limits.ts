/**
 * Sign-in limits (README "Sign-in limits"): failed attempts count per client address (the
 * server's limiter, server/sign-in-limits.ts) and per account (here); successful ones never count.
 */

/** Failed sign-ins in a row that lock an account. */
export const LOCK_AFTER_FAILURES = 10;
/** How long a lock lasts; an administrator can end it sooner. */
export const LOCK_MINUTES = 15;

export const TOO_MANY_ATTEMPTS = "Too many attempts. Please wait a few minutes and try again.";
export const LOCKED_SIGN_IN = `Your account is locked after too many failed sign-ins. Try again in ${LOCK_MINUTES} minutes or ask an administrator.`;

/**
 * Set by the server's limiter on a sign-in page's request from an address over its limit, so the
 * page itself answers with the message (with and without JavaScript). Any such header a client
 * sends is removed first.
 */
export const SIGN_IN_LIMITED_HEADER = "x-freightdesk-sign-in-limited";

export const signInLimited = (request: Request) => request.headers.get(SIGN_IN_LIMITED_HEADER) === "1";

/** Whether an account is locked now: a lock ends LOCK_MINUTES after it began. */
export function isLocked(lockedAt: Date | null | undefined, now = new Date()): boolean {
  return Boolean(lockedAt) && now.getTime() - lockedAt!.getTime() < LOCK_MINUTES * 60_000;
}
