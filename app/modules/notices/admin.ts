/**
 * Notices administration (issue 15 item 5; spec 2 "Notices list", "Notice", section 8): the one
 * schema the /notice editor and /api/notices validate with, its messages and the tags a notice may
 * use. Pure, so the browser bundle may use it too.
 */
import { z } from "zod";
import { yearWindowMessage } from "../calendar/dates";
import { escapeHtml } from "../../utils/html";
import { idSchema } from "../../utils/ids";

export const HEADER_MAX = 200;
/** A notice is a few paragraphs; the limit keeps one post from filling the table. */
export const CONTENT_MAX = 100_000;
/** Spec 2 section 8: the publish date mask dd/mm/yyyy, 10 characters. */
export const PUBLISH_DATE_LENGTH = 10;

export const MESSAGES = {
  headerRequired: "Header is required",
  headerTooLong: `Header is too long (at most ${HEADER_MAX} characters)`,
  contentRequired: "Content is required",
  contentTooLong: `Content is too long (at most ${CONTENT_MAX} characters)`,
  customerRequired: "Customer is required",
  publishDate: "Publish date must be a date (DD/MM/YYYY)",
  publishDateWindow: yearWindowMessage("Publish date"),
  updated: "Notice updated.",
  /** a new notice's save (the spec names only "Notice updated.", which read wrong for one just written) */
  created: "Notice created.",
  deleted: "Notice was deleted.",
  notFound: "Notice not found",
  putBody: "Send seen: true, or published: true or false",
} as const;

/** The publish date's message in the writer's own date format (MESSAGES.publishDate names the provider's). */
export const publishDateMessage = (format: string) => MESSAGES.publishDate.replace("DD/MM/YYYY", format);

/**
 * The read-only dynamic tags of the editor (spec 2 "Notice editor"): a notice is written once for
 * every user of a customer, so the only tags are the reader's own; they are filled in when shown.
 */
export const NOTICE_TAGS = ["first_name", "full_name", "customer_name"] as const;
export type NoticeTag = (typeof NOTICE_TAGS)[number];

/** The notice's HTML with each `{{ tag }}` replaced by the reader's value, escaped (the result is sanitised again after). */
export function renderNoticeTags(html: string, values: Record<NoticeTag, string>): string {
  return html.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (whole, tag: string) =>
    (NOTICE_TAGS as readonly string[]).includes(tag) ? escapeHtml(values[tag as NoticeTag]) : whole,
  );
}

const text = (required: string) => z.string({ error: required }).trim().min(1, required);

/** The editor's fields; publish_at is the date typed (dd/mm/yyyy, or YYYY-MM-DD from a script), blank for today. */
export const noticeSchema = z.object({
  header: text(MESSAGES.headerRequired).max(HEADER_MAX, MESSAGES.headerTooLong),
  customer_id: idSchema(MESSAGES.customerRequired),
  publish_at: z.string({ error: MESSAGES.publishDate }).trim().max(PUBLISH_DATE_LENGTH, MESSAGES.publishDate).optional(),
  content: text(MESSAGES.contentRequired).max(CONTENT_MAX, MESSAGES.contentTooLong),
});
export type NoticeInput = z.infer<typeof noticeSchema>;

/** PUT /api/notices/{id}: the reader marks it seen, or staff publish or withdraw it. */
export const noticePutSchema = z.union([z.object({ seen: z.literal(true) }).strict(), z.object({ published: z.boolean() }).strict()], { error: MESSAGES.putBody });

/** A notice as the notices screens and the admin API show it (spec 2 "Notice"). */
export interface NoticeAdminJson {
  id: number;
  customer_id: number;
  customer_name: string;
  header: string;
  content: string;
  published: boolean;
  /** ISO instant */
  publish_at: string;
  /** the publish date as the editor shows it, dd/mm/yyyy in the writer's site zone */
  publish_date: string;
}

/** The notices list's filter and page, from the URL (the screen) or the query (the API). */
export const noticeListQuery = z.object({
  customer_id: z.preprocess((v) => (v === "" ? undefined : v), idSchema("customer_id must be a customer id").optional()),
  page: z.coerce.number({ error: "page must be a whole number from 1" }).int("page must be a whole number from 1").min(1, "page must be a whole number from 1").max(100_000, "page must be a whole number from 1").default(1),
});
