import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { Authenticator } from "remix-auth";
import { Strategy } from "remix-auth/strategy";
import type { DbOrTx } from "../../../db/client.server";
import { customers, passwordResetTokens, signInAudits, users } from "../../../db/schema";
import { AppError } from "../../utils/errors";
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
import { createSession, destroyUserSessions } from "./sessions.server";
import { newToken, tokenDigest } from "./tokens.server";
import { parseOrThrow } from "../../utils/validation";
import { readBody } from "../../utils/http.server";

export const RESET_TOKEN_HOURS = 6;
export const SIGN_IN_AUDIT_RETENTION_DAYS = 90;

export interface ClientInfo {
  ip?: string | null;
  userAgent?: string | null;
}

export interface SignedIn {
  userId: number;
  token: string;
  rememberMe: boolean;
}

/**
 * Checks an e-mail and password and opens a session. Unknown e-mail and wrong password give
 * the same message and take the same time; every attempt is audited.
 */
export async function signIn(db: DbOrTx, input: SignInInput, client: ClientInfo = {}): Promise<SignedIn> {
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
    .where(sql`lower(${users.email}) = ${input.email.toLowerCase()}`);

  const passwordOk = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), input.password);
  const audit = (success: boolean, reason?: string) =>
    db.insert(signInAudits).values({ email: input.email.toLowerCase(), userId: user?.id ?? null, success, reason, ip: client.ip });

  if (!user || !passwordOk) {
    await audit(false, user ? "bad_password" : "unknown_email");
    throw new AppError("unauthenticated", INVALID_SIGN_IN);
  }
  if (user.disabled || user.lockedAt || user.customerDisabled) {
    await audit(false, "disabled");
    throw new AppError("unauthenticated", DISABLED_SIGN_IN);
  }
  const token = await createSession(db, user.id, { rememberMe: input.remember_me, ...client });
  await db.update(users).set({ lastSignInAt: new Date() }).where(eq(users.id, user.id));
  await audit(true);
  return { userId: user.id, token, rememberMe: input.remember_me };
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
  };
}

/**
 * Starts a password reset. Always answers the same message, whether or not the user exists,
 * so the form cannot be used to discover accounts.
 */
export async function requestPasswordReset(
  db: DbOrTx,
  mailer: Mailer,
  raw: unknown,
  baseUrl: string,
): Promise<{ message: string }> {
  const { email } = parseOrThrow(forgotPasswordSchema, raw);
  const [user] = await db
    .select({ id: users.id, email: users.email, fullName: users.fullName, disabled: users.disabled })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  if (user && !user.disabled) {
    const token = newToken();
    await db.insert(passwordResetTokens).values({
      id: tokenDigest(token),
      userId: user.id,
      expiresAt: new Date(Date.now() + RESET_TOKEN_HOURS * 3600_000),
    });
    const link = `${baseUrl.replace(/\/$/, "")}/reset_password?token=${encodeURIComponent(token)}`;
    await mailer.send({
      to: user.email,
      subject: "Reset your password",
      text: `Hello ${user.fullName},\n\nSomeone asked to reset the password of your account. To choose a new password, open:\n\n${link}\n\nThe link works once and expires in ${RESET_TOKEN_HOURS} hours. If you did not ask for this, ignore this e-mail; your password stays as it is.\n`,
    });
  }
  return { message: forgotPasswordMessage(email) };
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
