/**
 * Notices administration (issue 15 item 5; spec 2): staff other than customer service write
 * notices for a customer and publish them to that customer's users. Every function checks the
 * rule, so the /notices screens and /api/notices share it. The reader's side is notices.server.ts.
 */
import { and, asc, count, desc, eq, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { customers, noticeReceipts, notices, users } from "../../../db/schema";
import { redirect, type AppLoadContext } from "@remix-run/node";
import { authorize, requireUser } from "../auth/guard.server";
import type { CurrentUser } from "../auth/current-user.server";
import { homeButtons } from "../auth/roles";
import { readDate } from "../calendar/display-date";
import { localDate, todayIn } from "../calendar/site-time";
import type { UserClock } from "../calendar/user-clock";
import { instantInZone } from "../calendar/zone-offset";
import { AppError, type FieldErrors } from "../../utils/errors";
import { fieldErrorsFrom } from "../../utils/validation";
import { MESSAGES, noticeSchema, publishDateMessage, type NoticeAdminJson } from "./admin";
import { NOTICES_PAGE_SIZE } from "./constants";
import { sanitizeNoticeHtml } from "./notices.server";

/** Throws 403 unless the user may keep notices (staff, but not customer service: spec 2 section 6). */
export function assertNoticeAdmin(user: CurrentUser): void {
  authorize(user, homeButtons.notices);
}

/** For the notices screens: others go to "/" (the path rule says so too; this says it in the route). */
export async function requireNoticeAdmin(context: AppLoadContext, request: Request) {
  const signed = await requireUser(context, request);
  if (!homeButtons.notices(signed.user)) throw redirect("/");
  return signed;
}

const notFound = () => new AppError("not_found", MESSAGES.notFound);

/**
 * The zone and format a notice's publish date is read and written in: the writer's own (their
 * clock), so an admin in Melbourne publishing "today" means Melbourne's today, as its despatchers do.
 */
const clockOf = (user: CurrentUser) => user.clock;

const columns = {
  id: notices.id,
  customerId: notices.customerId,
  customerName: customers.name,
  header: notices.header,
  content: notices.content,
  published: notices.published,
  publishAt: notices.publishAt,
};
type Row = { id: number; customerId: number; customerName: string; header: string; content: string; published: boolean; publishAt: Date };

const toJson = (r: Row, clock: UserClock): NoticeAdminJson => ({
  id: r.id,
  customer_id: r.customerId,
  customer_name: r.customerName,
  header: r.header,
  // sanitised again on the way out: a row written before the rule (or by hand) shows no script either
  content: sanitizeNoticeHtml(r.content),
  published: r.published,
  publish_at: r.publishAt.toISOString(),
  publish_date: localDate(r.publishAt, clock.timeZone, clock.dateFormat),
});

/** Every customer's notices (or one customer's), newest publish date first, 20 a page (spec 2 section 10). */
export async function listNoticesForAdmin(
  db: DbOrTx,
  user: CurrentUser,
  filter: { customerId?: number; published?: boolean; page?: number } = {},
): Promise<{ notices: NoticeAdminJson[]; total: number; page: number; page_size: number }> {
  assertNoticeAdmin(user);
  const page = Math.max(filter.page ?? 1, 1);
  const where = and(
    filter.customerId ? eq(notices.customerId, filter.customerId) : undefined,
    filter.published === undefined ? undefined : eq(notices.published, filter.published),
  );
  const rows = await db
    .select(columns)
    .from(notices)
    .innerJoin(customers, eq(customers.id, notices.customerId))
    .where(where)
    .orderBy(desc(notices.publishAt), desc(notices.id))
    .limit(NOTICES_PAGE_SIZE)
    .offset((page - 1) * NOTICES_PAGE_SIZE);
  const [{ total }] = (await db.select({ total: count() }).from(notices).where(where)) as [{ total: number }];
  const clock = clockOf(user);
  return { notices: rows.map((r) => toJson(r, clock)), total: Number(total), page, page_size: NOTICES_PAGE_SIZE };
}

async function findNotice(db: DbOrTx, id: number): Promise<Row | null> {
  const [row] = await db.select(columns).from(notices).innerJoin(customers, eq(customers.id, notices.customerId)).where(eq(notices.id, id));
  return row ?? null;
}

/** One notice; 404 when there is none with this id. */
export async function getNoticeForAdmin(db: DbOrTx, user: CurrentUser, id: number): Promise<NoticeAdminJson> {
  assertNoticeAdmin(user);
  const row = await findNotice(db, id);
  if (!row) throw notFound();
  return toJson(row, clockOf(user));
}

interface Checked {
  customerId: number;
  header: string;
  content: string;
  publishAt: Date;
}

/**
 * The input checked, every field at once (422 per field): the content is sanitised before it is
 * judged, so a post of only a <script> is "Content is required", and only the clean HTML is stored.
 */
async function checkInput(db: DbOrTx, user: CurrentUser, raw: Record<string, unknown>): Promise<Checked> {
  const result = noticeSchema.safeParse(raw);
  const errors: FieldErrors = result.success ? {} : fieldErrorsFrom(result.error);
  const content = result.success ? sanitizeNoticeHtml(result.data.content) : "";
  if (result.success && !content.replace(/<[^>]*>/g, "").trim()) errors.content = [MESSAGES.contentRequired];
  const { timeZone: zone, dateFormat } = clockOf(user);
  const typed = result.success ? (result.data.publish_at ?? "") : "";
  const read = typed ? readDate(typed, dateFormat) : { iso: todayIn(zone) };
  const day = "iso" in read ? read.iso : null;
  if (result.success && !("iso" in read)) errors.publish_at = [read.refused === "window" ? MESSAGES.publishDateWindow : publishDateMessage(dateFormat)];
  if (result.success && !errors.customer_id) {
    const [customer] = await db.select({ id: customers.id }).from(customers).where(eq(customers.id, result.data.customer_id));
    if (!customer) errors.customer_id = [MESSAGES.customerRequired];
  }
  const first = Object.values(errors)[0]?.[0];
  if (first || !result.success) throw new AppError("invalid", first ?? "Invalid input", errors);
  return { customerId: result.data.customer_id, header: result.data.header, content, publishAt: instantInZone(day!, "00:00", zone) };
}

const asObject = (raw: unknown): Record<string, unknown> => (raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {});

/** A new, unpublished notice from { header, customer_id, publish_at?, content }; 422 per field. */
export async function createNoticeForAdmin(db: DbOrTx, user: CurrentUser, raw: unknown): Promise<NoticeAdminJson> {
  assertNoticeAdmin(user);
  const input = await checkInput(db, user, asObject(raw));
  const [row] = await db.insert(notices).values({ ...input, createdBy: user.id }).returning({ id: notices.id });
  return toJson((await findNotice(db, row!.id))!, clockOf(user));
}

/**
 * Changes a notice: the fields given replace its own. A published notice stays published (its
 * readers see the new text; moving it to another customer is refused while published, since the
 * receipts belong to the first customer's users).
 */
export async function updateNoticeForAdmin(db: DbOrTx, user: CurrentUser, id: number, raw: unknown): Promise<NoticeAdminJson> {
  assertNoticeAdmin(user);
  const current = await findNotice(db, id);
  if (!current) throw notFound();
  const clock = clockOf(user);
  const merged = { header: current.header, customer_id: current.customerId, publish_at: localDate(current.publishAt, clock.timeZone, clock.dateFormat), content: current.content, ...asObject(raw) };
  const input = await checkInput(db, user, merged);
  if (current.published && input.customerId !== current.customerId) {
    const message = "A published notice cannot move to another customer";
    throw new AppError("invalid", message, { customer_id: [message] });
  }
  const [row] = await db.update(notices).set(input).where(eq(notices.id, id)).returning({ id: notices.id });
  if (!row) throw notFound();
  return toJson((await findNotice(db, id))!, clock);
}

/** Deletes a notice for everyone (its receipts go with it). */
export async function deleteNoticeForAdmin(db: DbOrTx, user: CurrentUser, id: number): Promise<{ id: number; deleted: true }> {
  assertNoticeAdmin(user);
  const rows = await db.delete(notices).where(eq(notices.id, id)).returning({ id: notices.id });
  if (!rows.length) throw notFound();
  return { id, deleted: true };
}

/**
 * Publishes (or withdraws) a notice. Publishing gives every user of its customer an unseen
 * receipt (spec 2 section 8); a notice published again after a withdrawal is news again, so
 * earlier receipts turn unseen and come back. Publishing what is already published changes nothing.
 */
export async function setNoticePublished(db: DbOrTx, user: CurrentUser, id: number, published: boolean): Promise<NoticeAdminJson> {
  assertNoticeAdmin(user);
  // one transaction, the notice row locked: two publishes at once (or a publish racing a user's
  // "mark all as seen") cannot leave a published notice without receipts or reset them twice
  await db.transaction(async (tx) => {
    const [row] = await tx.select({ published: notices.published, customerId: notices.customerId }).from(notices).where(eq(notices.id, id)).for("update");
    if (!row) throw notFound();
    if (row.published === published) return;
    await tx.update(notices).set({ published }).where(eq(notices.id, id));
    if (published) await deliver(tx, eq(users.customerId, row.customerId), eq(notices.id, id));
  });
  return toJson((await findNotice(db, id))!, clockOf(user));
}

/** Unseen receipts of the notices matching `which` for the users matching `who` (existing receipts turn unseen). */
async function deliver(db: DbOrTx, who: SQL, which: SQL): Promise<void> {
  const pairs = db
    .select({ noticeId: notices.id, userId: users.id, seen: sql`false`.as("seen"), deleted: sql`false`.as("deleted"), updatedAt: sql`now()`.as("updated_at") })
    .from(notices)
    .innerJoin(users, eq(users.customerId, notices.customerId))
    .where(and(which, who));
  await db
    .insert(noticeReceipts)
    .select(pairs)
    .onConflictDoUpdate({ target: [noticeReceipts.noticeId, noticeReceipts.userId], set: { seen: false, deleted: false, updatedAt: new Date() } });
}

/**
 * For the code that creates a user (the Users screen, an import): the customer's notices already
 * published reach the new user too, unseen. Publishing gives receipts to the users there are.
 */
export async function deliverPublishedNotices(db: DbOrTx, userId: number): Promise<void> {
  await deliver(db, eq(users.id, userId), eq(notices.published, true));
}

/** Unpublished notices of every customer (GET /api/unpublished_notices), by customer then newest. */
export async function listUnpublishedNotices(db: DbOrTx, user: CurrentUser): Promise<NoticeAdminJson[]> {
  assertNoticeAdmin(user);
  const rows = await db
    .select(columns)
    .from(notices)
    .innerJoin(customers, eq(customers.id, notices.customerId))
    .where(eq(notices.published, false))
    .orderBy(asc(customers.name), desc(notices.publishAt), desc(notices.id));
  const clock = clockOf(user);
  return rows.map((r) => toJson(r, clock));
}
