/**
 * Custom e-mails (issue 16 item 8; spec 2 /customers/{customerId}/custom_emails/{customEmailId?}):
 * a customer's own wording of the return e-mail (subject, header, body, footer) and the frame
 * (header, footer) its notification e-mails are sent in. The one schema the editor and
 * /api/customers/{id}/custom_emails/{kind} validate with. Pure, so the browser bundle may use it.
 */
import { z } from "zod";

export const CUSTOM_EMAIL_KINDS = ["return", "notification"] as const;
export type CustomEmailKind = (typeof CUSTOM_EMAIL_KINDS)[number];

export const KIND_LABELS: Record<CustomEmailKind, string> = { return: "Return e-mail", notification: "Notification frame" };
export const KIND_HINTS: Record<CustomEmailKind, string> = {
  return: "Sent with the labels and manifest of a despatched return or third-party pickup.",
  notification: "The header and footer around every notification e-mail sent to this customer's receivers.",
};
/** The fields each kind keeps: a notification's subject and body come from its own template. */
export const KIND_FIELDS: Record<CustomEmailKind, readonly ("subject" | "header" | "body" | "footer")[]> = {
  return: ["subject", "header", "body", "footer"],
  notification: ["header", "footer"],
};

export const SUBJECT_MAX = 200;
/** A few paragraphs each; the limit keeps one post from filling the table. */
export const PART_MAX = 50_000;

export const MESSAGES = {
  saved: "Custom e-mail was saved.",
  reset: "Custom e-mail was reset to the default.",
  notFound: "Custom e-mail not found",
  kind: "kind must be return or notification",
  subjectTooLong: `Subject is too long (at most ${SUBJECT_MAX} characters)`,
  partTooLong: `Too long (at most ${PART_MAX} characters)`,
  empty: "Write at least one of the fields, or use Reset to default",
} as const;

export const kindSchema = z.enum(CUSTOM_EMAIL_KINDS, { error: MESSAGES.kind });

const part = z.string({ error: "Must be text" }).max(PART_MAX, MESSAGES.partTooLong).optional();

/** The editor's fields (blank means "the default wording"); tags and HTML are checked by the server. */
export const customEmailSchema = z.object({
  subject: z.string({ error: "Must be text" }).trim().max(SUBJECT_MAX, MESSAGES.subjectTooLong).optional(),
  header: part,
  body: part,
  footer: part,
});
export type CustomEmailInput = z.infer<typeof customEmailSchema>;

/** A custom e-mail as the screen and the API show it; `customised` false: the default wording is used. */
export interface CustomEmailJson {
  id: number | null;
  customer_id: number;
  kind: CustomEmailKind;
  customised: boolean;
  subject: string | null;
  header: string | null;
  body: string | null;
  footer: string | null;
  updated_at: string | null;
}
