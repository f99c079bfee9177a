/**
 * Notification types (issue 14 item 6; spec 2): the kinds of notification a customer's
 * preferences choose from ("Email", "SMS" with 160 characters). Super admins only (spec 2
 * section 6); every function checks, so the screens and /api/notification_types share one rule.
 */
import { and, asc, count, eq, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { notificationConfigs, notificationTypes } from "../../../db/schema";
import { authorize } from "../auth/guard.server";
import type { CurrentUser } from "../auth/current-user.server";
import { homeButtons } from "../auth/roles";
import { AppError, type FieldErrors } from "../../utils/errors";
import { fieldErrorsFrom } from "../../utils/validation";
import { sqlState } from "../../utils/http.server";
import { MESSAGES, notificationTypeSchema, type NotificationTypeInput, type NotificationTypeJson } from "./types";

/** Throws 403 unless the user may keep notification types (super admins). */
export function assertTypeAdmin(user: CurrentUser): void {
  authorize(user, homeButtons.notificationTypes);
}

// spelled out: in a one-table select drizzle leaves columns unqualified, and "id" inside would be the config's
const usedBy = sql<number>`(select count(*)::int from notification_configs c where c.notification_type_id = "notification_types"."id")`;

const columns = {
  id: notificationTypes.id,
  name: notificationTypes.name,
  maxLength: notificationTypes.maxLength,
  fieldName: notificationTypes.fieldName,
  usedBy,
};
type Row = { id: number; name: string; maxLength: number | null; fieldName: "email" | "phone"; usedBy: number };

const toJson = (r: Row): NotificationTypeJson => ({ id: r.id, name: r.name, max_length: r.maxLength, field_name: r.fieldName, used_by: Number(r.usedBy) });

const notFound = () => new AppError("not_found", MESSAGES.notFound);

/** Every notification type, by name (case aside), then id. */
export async function listNotificationTypes(db: DbOrTx, user: CurrentUser): Promise<NotificationTypeJson[]> {
  assertTypeAdmin(user);
  const rows = await db.select(columns).from(notificationTypes).orderBy(asc(sql`lower(${notificationTypes.name})`), asc(notificationTypes.name), asc(notificationTypes.id));
  return rows.map(toJson);
}

async function findType(db: DbOrTx, id: number): Promise<NotificationTypeJson | null> {
  const [row] = await db.select(columns).from(notificationTypes).where(eq(notificationTypes.id, id));
  return row ? toJson(row) : null;
}

/** One notification type; 404 when there is none with this id. */
export async function getNotificationType(db: DbOrTx, user: CurrentUser, id: number): Promise<NotificationTypeJson> {
  assertTypeAdmin(user);
  const found = await findType(db, id);
  if (!found) throw notFound();
  return found;
}

const nameTaken = () => new AppError("invalid", MESSAGES.nameTaken, { name: [MESSAGES.nameTaken] });

/** Names are unique whatever their case ("sms" would be a second "SMS"). */
async function isNameTaken(db: DbOrTx, name: string, exceptId: number | null): Promise<boolean> {
  const sameName = sql`lower(${notificationTypes.name}) = lower(${name})`;
  const [clash] = await db
    .select({ id: notificationTypes.id })
    .from(notificationTypes)
    .where(exceptId ? and(sameName, ne(notificationTypes.id, exceptId)) : sameName)
    .limit(1);
  return Boolean(clash);
}

/** The input checked, every field at once: a taken name is told beside a bad max_length, not after it is fixed. 422 per field. */
async function checkInput(db: DbOrTx, raw: Record<string, unknown>, exceptId: number | null): Promise<NotificationTypeInput> {
  const result = notificationTypeSchema.safeParse(raw);
  const errors: FieldErrors = result.success ? {} : fieldErrorsFrom(result.error);
  const name = result.success ? result.data.name : notificationTypeSchema.shape.name.safeParse(raw.name).data;
  if (name !== undefined && !errors.name && (await isNameTaken(db, name, exceptId))) errors.name = [MESSAGES.nameTaken];
  const first = Object.values(errors)[0]?.[0];
  if (first || !result.success) throw new AppError("invalid", first ?? "Invalid input", errors);
  return result.data;
}

/** A write that lost a race for its name to another (the unique index decides) is the same field error. */
async function writing<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (sqlState(error) === "23505") throw nameTaken();
    throw error;
  }
}

const values = (input: NotificationTypeInput) => ({ name: input.name, maxLength: input.max_length, fieldName: input.field_name });

/** A new notification type from { name, max_length?, field_name }; 422 per field. */
export async function createNotificationType(db: DbOrTx, user: CurrentUser, raw: unknown): Promise<NotificationTypeJson> {
  assertTypeAdmin(user);
  const input = await checkInput(db, raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {}, null);
  const [row] = await writing(() => db.insert(notificationTypes).values(values(input)).returning({ id: notificationTypes.id }));
  return (await findType(db, row!.id))!;
}

/**
 * Changes a notification type: the fields given replace its own, those left out keep theirs
 * (max_length null or "" is no limit). 404 when there is none with this id; 422 per field.
 */
export async function updateNotificationType(db: DbOrTx, user: CurrentUser, id: number, raw: unknown): Promise<NotificationTypeJson> {
  assertTypeAdmin(user);
  const current = await findType(db, id);
  if (!current) throw notFound();
  const given = raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const merged = { name: current.name, max_length: current.max_length, field_name: current.field_name, ...given };
  const input = await checkInput(db, merged, id);
  const [row] = await writing(() =>
    db
      .update(notificationTypes)
      .set({ ...values(input), updatedAt: new Date() })
      .where(eq(notificationTypes.id, id))
      .returning({ id: notificationTypes.id }),
  );
  if (!row) throw notFound();
  return (await findType(db, id))!;
}

const inUse = () => new AppError("conflict", MESSAGES.inUse);

/**
 * Deletes a notification type no notification preference uses; 409 with the spec's message while
 * any does (also when one is saved between the check and the delete: the foreign key refuses).
 */
export async function deleteNotificationType(db: DbOrTx, user: CurrentUser, id: number): Promise<{ id: number; deleted: true }> {
  assertTypeAdmin(user);
  const [uses] = await db.select({ n: count() }).from(notificationConfigs).where(eq(notificationConfigs.notificationTypeId, id));
  if (Number(uses?.n ?? 0) > 0) throw inUse();
  let deleted: Array<{ id: number }>;
  try {
    deleted = await db.delete(notificationTypes).where(eq(notificationTypes.id, id)).returning({ id: notificationTypes.id });
  } catch (error) {
    if (sqlState(error) === "23503") throw inUse();
    throw error;
  }
  if (!deleted.length) throw notFound();
  return { id, deleted: true };
}
