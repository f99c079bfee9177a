/**
 * Reading enquiries: the lists (/enquiries, /consignment/{id}/enquiries, /api/tickets.json), one
 * enquiry and its trail. Scoping lives here: a customer's users see their customer's enquiries,
 * despatchers those about consignments of their sites (and those about no consignment); staff
 * (customer service, admins, super admins) see every customer's. Anything else answers 404.
 */
import { and, asc, desc, eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { consignments, customers, ticketComments, tickets } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { isAdmin } from "../auth/roles";
import { trackingScope } from "../tracking/scope";
import { notFound } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { listQuerySchema, MESSAGES, PAGE_SIZE, type CommentJson, type Status, type TicketJson } from "./types";
import { AppError } from "../../utils/errors";

/** Staff see and answer every customer's enquiries. */
export const seesAllCustomers = isAdmin;

/** The enquiries this user may see (tickets left-joined to their consignment). */
export function ticketScope(user: CurrentUser): SQL | undefined {
  if (seesAllCustomers(user)) return undefined;
  const sites = user.siteIds.length ? inArray(consignments.siteId, user.siteIds) : sql`false`;
  return and(eq(tickets.customerId, user.customer.id), or(isNull(tickets.consignmentId), sites));
}

// the latest comment of each listed enquiry, by the trail's index
const lastAudit = sql<{ id: number; author: string; comment: string; created_at: string } | null>`(
  select json_build_object('id', tc.id, 'author', tc.author_name, 'comment', tc.comment, 'created_at', tc.created_at)
  from ticket_comments tc where tc.ticket_id = "tickets"."id" order by tc.created_at desc, tc.id desc limit 1)`;

const columns = {
  ticket: tickets,
  consignmentNumber: consignments.consignmentNumber,
  customerName: customers.name,
  lastAudit,
};
type Row = { ticket: typeof tickets.$inferSelect; consignmentNumber: string | null; customerName: string; lastAudit: { id: number; author: string; comment: string; created_at: string } | null };

const iso = (v: string | Date) => new Date(v).toISOString();

function toJson(r: Row): TicketJson {
  const t = r.ticket;
  const last = r.lastAudit ? { ...r.lastAudit, created_at: iso(r.lastAudit.created_at) } : null;
  return {
    id: t.id,
    full_name: t.fullName,
    email: t.email,
    phone: t.phone,
    subject: t.subject,
    support_request: t.supportRequest,
    category_id: t.categoryId,
    description: t.description,
    comment: last?.comment ?? null,
    status: t.status as Status,
    country: t.country,
    consignment_number: t.consignmentId ? (r.consignmentNumber ?? null) : null,
    consignment_id: t.consignmentId,
    consignment_url: t.consignmentId ? `/consignment/${t.consignmentId}` : null,
    last_audit: last,
    customer_id: t.customerId,
    customer_name: r.customerName,
    created_at: iso(t.createdAt),
    updated_at: iso(t.updatedAt),
  };
}

const base = (db: DbOrTx) =>
  db.select(columns).from(tickets).innerJoin(customers, eq(customers.id, tickets.customerId)).leftJoin(consignments, eq(consignments.id, tickets.consignmentId));

/** One enquiry this user may see, else 404. */
export async function getTicket(db: DbOrTx, user: CurrentUser, id: number): Promise<TicketJson> {
  const [row] = await base(db).where(and(eq(tickets.id, id), ticketScope(user)));
  if (!row) throw new AppError("not_found", MESSAGES.notFound);
  return toJson(row as Row);
}

/** A consignment this user may see (the consignment screen's rule), else 404. */
export async function scopedConsignment(db: DbOrTx, user: CurrentUser, id: number) {
  const [row] = await db
    .select({ id: consignments.id, number: consignments.consignmentNumber, state: consignments.state, carrierAccountId: consignments.carrierAccountId, serviceId: consignments.serviceId })
    .from(consignments)
    .where(and(eq(consignments.id, id), trackingScope(user)));
  if (!row) throw notFound("Consignment");
  return row;
}

export interface TicketList {
  tickets: TicketJson[];
  total: number;
  page: number;
  per_page: number;
  filters: { status: Status | null; type: string | null; consignment_id: number | null };
}

/**
 * GET /api/tickets.json and the lists: newest first, filtered by status, type (name, case aside)
 * and consignment (one the user may see, else 404), a page at a time.
 */
export async function listTickets(db: DbOrTx, user: CurrentUser, raw: Record<string, unknown>): Promise<TicketList> {
  const q = parseOrThrow(listQuerySchema, raw);
  if (q.consignment_id) await scopedConsignment(db, user, q.consignment_id);
  const perPage = q.limit ?? PAGE_SIZE;
  const page = q.page ?? 1;
  const where = and(
    ticketScope(user),
    q.consignment_id ? eq(tickets.consignmentId, q.consignment_id) : undefined,
    q.status ? eq(tickets.status, q.status) : undefined,
    q.type ? sql`lower(${tickets.supportRequest}) = lower(${q.type})` : undefined,
  );
  const [rows, [count]] = await Promise.all([
    base(db)
      .where(where)
      .orderBy(desc(tickets.createdAt), desc(tickets.id))
      .limit(perPage)
      .offset((page - 1) * perPage),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(tickets)
      .leftJoin(consignments, eq(consignments.id, tickets.consignmentId))
      .where(where),
  ]);
  return {
    tickets: (rows as Row[]).map(toJson),
    total: Number(count?.n ?? 0),
    page,
    per_page: perPage,
    filters: { status: q.status ?? null, type: q.type ?? null, consignment_id: q.consignment_id ?? null },
  };
}

/** GET /api/tickets/{id}/comments.json: the trail, oldest first. */
export async function listComments(db: DbOrTx, user: CurrentUser, id: number): Promise<CommentJson[]> {
  await getTicket(db, user, id);
  return commentsOf(db, [id]).then((m) => m.get(id) ?? []);
}

/** The trails of the listed enquiries in one read, each oldest first. */
export async function commentsOf(db: DbOrTx, ids: number[]): Promise<Map<number, CommentJson[]>> {
  const out = new Map<number, CommentJson[]>();
  if (!ids.length) return out;
  const rows = await db
    .select({ id: ticketComments.id, ticketId: ticketComments.ticketId, author: ticketComments.authorName, comment: ticketComments.comment, createdAt: ticketComments.createdAt })
    .from(ticketComments)
    .where(inArray(ticketComments.ticketId, ids))
    .orderBy(asc(ticketComments.createdAt), asc(ticketComments.id));
  for (const r of rows) {
    const list = out.get(r.ticketId) ?? [];
    list.push({ id: r.id, author: r.author, comment: r.comment, created_at: iso(r.createdAt) });
    out.set(r.ticketId, list);
  }
  return out;
}

/** has_tickets of a consignment: one row at most, by the tickets' consignment index. */
export async function hasTickets(db: DbOrTx, consignmentId: number): Promise<boolean> {
  const rows = await db.select({ id: tickets.id }).from(tickets).where(eq(tickets.consignmentId, consignmentId)).limit(1);
  return rows.length > 0;
}
