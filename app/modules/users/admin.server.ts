/**
 * Users administration (issue 16 item 4; spec 2 "User", sections 5, 6, 8): staff keep the users
 * of any customer. Every function checks the caller and scopes by the customer in the path, so
 * the /customers/{id}/users screens and /api/customers/{id}/users share the rules; a user of
 * another customer answers 404.
 */
import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { sessions, sites, users, userSites } from "../../../db/schema";
import type { RoleName } from "../../../db/schema/users";
import type { CurrentUser } from "../auth/current-user.server";
import { forbiddenMessage } from "../auth/guard.server";
import { hashPassword } from "../auth/password.server";
import { isSuperAdmin } from "../auth/roles";
import { deliverPublishedNotices } from "../notices/admin.server";
import { customerForStaff } from "../tenancy/customers.server";
import { AppError, type FieldErrors } from "../../utils/errors";
import { sqlState } from "../../utils/http.server";
import { fieldErrorsFrom } from "../../utils/validation";
import { MESSAGES, assignableRoles, roleHasSites, userSchema, type UserAdminJson, type UserInput } from "./admin";

const notFound = () => new AppError("not_found", MESSAGES.notFound);
const invalid = (errors: FieldErrors) => new AppError("invalid", Object.values(errors)[0]?.[0] ?? MESSAGES.saveFailed, errors);

type UserRow = typeof users.$inferSelect;

/** A user's JSON; the authentication token only for super admins (spec 2 section 6). */
function toJson(u: UserRow, siteIds: number[], withToken: boolean): UserAdminJson {
  return {
    id: u.id,
    customer_id: u.customerId,
    email: u.email,
    full_name: u.fullName,
    phone_number: u.phoneNumber,
    role: u.role,
    site_ids: siteIds,
    site_id: u.defaultSiteId,
    zendesk_id: u.zendeskId,
    timezone: u.timezone,
    date_format: u.dateFormat,
    uuid: u.uuid,
    ...(withToken ? { authentication_token: u.authenticationToken } : {}),
    locked_at: u.lockedAt?.toISOString() ?? null,
    disabled: u.disabled,
    password_reset_required: u.passwordResetRequired,
    can_bulkupload: u.canBulkupload,
    can_bulkquote: u.canBulkquote,
    can_book: u.canBook,
    can_export: u.canExport,
    can_reconcile: u.canReconcile,
    can_edit_recipients: u.canEditRecipients,
    super_despatcher: u.superDespatcher,
    despatcher_only: u.despatcherOnly,
    user_options: u.options ?? {},
    last_sign_in_at: u.lastSignInAt?.toISOString() ?? null,
  };
}

async function siteIdsOf(db: DbOrTx, userIds: number[]): Promise<Map<number, number[]>> {
  const map = new Map<number, number[]>();
  if (!userIds.length) return map;
  const rows = await db.select().from(userSites).where(inArray(userSites.userId, userIds)).orderBy(asc(userSites.siteId));
  for (const r of rows) map.set(r.userId, [...(map.get(r.userId) ?? []), r.siteId]);
  return map;
}

/** The users of a customer (staff only), live and disabled alike, by name; `q` filters by name or e-mail. */
export async function listUsers(db: DbOrTx, actor: CurrentUser, customerId: number, q?: string): Promise<UserAdminJson[]> {
  await customerForStaff(db, actor, customerId);
  const like = q ? `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const rows = await db
    .select()
    .from(users)
    .where(and(eq(users.customerId, customerId), like ? or(sql`${users.fullName} ilike ${like}`, sql`${users.email} ilike ${like}`) : undefined))
    .orderBy(asc(sql`lower(${users.fullName})`), asc(users.id));
  const siteMap = await siteIdsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toJson(r, siteMap.get(r.id) ?? [], isSuperAdmin(actor)));
}

async function findUser(db: DbOrTx, customerId: number, userId: number): Promise<UserRow> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, userId), eq(users.customerId, customerId)));
  if (!row) throw notFound();
  return row;
}

/** One user of the customer; 404 for a user of another customer. */
export async function getUser(db: DbOrTx, actor: CurrentUser, customerId: number, userId: number): Promise<UserAdminJson> {
  await customerForStaff(db, actor, customerId);
  const row = await findUser(db, customerId, userId);
  return toJson(row, (await siteIdsOf(db, [row.id])).get(row.id) ?? [], isSuperAdmin(actor));
}

/** The customer's sites, for the screen's choices and the checks. */
export function customerSites(db: DbOrTx, customerId: number) {
  return db.select({ id: sites.id, code: sites.code, name: sites.name }).from(sites).where(eq(sites.customerId, customerId)).orderBy(asc(sites.name));
}

const asObject = (raw: unknown): Record<string, unknown> => (raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {});

/** A stored user as the schema's input (the schema drops the keys it does not take), so an edit sends only what changes. */
const inputOf = (u: UserRow, siteIds: number[]): Record<string, unknown> => ({ ...toJson(u, siteIds, true) });

/**
 * The input checked, every field at once (422 per field): the schema, the role the caller may
 * give, the customer's sites and the default site among them, a unique e-mail. A non-despatcher
 * role drops the sites and the default site (spec 2 section 5).
 */
export async function checkUser(
  db: DbOrTx,
  actor: CurrentUser,
  customerId: number,
  raw: Record<string, unknown>,
  current: UserRow | null,
  options: { siteCodes?: Map<number, string>; passwordGenerated?: boolean } = {},
): Promise<UserInput> {
  const result = userSchema.safeParse(raw);
  const errors: FieldErrors = result.success ? {} : fieldErrorsFrom(result.error);
  if (!result.success) throw invalid(errors);
  const input = { ...result.data };
  if (!current && !input.password && !options.passwordGenerated) errors.password = [MESSAGES.passwordRequired];
  if (!assignableRoles(actor).includes(input.role) && input.role !== current?.role) errors.role = [MESSAGES.roleNotYours];
  if (current?.id === actor.id && input.role !== current.role) errors.role = [MESSAGES.ownRole];
  if (current?.id === actor.id && input.disabled && !current.disabled) errors.disabled = [MESSAGES.disableSelf];
  if (!roleHasSites(input.role)) {
    input.site_ids = [];
    input.site_id = undefined;
  } else {
    input.site_ids = [...new Set(input.site_ids)];
    const known = options.siteCodes ?? new Map((await customerSites(db, customerId)).map((s) => [s.id, s.code]));
    if (input.site_ids.some((id) => !known.has(id))) errors.site_ids = [MESSAGES.site];
    if (input.site_id !== undefined && !input.site_ids.includes(input.site_id)) errors.site_id = [MESSAGES.defaultSite];
  }
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = lower(${input.email})`, current ? sql`${users.id} <> ${current.id}` : undefined));
  if (taken) errors.email = [MESSAGES.emailTaken];
  const token = input.authentication_token;
  if (token && token !== current?.authenticationToken) {
    const [holder] = await db.select({ id: users.id }).from(users).where(eq(users.authenticationToken, token));
    if (holder) errors.authentication_token = [MESSAGES.tokenTaken];
  }
  if (Object.keys(errors).length) throw invalid(errors);
  return input;
}

/** The columns of a checked input (the password apart). */
function columnsOf(input: UserInput) {
  return {
    email: input.email,
    fullName: input.full_name,
    phoneNumber: input.phone_number || null,
    zendeskId: input.zendesk_id || null,
    role: input.role as RoleName,
    defaultSiteId: input.site_id ?? null,
    timezone: input.timezone ?? null,
    dateFormat: input.date_format ?? null,
    disabled: input.disabled ?? false,
    canBulkupload: input.can_bulkupload ?? false,
    canBulkquote: input.can_bulkquote ?? false,
    canBook: input.can_book ?? false,
    canExport: input.can_export ?? false,
    canReconcile: input.can_reconcile ?? false,
    canEditRecipients: input.can_edit_recipients ?? false,
    superDespatcher: input.super_despatcher ?? false,
    despatcherOnly: input.despatcher_only ?? false,
    updatedAt: new Date(),
  };
}

/** A concurrent save of the same e-mail (or token) passes the check and meets the unique index: the same 422. */
function emailRace(error: unknown): never {
  if (sqlState(error) !== "23505") throw error;
  // the driver names the index (postgres.js constraint_name, PGlite constraint)
  let index = "";
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5 && !index; e = (e as { cause?: unknown }).cause, depth++) {
    const named = e as { constraint_name?: unknown; constraint?: unknown };
    index = String(named.constraint_name ?? named.constraint ?? "");
  }
  throw invalid(index === "users_authentication_token_key" ? { authentication_token: [MESSAGES.tokenTaken] } : { email: [MESSAGES.emailTaken] });
}

function assertTokenChange(actor: CurrentUser, raw: Record<string, unknown>, current: UserRow | null) {
  if (!("authentication_token" in raw) || isSuperAdmin(actor)) return;
  const sent = raw.authentication_token === "" ? null : raw.authentication_token;
  if (sent !== (current?.authenticationToken ?? null)) throw new AppError("forbidden", MESSAGES.tokenSuperAdminOnly, { authentication_token: [MESSAGES.tokenSuperAdminOnly] });
}

/**
 * Inserts a checked user with their sites in one transaction (a user never exists without the
 * sites they were given), and gives them the customer's published notices.
 */
export async function insertUser(db: DbOrTx, customerId: number, input: UserInput, passwordHash: string, passwordResetRequired = false): Promise<UserRow> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(users)
        .values({ ...columnsOf(input), customerId, passwordHash, passwordResetRequired, authenticationToken: input.authentication_token ?? null })
        .returning();
      if (input.site_ids.length) await tx.insert(userSites).values(input.site_ids.map((siteId) => ({ userId: row!.id, siteId })));
      await deliverPublishedNotices(tx, row!.id);
      return row!;
    });
  } catch (e) {
    emailRace(e);
  }
}

/** POST: a new user of the customer (201 from the route); 422 per field. */
export async function createUser(db: DbOrTx, actor: CurrentUser, customerId: number, raw: unknown): Promise<UserAdminJson> {
  await customerForStaff(db, actor, customerId);
  const body = asObject(raw);
  assertTokenChange(actor, body, null);
  const input = await checkUser(db, actor, customerId, body, null);
  const row = await insertUser(db, customerId, input, await hashPassword(input.password!));
  return toJson(row, input.site_ids, isSuperAdmin(actor));
}

/**
 * PUT: the fields given replace the stored ones. A user may only be edited by someone who could
 * give their role (an admin does not reset a super admin's password).
 */
export async function updateUser(db: DbOrTx, actor: CurrentUser, customerId: number, userId: number, raw: unknown): Promise<UserAdminJson> {
  await customerForStaff(db, actor, customerId);
  const current = await findUser(db, customerId, userId);
  if (!assignableRoles(actor).includes(current.role)) throw new AppError("forbidden", forbiddenMessage(actor));
  const body = asObject(raw);
  assertTokenChange(actor, body, current);
  const stored = (await siteIdsOf(db, [userId])).get(userId) ?? [];
  const input = await checkUser(db, actor, customerId, { ...inputOf(current, stored), ...body }, current);
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  try {
    // one transaction: the sites replaced together, and a disabled user (or one whose password
    // was set for them) keeps no session that a request racing the save could still use
    await db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({
          ...columnsOf(input),
          authenticationToken: input.authentication_token ?? null,
          ...(passwordHash ? { passwordHash, passwordResetRequired: false } : {}),
        })
        .where(eq(users.id, userId));
      await tx.delete(userSites).where(eq(userSites.userId, userId));
      if (input.site_ids.length) await tx.insert(userSites).values(input.site_ids.map((siteId) => ({ userId, siteId })));
      if (input.disabled || (passwordHash && userId !== actor.id)) await tx.delete(sessions).where(eq(sessions.userId, userId));
    });
  } catch (e) {
    emailRace(e);
  }
  return getUser(db, actor, customerId, userId);
}

/** Ends a sign-in lock of a user of this customer (the screen's Unlock without JavaScript). */
export async function unlockCustomerUser(db: DbOrTx, actor: CurrentUser, customerId: number, userId: number): Promise<void> {
  await customerForStaff(db, actor, customerId);
  const [row] = await db
    .update(users)
    .set({ lockedAt: null, failedSignIns: 0, updatedAt: new Date() })
    .where(and(eq(users.id, userId), eq(users.customerId, customerId)))
    .returning({ id: users.id });
  if (!row) throw notFound();
}
