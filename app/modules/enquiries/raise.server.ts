/**
 * Raising and answering enquiries: POST /api/tickets, POST /api/tickets/{id}/comment and the
 * status change (PUT /api/tickets/{id}), shared with the screens' forms. Each new enquiry and
 * each comment is mailed to the support address and the other party, inside the transaction
 * that stores it: a mail that cannot be sent leaves nothing stored and answers the spec's
 * 'An error has occurred. Please contact Tech Support at <address>'.
 */
import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { carrierAccounts, consignments, customers, services, ticketComments, tickets } from "../../../db/schema";
import { authorize } from "../auth/guard.server";
import type { CurrentUser } from "../auth/current-user.server";
import { isDespatched } from "../consignments/rules";
import type { Mailer, MailMessage } from "../mail/mailer.server";
import { AppError, type FieldErrors } from "../../utils/errors";
import { env } from "../../utils/env.server";
import { fieldErrorsFrom, parseOrThrow } from "../../utils/validation";
import { findCategory } from "./categories.server";
import { enquiryMail } from "./mail";
import { emitEvent } from "../webhooks/index.server";
import { getTicket, scopedConsignment, seesAllCustomers } from "./tickets.server";
import { commentSchema, failureMessage, MESSAGES, statusSchema, ticketSchema, typeRuleErrors, type CommentJson, type TicketJson } from "./types";

export interface EnquiryServices {
  db: DbOrTx;
  mailer: Mailer;
  /** e.g. http://localhost:3000, for the link in the mail */
  baseUrl: string;
}

/**
 * Where an enquiry goes: the consignment's carrier account's support e-mail, else its service's,
 * else the customer's, else the provider's SUPPORT_EMAIL.
 */
export async function supportEmailFor(db: DbOrTx, customerId: number, consignment?: { carrierAccountId: number | null; serviceId: number | null } | null): Promise<string> {
  const [account, service, customer] = await Promise.all([
    consignment?.carrierAccountId ? db.select({ e: carrierAccounts.supportEmail }).from(carrierAccounts).where(eq(carrierAccounts.id, consignment.carrierAccountId)) : [],
    consignment?.serviceId ? db.select({ e: services.supportEmail }).from(services).where(eq(services.id, consignment.serviceId)) : [],
    db.select({ e: customers.supportEmail }).from(customers).where(eq(customers.id, customerId)),
  ]);
  return [account[0]?.e, service[0]?.e, customer[0]?.e].map((e) => e?.trim()).find(Boolean) ?? env().SUPPORT_EMAIL;
}

/** Each address once, whatever its case. */
export function recipients(...addresses: Array<string | null | undefined>): string[] {
  const seen = new Set<string>();
  return addresses.filter((a): a is string => Boolean(a?.trim())).filter((a) => !seen.has(a.trim().toLowerCase()) && Boolean(seen.add(a.trim().toLowerCase())));
}

/** Sends every message through the mailer in the transaction `tx`; any failure is the spec's enquiry failure. */
async function sendAll(mailer: Mailer, tx: DbOrTx, messages: MailMessage[], support: string): Promise<void> {
  try {
    for (const m of messages) await mailer.send(m, tx);
  } catch (error) {
    console.error("enquiry mail failed", error);
    throw new AppError("conflict", failureMessage(support));
  }
}

/**
 * POST /api/tickets: a new enquiry of the working customer, about one of the user's despatched
 * consignments or about nothing in particular. 422 per field with the spec's messages.
 */
export async function createTicket(services: EnquiryServices, user: CurrentUser, raw: Record<string, unknown>): Promise<TicketJson> {
  const { db } = services;
  const parsed = ticketSchema.safeParse(raw);
  const errors: FieldErrors = parsed.success ? {} : fieldErrorsFrom(parsed.error);
  const input = parsed.data;
  const customerId = user.customer.id;
  let type: { id: number; name: string } | null = null;
  if (input && (input.category_id || input.support_request)) {
    type = await findCategory(db, customerId, { id: input.category_id, name: input.category_id ? undefined : input.support_request });
    if (!type) errors[input.category_id ? "category_id" : "support_request"] = [MESSAGES.typeUnknown];
  }
  if (input) Object.assign(errors, typeRuleErrors(type?.name ?? null, input.description));
  const first = Object.values(errors)[0]?.[0];
  if (first || !input) throw new AppError("invalid", first ?? "Invalid input", errors);

  const consignment = input.consignment_id ? await scopedConsignment(db, user, input.consignment_id) : null;
  if (consignment && !isDespatched(consignment.state)) throw new AppError("invalid", MESSAGES.notDespatched, { consignment_id: [MESSAGES.notDespatched] });
  const support = await supportEmailFor(db, customerId, consignment);
  const site = consignment ? null : user.sites[0];

  // the enquiry, its first comment (the description) and its mails commit together: a mail that
  // fails leaves no enquiry behind for the raiser to send again as a second one
  const id = await db.transaction(async (tx) => {
    const [ticket] = await tx
      .insert(tickets)
      .values({
        customerId,
        consignmentId: consignment?.id ?? null,
        categoryId: type?.id ?? null,
        supportRequest: type?.name ?? null,
        fullName: input.full_name,
        email: input.email,
        phone: input.phone ?? null,
        subject: input.subject,
        description: input.description ?? null,
        country: input.country ?? site?.country ?? null,
        createdBy: user.id,
      })
      .returning();
    if (input.description) await tx.insert(ticketComments).values({ ticketId: ticket!.id, authorId: user.id, authorName: user.fullName, comment: input.description });
    const mail = enquiryMail({ kind: "new", ticket: ticket!, consignmentNumber: consignment?.number ?? null, author: user.fullName, text: input.description ?? "", link: `${services.baseUrl}/enquiries` });
    await sendAll(services.mailer, tx, recipients(support, input.email).map((to) => ({ ...mail, to })), support);
    await emitTicketEvent(tx, user, ticket!);
    return ticket!.id;
  });
  return getTicket(db, user, id);
}

/** enquiry.updated (docs/decisions/039), in the change's transaction: the ticket as GET /api/tickets/{id} then gives it. */
const emitTicketEvent = (tx: DbOrTx, user: CurrentUser, t: { id: number; customerId: number; consignmentId: number | null }) =>
  emitEvent(tx, { type: "enquiry.updated", customerId: t.customerId, consignmentId: t.consignmentId, payload: () => getTicket(tx, user, t.id) });

/**
 * POST /api/tickets/{id}/comment { comment }: adds to the trail and mails support and the other
 * party (the raiser, when someone else writes).
 */
export async function addComment(services: EnquiryServices, user: CurrentUser, id: number, raw: Record<string, unknown>): Promise<CommentJson> {
  const { db } = services;
  const current = await getTicket(db, user, id);
  const { comment } = parseOrThrow(commentSchema, raw);
  const [found] = await db
    .select({ ticket: tickets, carrierAccountId: consignments.carrierAccountId, serviceId: consignments.serviceId })
    .from(tickets)
    .leftJoin(consignments, eq(consignments.id, tickets.consignmentId))
    .where(eq(tickets.id, id));
  const row = found!.ticket;
  const consignment = row.consignmentId ? { carrierAccountId: found!.carrierAccountId, serviceId: found!.serviceId } : null;
  const support = await supportEmailFor(db, row.customerId, consignment);
  const raiserWrites = row.createdBy === user.id;
  // the comment and its mails commit together (see createTicket)
  return db.transaction(async (tx) => {
    const [added] = await tx.insert(ticketComments).values({ ticketId: id, authorId: user.id, authorName: user.fullName, comment }).returning();
    await tx.update(tickets).set({ updatedAt: new Date() }).where(eq(tickets.id, id));
    const mail = enquiryMail({ kind: "comment", ticket: row, consignmentNumber: current.consignment_number, author: user.fullName, text: comment, link: `${services.baseUrl}/enquiries` });
    await sendAll(services.mailer, tx, recipients(support, raiserWrites ? null : row.email).map((to) => ({ ...mail, to })), support);
    await emitTicketEvent(tx, user, row);
    return { id: added!.id, author: added!.authorName, comment: added!.comment, created_at: added!.createdAt.toISOString() };
  });
}

/** Customer service (and admins, super admins, devs) move an enquiry between open, pending and solved. */
export function assertStatusKeeper(user: CurrentUser): void {
  authorize(user, seesAllCustomers);
}

/** PUT /api/tickets/{id} { status }: the status change, written to the trail. */
export async function changeStatus(db: DbOrTx, user: CurrentUser, id: number, raw: Record<string, unknown>): Promise<TicketJson> {
  assertStatusKeeper(user);
  const current = await getTicket(db, user, id);
  const { status } = parseOrThrow(statusSchema, raw);
  if (status !== current.status) {
    // the status and the trail's line about it are one change
    await db.transaction(async (tx) => {
      await tx.update(tickets).set({ status, updatedAt: new Date() }).where(eq(tickets.id, id));
      await tx.insert(ticketComments).values({ ticketId: id, authorId: user.id, authorName: user.fullName, comment: `Status changed from ${current.status} to ${status}.` });
      await emitTicketEvent(tx, user, { id, customerId: current.customer_id, consignmentId: current.consignment_id });
    });
  }
  return getTicket(db, user, id);
}
