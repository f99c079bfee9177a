/**
 * Users administration (issue 16 item 4; spec 2 "User", sections 5, 6 and 8): the one schema the
 * user screen and /api/customers/{id}/users validate with, the messages, and who may grant which
 * role. Pure, so the browser bundle may use it too.
 */
import { z } from "zod";
import type { RoleName } from "../../../db/schema/users";
import { isSuperAdmin, type AccessSubject } from "../auth/roles";
import { PASSWORD_RULE_MESSAGE, isValidPassword } from "../auth/password-rule";
import { idSchema } from "../../utils/ids";
import { dateFormatField, timezoneField } from "./clock-setting";

/** The schema's roles (db/schema/users.ts), repeated here so the browser bundle takes no drizzle; the type checks they agree. */
export const ROLES = ["despatcher", "admin", "super_admin", "customer_service", "devs"] as const satisfies readonly RoleName[];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
export const ROLES_MATCH_SCHEMA: Same<(typeof ROLES)[number], RoleName> = true;

export const MESSAGES = {
  saved: "User was saved.",
  saveFailed: "There was an error saving the user.",
  notFound: "User not found",
  emailRequired: "Email is required",
  emailInvalid: "Email is not a valid e-mail address",
  emailTaken: "Email has already been taken",
  fullNameRequired: "Full name is required",
  role: `Role must be one of ${ROLES.join(", ")}`,
  roleNotYours: "You may not give a user this role",
  passwordRequired: "Password is required for a new user",
  passwordRule: PASSWORD_RULE_MESSAGE,
  confirmation: "Password confirmation does not match the password",
  site: "Sites must be sites of this customer",
  defaultSite: "The default site must be one of the user's sites",
  tokenTaken: "Authentication token is already in use",
  tokenSuperAdminOnly: "Only a super admin may change the authentication token",
  disableSelf: "You may not disable yourself",
  ownRole: "You may not change your own role",
} as const;

export const TEXT_MAX = 255;

/** The user flags of spec 2 "User" the screen and the CSV set. */
export const FLAGS = ["can_bulkupload", "can_bulkquote", "can_book", "can_export", "can_reconcile"] as const;
/** Further flags of spec 1 section 3's user object, set on the screen too. */
export const MORE_FLAGS = ["can_edit_recipients", "super_despatcher", "despatcher_only"] as const;
export type Flag = (typeof FLAGS)[number] | (typeof MORE_FLAGS)[number];

/**
 * The roles a user may give (and the users they may edit): super admins (devs, super_admin) every
 * role; admin and customer_service every role but super_admin and devs, so no one grants more than
 * they hold. Decision for the record.
 */
export function assignableRoles(actor: AccessSubject): RoleName[] {
  return isSuperAdmin(actor) ? [...ROLES] : ROLES.filter((r) => r !== "super_admin" && r !== "devs");
}

/** Only despatchers send from chosen sites; staff roles see every site of the customer. */
export const roleHasSites = (role: RoleName) => role === "despatcher";

/** A checkbox, a JSON boolean or its words: "on", "true", "1", "yes" are true; blank, "false", "0", "no" false. */
export const flag = z.preprocess((v) => {
  if (typeof v === "boolean") return v;
  if (v === undefined || v === null) return undefined;
  const s = String(v).trim().toLowerCase();
  if (["on", "true", "1", "yes", "y"].includes(s)) return true;
  if (["", "off", "false", "0", "no", "n"].includes(s)) return false;
  return v;
}, z.boolean({ error: "must be true or false" }));

const ids = z.preprocess(
  (v) => (v === undefined || v === null || v === "" ? [] : Array.isArray(v) ? v : String(v).split(",").filter(Boolean)),
  z.array(idSchema(MESSAGES.site)).max(1000, MESSAGES.site),
);
const optionalId = z.preprocess((v) => (v === "" || v === null ? undefined : v), idSchema(MESSAGES.defaultSite).optional());
const optionalText = z.preprocess((v) => (v === null ? "" : v), z.string().trim().max(TEXT_MAX, `must be at most ${TEXT_MAX} characters`).optional());

/**
 * A user as the screen posts it and /api takes it (spec 2 section 3 "User"): every field; the
 * module merges an edit over the stored user before checking, so a PUT may send only what changes.
 * Password blank keeps the stored one; the rule and the confirmation are checked when one is given.
 */
export const userSchema = z
  .object({
    email: z.string({ error: MESSAGES.emailRequired }).trim().min(1, MESSAGES.emailRequired).max(TEXT_MAX, MESSAGES.emailInvalid).pipe(z.email(MESSAGES.emailInvalid)),
    full_name: z.string({ error: MESSAGES.fullNameRequired }).trim().min(1, MESSAGES.fullNameRequired).max(TEXT_MAX, `Full name must be at most ${TEXT_MAX} characters`),
    phone_number: optionalText,
    zendesk_id: optionalText,
    role: z.preprocess((v) => (v === "" || v === undefined ? "despatcher" : v), z.enum(ROLES, { error: MESSAGES.role })),
    site_ids: ids,
    site_id: optionalId,
    password: z.string().max(TEXT_MAX, `Password must be at most ${TEXT_MAX} characters`).optional(),
    password_confirmation: z.string().max(TEXT_MAX).optional(),
    authentication_token: z.preprocess((v) => (v === "" ? null : v), z.string().trim().min(20, "Authentication token must be at least 20 characters").max(TEXT_MAX).nullable().optional()),
    // the user's own clock; blank or null inherits (decision 032)
    timezone: timezoneField.optional(),
    date_format: dateFormatField.optional(),
    disabled: flag.optional(),
    can_bulkupload: flag.optional(),
    can_bulkquote: flag.optional(),
    can_book: flag.optional(),
    can_export: flag.optional(),
    can_reconcile: flag.optional(),
    can_edit_recipients: flag.optional(),
    super_despatcher: flag.optional(),
    despatcher_only: flag.optional(),
  })
  .superRefine((u, ctx) => {
    if (u.password) {
      if (!isValidPassword(u.password)) ctx.addIssue({ code: "custom", path: ["password"], message: MESSAGES.passwordRule });
      else if (u.password !== (u.password_confirmation ?? "")) ctx.addIssue({ code: "custom", path: ["password_confirmation"], message: MESSAGES.confirmation });
    }
  });
export type UserInput = z.infer<typeof userSchema>;

/** A user as the screens and /api show it (spec 1 section 3, spec 2 section 3): never the password hash. */
export interface UserAdminJson {
  id: number;
  customer_id: number;
  email: string;
  full_name: string;
  phone_number: string | null;
  role: RoleName;
  site_ids: number[];
  /** the default site */
  site_id: number | null;
  zendesk_id: string | null;
  /** the user's own time zone and date format; null inherits (decision 032) */
  timezone: string | null;
  date_format: string | null;
  uuid: string;
  /** only to super admins (spec 2 section 6); others get no such key */
  authentication_token?: string | null;
  locked_at: string | null;
  disabled: boolean;
  password_reset_required: boolean;
  can_bulkupload: boolean;
  can_bulkquote: boolean;
  can_book: boolean;
  can_export: boolean;
  can_reconcile: boolean;
  can_edit_recipients: boolean;
  super_despatcher: boolean;
  despatcher_only: boolean;
  user_options: Record<string, unknown>;
  last_sign_in_at: string | null;
}

/** The users list's filter, from the URL (the screen) or the query (the API). */
export const userListQuery = z.object({
  q: z.string().trim().max(TEXT_MAX).optional(),
});
