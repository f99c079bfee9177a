import { and, count, desc, eq, inArray, lte, sql } from "drizzle-orm";
import sanitizeHtml from "sanitize-html";
import type { DbOrTx } from "../../../db/client.server";
import { noticeReceipts, notices } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { notFound } from "../../utils/errors";
import { preparedFor } from "../../utils/prepared.server";

export { NOTICES_PAGE_SIZE } from "./constants";
import { NOTICES_PAGE_SIZE } from "./constants";
import { renderNoticeTags } from "./admin";
import { sharedFirstRows } from "./first-rows";

/** Rich text allowed in a notice; everything else (scripts, handlers, styles, remote images) is dropped. */
export function sanitizeNoticeHtml(html: string): string {
  // the same few notices are shown on every page of every user: each text is sanitised once (the
  // answer depends on the text alone; sanitize-html was 5.6% of /home's CPU)
  let clean = sanitized.get(html);
  if (clean === undefined) {
    clean = sanitizeOnce(html);
    if (sanitized.size >= MAX_SANITIZED) sanitized.delete(sanitized.keys().next().value!);
    sanitized.set(html, clean);
  }
  return clean;
}

const MAX_SANITIZED = 500;
const sanitized = new Map<string, string>();

function sanitizeOnce(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ["p", "br", "strong", "b", "em", "i", "u", "s", "a", "ul", "ol", "li", "h1", "h2", "h3", "blockquote", "span"],
    // rel and target are set by the transform below (a rule of its own would drop them again)
    allowedAttributes: { a: ["href", "title", "rel", "target"] },
    allowedSchemes: ["http", "https", "mailto"],
    transformTags: { a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer", target: "_blank" }) },
  });
}

export interface NoticeJson {
  id: number;
  header: string;
  content: string;
  seen: boolean;
  publish_at: string;
}

/** Receipts of published notices for this user that have reached their publish date and are not removed. */
const visibleTo = (user: CurrentUser, now: Date) =>
  and(eq(noticeReceipts.userId, user.id), eq(noticeReceipts.deleted, false), eq(notices.published, true), lte(notices.publishAt, now));

// the reader's notices in one statement, prepared once per database handle: the page with the
// total and the unseen count beside every row (window counts are taken before LIMIT), because the
// shell's loader runs on every page and three statements there were a third of a page's queries.
// A placeholder skips the column's encoding, so the time goes as ISO text.
const statements = preparedFor((db) => {
  const visible = and(
    eq(noticeReceipts.userId, sql.placeholder("userId")),
    eq(noticeReceipts.deleted, false),
    eq(notices.published, true),
    lte(notices.publishAt, sql.placeholder("now")),
  );
  return {
    page: db
      .select({
        id: notices.id,
        header: notices.header,
        content: notices.content,
        seen: noticeReceipts.seen,
        publishAt: notices.publishAt,
        total: sql<number>`count(*) over ()`.mapWith(Number),
        unseen: sql<number>`count(*) filter (where not ${noticeReceipts.seen}) over ()`.mapWith(Number),
      })
      .from(noticeReceipts)
      .innerJoin(notices, eq(notices.id, noticeReceipts.noticeId))
      .where(visible)
      .orderBy(desc(notices.publishAt), desc(notices.id))
      .limit(sql.placeholder("limit"))
      .offset(sql.placeholder("offset"))
      .prepare("notices_page"),
    counts: db
      .select({ total: count(), unseen: sql<number>`count(*) filter (where not ${noticeReceipts.seen})`.mapWith(Number) })
      .from(noticeReceipts)
      .innerJoin(notices, eq(notices.id, noticeReceipts.noticeId))
      .where(visible)
      .prepare("notices_counts"),
  };
});

type NoticesPage = { notices: NoticeJson[]; total: number; unseen: number };
type PageRequest = { limit?: number; offset?: number; request?: object };

/**
 * A page of the user's notices, newest first (spec 1: paged, 20 a page), with how many they have
 * and how many of those are unseen. With `request` (the page request's load context), first pages
 * asked for in the same turn of that request share one statement (first-rows.ts).
 */
export async function noticesPage(db: DbOrTx, user: CurrentUser, page: PageRequest = {}, now = new Date()): Promise<NoticesPage> {
  const limit = Math.min(Math.max(page.limit ?? NOTICES_PAGE_SIZE, 1), 100);
  const offset = Math.max(page.offset ?? 0, 0);
  if (page.request && offset === 0) {
    const all = await sharedFirstRows(page.request, user.id, limit, (most) => readPage(db, user, most, 0, now));
    return { ...all, notices: all.notices.slice(0, limit) };
  }
  return readPage(db, user, limit, offset, now);
}

async function readPage(db: DbOrTx, user: CurrentUser, limit: number, offset: number, now: Date): Promise<NoticesPage> {
  const params = { userId: user.id, now: now.toISOString(), limit, offset };
  const rows = await statements(db).page.execute(params);
  // a page past the end has no row to carry the counts
  const counts = rows[0] ?? (offset > 0 ? (await statements(db).counts.execute(params))[0]! : { total: 0, unseen: 0 });
  const tagValues = { first_name: user.firstName, full_name: user.fullName, customer_name: user.customer.name };
  return {
    notices: rows.map((r) => ({
      id: r.id,
      header: r.header,
      // the reader's tags filled in (escaped), then sanitised again: what is shown is never the raw row
      content: sanitizeNoticeHtml(renderNoticeTags(r.content, tagValues)),
      seen: r.seen,
      publish_at: r.publishAt.toISOString(),
    })),
    total: Number(counts.total),
    unseen: Number(counts.unseen),
  };
}

/** A page of the user's notices and how many they have (noticesPage without the unseen count). */
export async function listNotices(db: DbOrTx, user: CurrentUser, page: PageRequest = {}, now = new Date()): Promise<{ notices: NoticeJson[]; total: number }> {
  const { notices: list, total } = await noticesPage(db, user, page, now);
  return { notices: list, total };
}

export async function unseenNoticeCount(db: DbOrTx, user: CurrentUser, now = new Date()): Promise<number> {
  const [counts] = await statements(db).counts.execute({ userId: user.id, now: now.toISOString() });
  return Number(counts?.unseen ?? 0);
}

/**
 * Marks the given notices (or, with no ids, all of them) as seen for this user only; only notices
 * the user can see now, so one published later still arrives unseen.
 */
export async function markNoticesSeen(db: DbOrTx, user: CurrentUser, ids?: number[], now = new Date()): Promise<number> {
  const visible = db
    .select({ id: notices.id })
    .from(notices)
    .where(and(eq(notices.published, true), lte(notices.publishAt, now), ids?.length ? inArray(notices.id, ids) : undefined));
  const rows = await db
    .update(noticeReceipts)
    .set({ seen: true, updatedAt: new Date() })
    .where(
      and(
        eq(noticeReceipts.userId, user.id),
        eq(noticeReceipts.seen, false),
        eq(noticeReceipts.deleted, false),
        inArray(noticeReceipts.noticeId, visible),
      ),
    )
    .returning({ id: noticeReceipts.noticeId });
  return rows.length;
}

/**
 * PUT /api/notices/{id} {seen: true}: marks one notice seen for this user; 404 for a notice the
 * user cannot see (another customer's, unpublished, removed), as for one that does not exist
 * (issue 35 finding 10: it answered 200 and wrote nothing). Seen already: 200 again.
 */
export async function markNoticeSeen(db: DbOrTx, user: CurrentUser, noticeId: number, now = new Date()): Promise<void> {
  if (await markNoticesSeen(db, user, [noticeId], now)) return;
  const [visible] = await db
    .select({ id: notices.id })
    .from(noticeReceipts)
    .innerJoin(notices, eq(notices.id, noticeReceipts.noticeId))
    .where(and(visibleTo(user, now), eq(notices.id, noticeId)));
  if (!visible) throw notFound("Notice");
}

/** Removes a notice from this user's list (other users keep theirs). */
export async function deleteNoticeFor(db: DbOrTx, user: CurrentUser, noticeId: number): Promise<void> {
  const rows = await db
    .update(noticeReceipts)
    .set({ deleted: true, seen: true, updatedAt: new Date() })
    .where(and(eq(noticeReceipts.userId, user.id), eq(noticeReceipts.noticeId, noticeId), eq(noticeReceipts.deleted, false)))
    .returning({ id: noticeReceipts.noticeId });
  if (!rows.length) throw notFound("Notice");
}
