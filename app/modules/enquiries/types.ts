/**
 * Enquiries (support tickets, spec 1 sections 2, 5 and 8; issue 15 item 1): the schemas, messages
 * and pure rules the screens and /api/tickets share. Pure, so the browser bundle may use it too
 * (only the database schema's types are imported).
 */
import { z } from "zod";
import type { TicketStatus } from "../../../db/schema/enquiries";

/** open -> pending -> solved; customer service moves an enquiry between them. */
export const STATUSES = ["open", "pending", "solved"] as const satisfies readonly TicketStatus[];
export type Status = (typeof STATUSES)[number];
export const STATUS_LABELS: Record<Status, string> = { open: "Open", pending: "Pending", solved: "Solved" };

/** Subjects are cut at this many characters in lists (spec 1 section 3). */
export const SUBJECT_LIST_LENGTH = 35;
/** The consignment screen shows the latest this many (spec 3 section 8). */
export const LATEST_LIMIT = 3;
/** Rows of an /enquiries page. */
export const PAGE_SIZE = 25;
/** The most one /api/tickets.json call answers. */
export const MAX_LIMIT = 100;

export const LIMITS = { name: 100, email: 254, phone: 30, subject: 200, text: 4000, typeName: 60 } as const;

export const MESSAGES = {
  emailRequired: "Please enter an email",
  emailInvalid: "Please enter a valid email",
  otherNeedsDescription: "When you pick enquiry 'other', you need a description",
  commentRequired: "Please enter a comment",
  nameRequired: "Please enter your name",
  subjectRequired: "Please enter a subject",
  typeUnknown: "Please pick one of the enquiry types",
  tooLong: (what: string, max: number) => `${what} is too long (at most ${max} characters)`,
  notDespatched: "An enquiry can be raised once the consignment has been despatched",
  failure: "An error has occurred. Please contact Tech Support at",
  statusInvalid: "Status must be open, pending or solved",
  noEnquiries: "There are no enquiries to display.",
  created: "Your enquiry was sent.",
  commented: "Your comment was added.",
  statusChanged: "The enquiry's status was changed.",
  typeNameRequired: "Name is required",
  typeNameTaken: "Name has already been taken",
  typeSaved: "Enquiry type was saved.",
  typeRemoved: "Enquiry type was removed.",
  notFound: "Enquiry not found",
  typeNotFound: "Enquiry type not found",
} as const;

/** The failure message with the address to write to (spec 1 section 8). */
export const failureMessage = (supportEmail: string) => `${MESSAGES.failure} ${supportEmail}`;

/** The type named "other" (case and spaces aside) asks for a description. */
export const isOtherType = (name: string | null | undefined) => (name ?? "").trim().toLowerCase() === "other";

/** A subject as lists show it: at most SUBJECT_LIST_LENGTH characters, an ellipsis when cut. */
export function listSubject(subject: string): string {
  const chars = [...subject];
  return chars.length > SUBJECT_LIST_LENGTH ? `${chars.slice(0, SUBJECT_LIST_LENGTH).join("")}…` : subject;
}

const EMAIL = /^[^\s@<>(),;:"[\]]+@[^\s@<>(),;:"[\]]+\.[^\s@<>(),;:"[\]]+$/;
// eslint-disable-next-line no-control-regex -- one-line fields hold no control characters
const CONTROL = /[\u0000-\u001f\u007f]/;

const blankToUndefined = (v: unknown) => (v === null || (typeof v === "string" && !v.trim()) ? undefined : v);
const line = (what: string, max: number) =>
  z
    .string({ error: `Please check the ${what.toLowerCase()}` })
    .trim()
    .max(max, MESSAGES.tooLong(what, max))
    .refine((s) => !CONTROL.test(s), `${what} cannot contain control characters`);
const optionalLine = (what: string, max: number) => z.preprocess(blankToUndefined, line(what, max).optional());
const text = (what: string) => z.string({ error: `Please check the ${what.toLowerCase()}` }).trim().max(LIMITS.text, MESSAGES.tooLong(what, LIMITS.text));

export const emailSchema = z
  .string({ error: MESSAGES.emailRequired })
  .trim()
  // a blank or too long address is told once, not again as not valid
  .min(1, { error: MESSAGES.emailRequired, abort: true })
  .max(LIMITS.email, { error: MESSAGES.emailInvalid, abort: true })
  .refine((s) => EMAIL.test(s), MESSAGES.emailInvalid);

const optionalId = z.preprocess(
  blankToUndefined,
  z
    .union([z.number(), z.string().trim().regex(/^\d{1,10}$/).transform(Number)], { error: "must be a record id" })
    .pipe(z.number().int().positive().max(2_147_483_647))
    .optional(),
);

/**
 * A new enquiry (POST /api/tickets, the enquiry modal and the /enquiries form). The type is
 * category_id, or support_request naming one of the customer's types; the type 'other' needs a
 * description, checked once the type is known (ticketInputErrors).
 */
export const ticketSchema = z.object({
  full_name: line("Name", LIMITS.name).min(1, MESSAGES.nameRequired),
  email: emailSchema,
  phone: optionalLine("Phone", LIMITS.phone),
  subject: line("Subject", LIMITS.subject).min(1, MESSAGES.subjectRequired),
  category_id: optionalId,
  support_request: optionalLine("Enquiry type", LIMITS.typeName),
  description: z.preprocess(blankToUndefined, text("Description").optional()),
  consignment_id: optionalId,
  country: optionalLine("Country", 60),
});
export type TicketInput = z.infer<typeof ticketSchema>;

/** The rule that needs the chosen type's name: 'other' without a description. */
export function typeRuleErrors(typeName: string | null, description: string | undefined): Record<string, string[]> {
  return isOtherType(typeName) && !description ? { description: [MESSAGES.otherNeedsDescription] } : {};
}

export const commentSchema = z.object({
  comment: z.string({ error: MESSAGES.commentRequired }).trim().min(1, MESSAGES.commentRequired).max(LIMITS.text, MESSAGES.tooLong("Comment", LIMITS.text)),
});

export const statusSchema = z.object({ status: z.enum(STATUSES, { error: MESSAGES.statusInvalid }) });

export const typeNameSchema = z.object({
  name: line("Name", LIMITS.typeName).min(1, MESSAGES.typeNameRequired),
});

/** The list's filters and page, as the URL and /api/tickets.json carry them. */
export const listQuerySchema = z.object({
  status: z.preprocess(blankToUndefined, z.enum(STATUSES, { error: MESSAGES.statusInvalid }).optional()),
  type: optionalLine("Enquiry type", LIMITS.typeName),
  consignment_id: optionalId,
  limit: z.preprocess(blankToUndefined, z.coerce.number({ error: `Limit must be a whole number from 1 to ${MAX_LIMIT}` }).int(`Limit must be a whole number from 1 to ${MAX_LIMIT}`).min(1, `Limit must be a whole number from 1 to ${MAX_LIMIT}`).max(MAX_LIMIT, `Limit must be a whole number from 1 to ${MAX_LIMIT}`).optional()),
  page: z.preprocess(blankToUndefined, z.coerce.number({ error: "Page must be a whole number from 1" }).int("Page must be a whole number from 1").min(1, "Page must be a whole number from 1").max(100_000, "Page must be a whole number from 1").optional()),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

export interface CommentJson {
  id: number;
  author: string;
  comment: string;
  created_at: string;
}

/** An enquiry as the API and the screens show it (spec 1 section 3 "Enquiry (ticket)"). */
export interface TicketJson {
  id: number;
  full_name: string;
  email: string;
  phone: string | null;
  subject: string;
  support_request: string | null;
  category_id: number | null;
  description: string | null;
  /** the latest comment's text */
  comment: string | null;
  status: Status;
  country: string | null;
  consignment_number: string | null;
  consignment_id: number | null;
  consignment_url: string | null;
  last_audit: CommentJson | null;
  customer_id: number;
  customer_name: string;
  created_at: string;
  updated_at: string;
}

export interface CategoryJson {
  id: number;
  name: string;
  position: number;
}
