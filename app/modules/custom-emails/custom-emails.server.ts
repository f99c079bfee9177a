/**
 * Custom e-mails (issue 16 item 8): staff keep, per customer, the wording of the return e-mail
 * and the frame of its notification e-mails. One row per customer and kind; no row means the
 * default wording. Every function checks the staff rule and the customer, so the screen and
 * /api/customers/{id}/custom_emails share them. What the mails do with it is wording.server.ts.
 */
import { and, asc, eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { customEmails } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { TEMPLATE_REQUIRED } from "../templates/tags";
import { checkLine, checkTemplate } from "../templates/templates.server";
import { customerForStaff } from "../tenancy/customers.server";
import { AppError, type FieldErrors } from "../../utils/errors";
import { fieldErrorsFrom } from "../../utils/validation";
import { CUSTOM_EMAIL_KINDS, KIND_FIELDS, MESSAGES, customEmailSchema, kindSchema, type CustomEmailJson, type CustomEmailKind } from "./custom-emails";

type Row = typeof customEmails.$inferSelect;

const toJson = (customerId: number, kind: CustomEmailKind, r: Row | undefined): CustomEmailJson => ({
  id: r?.id ?? null,
  customer_id: customerId,
  kind,
  customised: Boolean(r),
  // checked again on the way out: a row written by hand shows no script or statement either
  subject: r?.subject ? cleanLine(r.subject) : null,
  header: r?.header ? clean(r.header) : null,
  body: r?.body ? clean(r.body) : null,
  footer: r?.footer ? clean(r.footer) : null,
  updated_at: r?.updatedAt.toISOString() ?? null,
});

const clean = (html: string) => {
  const checked = checkTemplate(html);
  return checked.ok ? checked.html : "";
};
const cleanLine = (line: string) => {
  const checked = checkLine(line);
  return checked.ok ? checked.line : "";
};

/** Both kinds of the customer, customised or not (return first). */
export async function listCustomEmails(db: DbOrTx, user: CurrentUser, customerId: number): Promise<CustomEmailJson[]> {
  await customerForStaff(db, user, customerId);
  const rows = await db.select().from(customEmails).where(eq(customEmails.customerId, customerId)).orderBy(asc(customEmails.kind));
  return CUSTOM_EMAIL_KINDS.map((kind) => toJson(customerId, kind, rows.find((r) => r.kind === kind)));
}

export async function getCustomEmail(db: DbOrTx, user: CurrentUser, customerId: number, kind: CustomEmailKind): Promise<CustomEmailJson> {
  await customerForStaff(db, user, customerId);
  const [row] = await db.select().from(customEmails).where(and(eq(customEmails.customerId, customerId), eq(customEmails.kind, kind)));
  return toJson(customerId, kind, row);
}

/** The kind a row id names, for the screen's /custom_emails/{customEmailId}; 404 when it is another customer's. */
export async function kindOfCustomEmail(db: DbOrTx, user: CurrentUser, customerId: number, id: number): Promise<CustomEmailKind> {
  await customerForStaff(db, user, customerId);
  const [row] = await db.select({ kind: customEmails.kind }).from(customEmails).where(and(eq(customEmails.id, id), eq(customEmails.customerId, customerId)));
  if (!row) throw new AppError("not_found", MESSAGES.notFound);
  return row.kind;
}

/**
 * The input checked, every field at once (422 per field): each rich-text part sanitised and its
 * tags checked as a notification template's are (a part that is only markup is blank), the
 * subject a plain line whose tags are checked the same way. Fields the kind does not keep are
 * dropped. What it returns is what was checked, and what is stored.
 */
export function checkCustomEmail(kind: CustomEmailKind, raw: unknown): Pick<Row, "subject" | "header" | "body" | "footer"> {
  const result = customEmailSchema.safeParse(raw && typeof raw === "object" ? raw : {});
  if (!result.success) {
    const errors = fieldErrorsFrom(result.error);
    throw new AppError("invalid", Object.values(errors)[0]?.[0] ?? "Invalid input", errors);
  }
  const errors: FieldErrors = {};
  const out: Pick<Row, "subject" | "header" | "body" | "footer"> = { subject: null, header: null, body: null, footer: null };
  for (const field of KIND_FIELDS[kind]) {
    const value = (result.data[field] ?? "").trim();
    if (!value) continue;
    if (field === "subject") {
      const line = checkLine(value);
      if (line.ok) out.subject = line.line;
      else errors.subject = [line.message];
      continue;
    }
    const checked = checkTemplate(value);
    // what is only markup once sanitised (an empty paragraph, a lone <script>) is a blank part
    if (!checked.ok && checked.message === TEMPLATE_REQUIRED) continue;
    if (!checked.ok) errors[field] = [checked.message];
    else out[field] = checked.html;
  }
  if (!Object.keys(errors).length && KIND_FIELDS[kind].every((f) => !out[f])) errors.base = [MESSAGES.empty];
  const first = Object.values(errors)[0]?.[0];
  if (first) throw new AppError("invalid", first, errors);
  return out;
}

/** Saves the customer's wording of this kind (creates or replaces it). */
export async function saveCustomEmail(db: DbOrTx, user: CurrentUser, customerId: number, kind: CustomEmailKind, raw: unknown): Promise<CustomEmailJson> {
  await customerForStaff(db, user, customerId);
  const values = checkCustomEmail(kind, raw);
  // an upsert on the (customer, kind) key: two saves at once leave one row, the later wording
  const [row] = await db
    .insert(customEmails)
    .values({ customerId, kind, ...values })
    .onConflictDoUpdate({ target: [customEmails.customerId, customEmails.kind], set: { ...values, updatedAt: new Date() } })
    .returning();
  return toJson(customerId, kind, row);
}

/** Reset to default: the row goes, and the default wording is used again. Resetting a default is no error. */
export async function resetCustomEmail(db: DbOrTx, user: CurrentUser, customerId: number, kind: CustomEmailKind): Promise<CustomEmailJson> {
  await customerForStaff(db, user, customerId);
  await db.delete(customEmails).where(and(eq(customEmails.customerId, customerId), eq(customEmails.kind, kind)));
  return toJson(customerId, kind, undefined);
}

/** A path's {kind}: return or notification, or the id of one of this customer's rows (422 otherwise; 404 for another's id). */
export async function kindFromPath(db: DbOrTx, user: CurrentUser, customerId: number, value: string | undefined): Promise<CustomEmailKind> {
  if (value && /^\d{1,10}$/.test(value)) return kindOfCustomEmail(db, user, customerId, Number(value));
  const parsed = kindSchema.safeParse(value);
  if (!parsed.success) throw new AppError("invalid", MESSAGES.kind, { kind: [MESSAGES.kind] });
  return parsed.data;
}
