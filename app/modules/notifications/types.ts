/**
 * Notification types (issue 14 item 6; spec 2 "Notification type": name, max_length, field_name):
 * the one schema the editor screen and /api/notification_types validate with. Pure, so the
 * browser bundle may use it too (no database schema imported, only its types).
 */
import { z } from "zod";
import type { NotificationField } from "../../../db/schema/notifications";

/** Which receiver field a type's message goes to (db/schema/notifications.ts NOTIFICATION_FIELDS). */
export const FIELD_NAMES = ["email", "phone"] as const satisfies readonly NotificationField[];
export type FieldName = (typeof FIELD_NAMES)[number];

/** How the editor names each receiver field. */
export const FIELD_LABELS: Record<FieldName, string> = { email: "E-mail (email)", phone: "Phone (phone)" };

export const NAME_MAX = 100;
/** No channel takes a longer message than this (a limit of its own keeps the number an int4). */
export const MAX_LENGTH_LIMIT = 100_000;

export const MESSAGES = {
  nameRequired: "Name is required",
  nameTooLong: `Name is too long (at most ${NAME_MAX} characters)`,
  nameControl: "Name cannot contain control characters",
  nameTaken: "Name has already been taken",
  maxLength: "Max length must be a whole number greater than 0, or blank for no limit",
  maxLengthTooBig: `Max length must be at most ${MAX_LENGTH_LIMIT}`,
  fieldName: "Field name must be email or phone",
  inUse: "This notification type is used by notification preferences and cannot be deleted.",
  saved: "Notification type was saved.",
  deleted: "Notification type was deleted.",
  notFound: "Notification type not found",
} as const;

/** Blank (absent, null, "", spaces) is no limit; digits typed in a form are a number; anything else stays as it is, for the check to refuse. */
function maxLengthInput(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") return value;
  const text = value.trim();
  if (!text) return null;
  return /^-?\d{1,12}(\.\d+)?$/.test(text) ? Number(text) : text;
}

// eslint-disable-next-line no-control-regex -- the point is to find control characters
const CONTROL = /[\u0000-\u001f\u007f]/;

export const notificationTypeSchema = z.object({
  name: z
    .string({ error: MESSAGES.nameRequired })
    .trim()
    .min(1, MESSAGES.nameRequired)
    .max(NAME_MAX, MESSAGES.nameTooLong)
    .refine((s) => !CONTROL.test(s), MESSAGES.nameControl),
  max_length: z.preprocess(maxLengthInput, z.number({ error: MESSAGES.maxLength }).int(MESSAGES.maxLength).min(1, MESSAGES.maxLength).max(MAX_LENGTH_LIMIT, MESSAGES.maxLengthTooBig).nullable()),
  field_name: z.enum(FIELD_NAMES, { error: MESSAGES.fieldName }),
});
export type NotificationTypeInput = z.infer<typeof notificationTypeSchema>;

/** A notification type as the API and the screens show it. */
export interface NotificationTypeJson {
  id: number;
  name: string;
  /** null: no limit */
  max_length: number | null;
  field_name: FieldName;
  /** how many notification preferences (configs) use it; while any do, it cannot be deleted */
  used_by: number;
}
