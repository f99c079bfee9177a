import { and, count, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { Authenticator } from "remix-auth";
import { Strategy } from "remix-auth/strategy";
import type { DbOrTx } from "../../../db/client.server";
import { customers, passwordResetTokens, signInAudits, users } from "../../../db/schema";
import { AppError, notFound } from "../../utils/errors";
import type { CurrentUser } from "./current-user.server";
import { LOCK_AFTER_FAILURES, LOCK_MINUTES, LOCKED_SIGN_IN, isLocked } from "./limits";
import { isAdmin } from "./roles";
import type { Mailer } from "../mail/mailer.server";
import { dummyPasswordHash, hashPassword, verifyPassword } from "./password.server";
import {
  DISABLED_SIGN_IN,
  INVALID_SIGN_IN,
  changePasswordSchema,
  forgotPasswordMessage,
  forgotPasswordSchema,
  resetPasswordSchema,
  signInSchema,
  type SignInInput,
} from "./schemas";
import { createSession, destroySession, destroyUserSessions, readSessionToken } from "./sessions.server";
import { newToken, tokenDigest } from "./tokens.server";
import { parseOrThrow } from "../../utils/validation";
import { readBody } from "../../utils/http.server";

export const RESET_TOKEN_HOURS = 6;
export const SIGN_IN_AUDIT_RETENTION_DAYS = 90;

export interface ClientInfo {
  ip?: string | null;
  userAgent?: string | null;
  /** the session token the browser still holds, ended at a successful sign-in */
  previousToken?: string | null;
}

export interface SignedIn {
  userId: number;
  token: string;
  rememberMe: boolean;
}

/**
 * Checks an e-mail and password and opens a session. Unknown e-mail and wrong password give
 * the same message and take the same time; every attempt is audited. LOCK_AFTER_FAILURES wrong
 * passwords in a row lock the account for LOCK_MINUTES (a locked account is refused even with the
 * right password); a successful sign-in clears the count.
 */
export async function signIn(db: DbOrTx, input: SignInInput, client: ClientInfo = {}): Promise<SignedIn> {
  const now = new Date();
  const email = input.email.toLowerCase();
  const [user] = await db
    .select({
      id: users.id,
      passwordHash: users.passwordHash,
      disabled: users.disabled,
      lockedAt: users.lockedAt,
      customerDisabled: customers.disabled,
    })
    .from(users)
    .innerJoin(customers, eq(customers.id, users.customerId))
    .where(sql`lower(${users.email}) = ${email}`);

  const passwordOk = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), input.password);
  const audit = (success: boolean, reason?: string) =>
    db.insert(signInAudits).values({ email, userId: user?.id ?? null, success, reason, ip: client.ip });

  if (user && isLocked(user.lockedAt, now)) {
    await audit(false, "locked");
    throw new AppError("unauthenticated", LOCKED_SIGN_IN);
  }
  if (!user || !passwordOk) {
    // both statements for either (the account's count changes nothing for an unknown e-mail), so
    // both cost the same; an unknown e-mail's lock is read from its audited failures
    const accountLocked = await countFailure(db, email, now);
    const unknownLockedNow = await unknownLocked(db, email, now);
    const lockedNow = user ? accountLocked : unknownLockedNow;
    await audit(false, !user ? "unknown_email" : lockedNow ? "locked_now" : "bad_password");
    throw new AppError("unauthenticated", lockedNow ? LOCKED_SIGN_IN : INVALID_SIGN_IN);
  }
  if (user.disabled || user.customerDisabled) {
    await audit(false, "disabled");
    throw new AppError("unauthenticated", DISABLED_SIGN_IN);
  }
  const token = await createSession(db, user.id, { rememberMe: input.remember_me, ip: client.ip, userAgent: client.userAgent });
  // the browser's earlier session ends here, so a cookie copied before this sign-in is worthless
  if (client.previousToken) await destroySession(db, client.previousToken);
  await db.update(users).set({ lastSignInAt: now, failedSignIns: 0, lockedAt: null }).where(eq(users.id, user.id));
  await audit(true);
  return { userId: user.id, token, rememberMe: input.remember_me };
}

/**
 * Whether an e-mail no account has would be locked now, were it an account: LOCK_AFTER_FAILURES
 * failures in LOCK_MINUTES (this one included, from the audit). An unknown e-mail then answers
 * the lock message as a real account does, so the message never tells which accounts exist
 * (issue 35 finding 10).
 */
async function unknownLocked(db: DbOrTx, email: string, now: Date): Promise<boolean> {
  const since = new Date(now.getTime() - LOCK_MINUTES * 60_000);
  const [row] = await db
    .select({ n: count() })
    .from(signInAudits)
    .where(and(eq(signInAudits.email, email), eq(signInAudits.success, false), gt(signInAudits.at, since)));
  return (row?.n ?? 0) + 1 >= LOCK_AFTER_FAILURES;
}

/**
 * Counts a failed sign-in against the account of `email` in one statement (so concurrent failures
 * cannot each read the same count and all stay under the limit), and locks it at the
 * LOCK_AFTER_FAILURES-th. A lock that has run out starts the count again. Answers whether the
 * account is locked now.
 */
async function countFailure(db: DbOrTx, email: string, now: Date): Promise<boolean> {
  const expired = new Date(now.getTime() - LOCK_MINUTES * 60_000);
  const count = sql`CASE WHEN ${users.lockedAt} IS NOT NULL AND ${users.lockedAt} <= ${expired.toISOString()}::timestamptz THEN 1 ELSE ${users.failedSignIns} + 1 END`;
  const [row] = await db
    .update(users)
    .set({
      failedSignIns: count,
      lockedAt: sql`CASE WHEN ${count} >= ${LOCK_AFTER_FAILURES} THEN ${now.toISOString()}::timestamptz ELSE NULL END`,
    })
    .where(sql`lower(${users.email}) = ${email}`)
    .returning({ lockedAt: users.lockedAt });
  return isLocked(row?.lockedAt, now);
}

/**
 * Ends a lock before its time (an administrator of the user's customer: the provider's staff
 * working in it); 404 for a user of another customer.
 */
export async function unlockUser(db: DbOrTx, actor: CurrentUser, userId: number): Promise<void> {
  if (!isAdmin(actor)) throw new AppError("forbidden", "Only an administrator can unlock a user");
  const [row] = await db
    .update(users)
    .set({ lockedAt: null, failedSignIns: 0, updatedAt: new Date() })
    .where(and(eq(users.id, userId), eq(users.customerId, actor.customer.id)))
    .returning({ id: users.id });
  if (!row) throw notFound("User");
}

/** remix-auth strategy: reads the login form (or the JSON body of POST /users/sign_in). */
class PasswordStrategy extends Strategy<SignedIn, { input: SignInInput; client: ClientInfo }> {
  name = "password";

  async authenticate(request: Request): Promise<SignedIn> {
    const body = await readBody(request);
    const raw = body.user && typeof body.user === "object" ? body.user : body;
    const input = parseOrThrow(signInSchema, raw);
    return this.verify({ input, client: clientInfo(request) });
  }
}

export function authenticator(db: DbOrTx): Authenticator<SignedIn> {
  const auth = new Authenticator<SignedIn>();
  auth.use(new PasswordStrategy(({ input, client }) => signIn(db, input, client)));
  return auth;
}

export function clientInfo(request: Request): ClientInfo {
  return {
    ip: request.headers.get("x-client-ip") ?? request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() ?? null,
    userAgent: request.headers.get("user-agent"),
    previousToken: readSessionToken(request),
  };
}

/**
 * Starts a password reset. Always answers the same message, whether or not the user exists,
 * so the form cannot be used to discover accounts; and both cases cost the same: a token is made
 * and hashed, and one statement writes (the request's audit row always, the token only if the user
 * exists: a write in both, as a commit's flush was most of the measured difference), and the
 * e-mail is sent after the answer (`mail`, for whoever wants to wait for it), so the answer's
 * timing says nothing of the address.
 */
export async function requestPasswordReset(
  db: DbOrTx,
  mailer: Mailer,
  raw: unknown,
  baseUrl: string,
  client: ClientInfo = {},
): Promise<{ message: string; mail: Promise<void> }> {
  const { email } = parseOrThrow(forgotPasswordSchema, raw);
  const token = newToken();
  const expiresAt = new Date(Date.now() + RESET_TOKEN_HOURS * 3600_000);
  const result = (await db.execute(sql`
    WITH target AS (
      SELECT ${users.id} AS id, ${users.email} AS email, ${users.fullName} AS full_name FROM ${users}
      WHERE lower(${users.email}) = ${email.toLowerCase()} AND NOT ${users.disabled}
    ), stored AS (
      INSERT INTO ${passwordResetTokens} (id, user_id, expires_at)
      SELECT ${tokenDigest(token)}, id, ${expiresAt.toISOString()}::timestamptz FROM target
    ), audited AS (
      INSERT INTO ${signInAudits} (email, user_id, success, reason, ip)
      SELECT ${email.toLowerCase()}, (SELECT id FROM target), EXISTS (SELECT 1 FROM target), 'password_reset_request', ${client.ip ?? null}
    )
    SELECT email, full_name FROM target`)) as unknown as { rows?: unknown[] } | unknown[];
  const [user] = (Array.isArray(result) ? result : (result.rows ?? [])) as { email: string; full_name: string }[];
  const link = `${baseUrl.replace(/\/$/, "")}/reset_password?token=${encodeURIComponent(token)}`;
  const mail = user
    ? mailer
        .send({
          to: user.email,
          subject: "Reset your password",
          text: `Hello ${user.full_name},\n\nSomeone asked to reset the password of your account. To choose a new password, open:\n\n${link}\n\nThe link works once and expires in ${RESET_TOKEN_HOURS} hours. If you did not ask for this, ignore this e-mail; your password stays as it is.\n`,
        })
        .catch((error: unknown) => console.error("[mail] password reset e-mail failed:", error))
    : Promise.resolve();
  return { message: forgotPasswordMessage(email), mail };
}

/** Sets a new password from a reset link, ends every session, and clears a forced reset. */
export async function resetPassword(db: DbOrTx, raw: unknown): Promise<{ userId: number }> {
  const input = parseOrThrow(resetPasswordSchema, raw);
  const now = new Date();
  // claim the link in one statement, so two requests with it cannot both succeed
  const [row] = await db
    .update(passwordResetTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(passwordResetTokens.id, tokenDigest(input.token)),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, now),
      ),
    )
    .returning();
  if (!row) throw new AppError("invalid", "This reset link is invalid or has expired.", { token: ["This reset link is invalid or has expired."] });
  await voidResetLinks(db, row.userId, now);
  await db
    .update(users)
    .set({ passwordHash: await hashPassword(input.password), passwordResetRequired: false, updatedAt: now })
    .where(eq(users.id, row.userId));
  await destroyUserSessions(db, row.userId);
  return { userId: row.userId };
}

/** Password change on /users/edit; other sessions of the user end, this one stays. */
export async function changePassword(db: DbOrTx, userId: number, raw: unknown, keepToken?: string): Promise<void> {
  const input = parseOrThrow(changePasswordSchema, raw);
  const [user] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
  if (!user || !(await verifyPassword(user.passwordHash, input.current_password))) {
    throw new AppError("invalid", "Current password is invalid", { current_password: ["Current password is invalid"] });
  }
  if (await verifyPassword(user.passwordHash, input.password)) {
    throw new AppError("invalid", "New password must differ from the current password", {
      password: ["New password must differ from the current password"],
    });
  }
  await db
    .update(users)
    .set({ passwordHash: await hashPassword(input.password), passwordResetRequired: false, updatedAt: new Date() })
    .where(eq(users.id, userId));
  await destroyUserSessions(db, userId, keepToken);
  await voidResetLinks(db, userId);
}

/** After any password change, reset links sent earlier stop working. */
async function voidResetLinks(db: DbOrTx, userId: number, now = new Date()): Promise<void> {
  await db
    .update(passwordResetTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
}

export async function deleteOldSignInAudits(db: DbOrTx, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - SIGN_IN_AUDIT_RETENTION_DAYS * 24 * 3600_000);
  const rows = await db.delete(signInAudits).where(lt(signInAudits.at, cutoff)).returning({ id: signInAudits.id });
  return rows.length;
}

export async function deleteExpiredResetTokens(db: DbOrTx, now = new Date()): Promise<number> {
  const rows = await db
    .delete(passwordResetTokens)
    .where(lt(passwordResetTokens.expiresAt, now))
    .returning({ id: passwordResetTokens.id });
  return rows.length;
}
