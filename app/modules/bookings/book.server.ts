/**
 * Making and rebooking pickup bookings (spec 2 sections 4, 5, 7 and 8; issue 17 item 5).
 *
 * A request checks every booking, records them pending with their consignments and queues the
 * job that books them, in one transaction. The job hands each pending booking to its carrier's
 * adapter (bookPickup) and records the booking number or the refusal. Each booking is one
 * transaction that starts by locking it and re-reading its state, so a job run twice books each
 * booking once: the second run finds it no longer pending.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db, DbOrTx } from "../../../db/client.server";
import { bookingConsignments, bookings, carrierAccounts, carriers, consignments, customers, services, sites } from "../../../db/schema";
import type { JobQueue } from "../jobs/queue";
import type { CurrentUser } from "../auth/current-user.server";
import type { Mailer } from "../mail/mailer.server";
import { adapterFor, type BookingOutcome } from "../carriers/adapters.server";
import { nextBusinessDay } from "../calendar/business-days";
import { localTime, todayIn } from "../calendar/site-time";
import { AppError, notFound, type FieldErrors } from "../../utils/errors";
import { sqlState } from "../../utils/http.server";
import { parseOrThrow } from "../../utils/validation";
import { pathId } from "../../utils/ids";
import { authorizeBooking, bookingSite, scopedBooking, siteForBooking, stillBooked } from "./bookings.server";
import {
  ALL_FAILED,
  bookAllSchema,
  bookedMessage,
  bookingSchema,
  BOOKINGS_SENT,
  checkAdditionalItems,
  CLOSING_TIME_PASSED,
  FILL_ADDITIONAL_ITEMS,
  isRebookable,
  NO_CONSIGNMENTS_LEFT,
  NOT_REBOOKABLE,
  NOTHING_SELECTED,
  pastClosing,
  type AdditionalItem,
  type BookingInput,
} from "./rules";

export const BOOK_JOB = "bookings.book";
export const NOT_BOOKABLE = "At least one of the selected consignments cannot be booked.";
export const ALREADY_BOOKED = "At least one of the selected consignments has already been booked.";
export const UNKNOWN_SERVICE = "Choose a service the site has an account for";

type Site = Awaited<ReturnType<typeof siteForBooking>>;

/**
 * The pickup day: the one asked (today at the site by default), unless it has gone or today's
 * closing time (the site's, else the booking's own) has passed: then the next business day.
 */
export function pickupDate(site: Pick<Site, "timezone" | "country" | "region" | "closingTime">, requested: string | undefined, closingAt: string, now = new Date()) {
  const today = todayIn(site.timezone, now);
  const date = requested ?? today;
  const clock = localTime(now, site.timezone, "AUSTRALIA").slice(-5);
  const closed = date < today || (date === today && pastClosing(clock, site.closingTime || closingAt));
  return closed ? { date: nextBusinessDay(today, site.country, site.region), moved: true } : { date, moved: false };
}

const num = (v: string) => Number(v);
/** Totals of the additional items: a row's weight is per item, its measures in cm. */
function itemTotals(items: AdditionalItem[]) {
  return items.reduce(
    (t, i) => ({
      items: t.items + num(i.quantity),
      weight: t.weight + num(i.quantity) * num(i.weight_in_uom),
      volume: t.volume + (num(i.quantity) * num(i.length) * num(i.width) * num(i.height)) / 1_000_000,
      hazardous: t.hazardous || i.un_number !== "",
    }),
    { items: 0, weight: 0, volume: 0, hazardous: false },
  );
}

/** Parses every booking of the request; errors keyed bookings.{i}.{field}. Bookings with nothing selected are left out. */
function parseBookings(raw: unknown): { input: BookingInput; items: AdditionalItem[] }[] {
  const { bookings: list } = parseOrThrow(bookAllSchema, raw);
  const errors: FieldErrors = {};
  const parsed: { input: BookingInput; items: AdditionalItem[] }[] = [];
  list.forEach((one, i) => {
    const result = bookingSchema.safeParse(one);
    if (!result.success) {
      for (const issue of result.error.issues) (errors[`bookings.${i}.${issue.path.join(".") || "base"}`] ??= []).push(issue.message);
      return;
    }
    const checked = checkAdditionalItems(result.data.additional_items_attributes, `bookings.${i}.additional_items_attributes`);
    Object.assign(errors, checked.errors);
    if (result.data.consignment_ids.length || checked.items.length) parsed.push({ input: { ...result.data, consignment_ids: [...new Set(result.data.consignment_ids)] }, items: checked.items });
  });
  const messages = Object.values(errors).flat();
  if (messages.length) throw new AppError("invalid", messages.includes(FILL_ADDITIONAL_ITEMS) ? FILL_ADDITIONAL_ITEMS : messages[0]!, errors);
  if (!parsed.length) throw new AppError("invalid", NOTHING_SELECTED, { base: [NOTHING_SELECTED] });
  return parsed;
}

/** The service of a booking: by code (and carrier code when given) among the carriers the site has an account with. */
async function resolveService(tx: DbOrTx, siteId: number, code: string, carrierCode: string | undefined) {
  const rows = await tx
    .selectDistinct({ id: services.id, carrierId: services.carrierId })
    .from(services)
    .innerJoin(carriers, eq(carriers.id, services.carrierId))
    .innerJoin(carrierAccounts, and(eq(carrierAccounts.carrierId, carriers.id), eq(carrierAccounts.siteId, siteId), eq(carrierAccounts.active, true)))
    .where(and(eq(sql`lower(${services.code})`, code.toLowerCase()), carrierCode ? eq(sql`lower(${carriers.code})`, carrierCode.toLowerCase()) : undefined));
  if (rows.length !== 1) throw new AppError("invalid", UNKNOWN_SERVICE, { service_code: [UNKNOWN_SERVICE] });
  return rows[0]!;
}

/**
 * PUT /api/bookings/book_all { bookings: [{ consignment_ids, ready_at, closing_at,
 * additional_items_attributes, special_requirements, service_code, site_id, booking_date? }] }
 * (and the new bookings screen's Book): every booking is checked, else nothing is made. Answers
 * the job that books them, the bookings and the warnings (a closing time passed).
 */
export async function requestBookings(db: DbOrTx, queue: JobQueue, user: CurrentUser, raw: unknown, now = new Date()): Promise<{ job_id: string; booking_ids: number[]; warnings: string[] }> {
  authorizeBooking(user);
  const parsed = parseBookings(raw);
  try {
    return await db.transaction(async (tx) => {
      const ids: number[] = [];
      const warnings = new Set<string>();
      const siteIds = new Set<number>();
      for (const { input, items } of parsed) {
        const site = await siteForBooking(tx, bookingSite(user, input.site_id).id);
        // locked in id order, as despatch locks them: two requests booking the same consignment
        // wait for each other, and the second then finds it booked (the unique index is the backstop)
        const rows = input.consignment_ids.length
          ? await tx
              .select()
              .from(consignments)
              .where(and(inArray(consignments.id, input.consignment_ids), eq(consignments.customerId, user.customer.id), inArray(consignments.siteId, user.siteIds)))
              .orderBy(asc(consignments.id))
              .for("update")
          : [];
        if (rows.length !== input.consignment_ids.length) throw notFound("Consignment");
        const service = await resolveService(tx, site.id, input.service_code, input.carrier_code);
        if (rows.some((c) => c.siteId !== site.id || c.state !== "despatched" || !c.active || c.serviceId !== service.id || !(Number(c.totalWeight) > 0))) {
          throw new AppError("conflict", NOT_BOOKABLE, { consignment_ids: [NOT_BOOKABLE] });
        }
        if (rows.length) {
          const taken = await tx.select({ id: bookingConsignments.consignmentId }).from(bookingConsignments).where(inArray(bookingConsignments.consignmentId, input.consignment_ids));
          if (taken.length) throw new AppError("conflict", ALREADY_BOOKED, { consignment_ids: [ALREADY_BOOKED] });
        }
        const when = pickupDate(site, input.booking_date, input.closing_at, now);
        if (when.moved) warnings.add(CLOSING_TIME_PASSED);
        const extra = itemTotals(items);
        const [booking] = await tx
          .insert(bookings)
          .values({
            customerId: user.customer.id,
            siteId: site.id,
            carrierId: service.carrierId,
            serviceId: service.id,
            bookingDate: when.date,
            readyAt: input.ready_at,
            closingAt: input.closing_at,
            totalConsignments: rows.length,
            totalItems: rows.reduce((n, c) => n + c.itemCount, 0) + extra.items,
            totalWeight: (rows.reduce((n, c) => n + Number(c.totalWeight), 0) + extra.weight).toFixed(3),
            totalVolume: (rows.reduce((n, c) => n + Number(c.totalVolume), 0) + extra.volume).toFixed(4),
            hazardousGoods: rows.some((c) => c.hazardous) || extra.hazardous,
            additionalItems: items,
            specialRequirements: input.special_requirements || null,
            createdBy: user.id,
          })
          .returning({ id: bookings.id });
        if (rows.length) await tx.insert(bookingConsignments).values(rows.map((c) => ({ bookingId: booking!.id, consignmentId: c.id })));
        ids.push(booking!.id);
        siteIds.add(site.id);
      }
      const { jobId } = await queue.enqueue(BOOK_JOB, { ids, customerId: user.customer.id, userId: user.id }, { tx, userId: user.id, customerId: user.customer.id, siteIds: [...siteIds].sort((a, b) => a - b) });
      return { job_id: jobId, booking_ids: ids, warnings: [...warnings] };
    });
  } catch (e) {
    // the same consignment in two bookings of one request, or a race the locks did not see
    if (sqlState(e) === "23505") throw new AppError("conflict", ALREADY_BOOKED, { consignment_ids: [ALREADY_BOOKED] });
    throw e;
  }
}

const rebookSchema = z.object({ rebook: z.literal(true, { error: "Send rebook: true to rebook the booking" }) });

/**
 * PUT /api/bookings/{id} { rebook: true } and the detail's Rebook: a failed booking (either
 * kind) that still has something to pick up goes back to pending, on a day not yet closed.
 */
export async function rebook(db: DbOrTx, queue: JobQueue, user: CurrentUser, rawId: string | number, raw: unknown, now = new Date()): Promise<{ job_id: string; booking_ids: number[]; warnings: string[] }> {
  authorizeBooking(user);
  const id = typeof rawId === "number" ? rawId : pathId(rawId, "Booking");
  parseOrThrow(rebookSchema, raw);
  // the booking row is locked so two Rebooks (two tabs) queue one job: the second finds it pending
  return db.transaction(async (tx) => {
    const { b } = await scopedBooking(tx, user, id);
    const [locked] = await tx.select().from(bookings).where(eq(bookings.id, b.id)).for("update");
    if (!isRebookable(locked!.state)) throw new AppError("conflict", NOT_REBOOKABLE, { base: [NOT_REBOOKABLE] });
    const members = await tx
      .select({ state: consignments.state, active: consignments.active, carrierId: carrierAccounts.carrierId })
      .from(bookingConsignments)
      .innerJoin(consignments, eq(consignments.id, bookingConsignments.consignmentId))
      .leftJoin(carrierAccounts, eq(carrierAccounts.id, consignments.carrierAccountId))
      .where(eq(bookingConsignments.bookingId, b.id));
    if (!members.some((c) => stillBooked(c, b.carrierId)) && !locked!.additionalItems.length) throw new AppError("conflict", NO_CONSIGNMENTS_LEFT, { base: [NO_CONSIGNMENTS_LEFT] });
    const site = await siteForBooking(tx, b.siteId);
    const when = pickupDate(site, locked!.bookingDate, locked!.closingAt, now);
    await tx.update(bookings).set({ state: "pending", bookingError: null, bookingDate: when.date, updatedAt: now }).where(eq(bookings.id, b.id));
    const { jobId } = await queue.enqueue(BOOK_JOB, { ids: [b.id], customerId: user.customer.id, userId: user.id }, { tx, userId: user.id, customerId: user.customer.id, siteIds: [b.siteId] });
    return { job_id: jobId, booking_ids: [b.id], warnings: when.moved ? [CLOSING_TIME_PASSED] : [] };
  });
}

// ---------------------------------------------------------------------------------------------
// The job

export const bookPayload = z.object({
  ids: z.array(z.number().int().positive()).min(1),
  customerId: z.number().int().positive(),
  userId: z.number().int().positive(),
});
export type BookPayload = z.infer<typeof bookPayload>;

export interface BookResult {
  total: number;
  booked: number[];
  failed: number[];
  /** why each failed booking was refused */
  reasons: string[];
}

/** Sends every pending booking of the payload to its carrier, one transaction each. */
export async function runBookings(db: Db, mailer: Mailer, payload: BookPayload, progress: (pct: number, message: string) => Promise<void>): Promise<BookResult> {
  const { ids, customerId } = payload;
  const [customer] = await db.select({ name: customers.name }).from(customers).where(eq(customers.id, customerId));
  let done = 0;
  for (const id of ids) {
    await bookOne(db, mailer, id, customerId, customer?.name ?? "");
    done++;
    await progress((done / ids.length) * 100, bookedMessage(done, ids.length));
  }
  // the outcome of every booking, whichever run booked it
  const outcome = await db
    .select({ id: bookings.id, state: bookings.state, error: bookings.bookingError })
    .from(bookings)
    .where(and(inArray(bookings.id, ids), eq(bookings.customerId, customerId)))
    .orderBy(asc(bookings.id));
  const failed = outcome.filter((o) => o.state === "failed" || o.state === "failed_permanently");
  return { total: ids.length, booked: outcome.filter((o) => o.state === "booked").map((o) => o.id), failed: failed.map((o) => o.id), reasons: failed.map((o) => `Booking ${o.id}: ${o.error ?? "failed"}`) };
}

async function bookOne(db: Db, mailer: Mailer, id: number, customerId: number, customerName: string) {
  await db.transaction(async (tx) => {
    const [b] = await tx.select().from(bookings).where(and(eq(bookings.id, id), eq(bookings.customerId, customerId), eq(bookings.state, "pending"))).for("update");
    if (!b) return;
    const [carrier] = await tx.select().from(carriers).where(eq(carriers.id, b.carrierId));
    const [site] = await tx.select().from(sites).where(eq(sites.id, b.siteId));
    const [service] = b.serviceId ? await tx.select({ name: services.name }).from(services).where(eq(services.id, b.serviceId)) : [];
    const members = await tx
      .select({ number: consignments.consignmentNumber, accountId: consignments.carrierAccountId })
      .from(bookingConsignments)
      .innerJoin(consignments, eq(consignments.id, bookingConsignments.consignmentId))
      .where(eq(bookingConsignments.bookingId, id))
      .orderBy(asc(consignments.id));
    const accountId = members.find((m) => m.accountId)?.accountId;
    const [account] = await tx
      .select()
      .from(carrierAccounts)
      .where(accountId ? eq(carrierAccounts.id, accountId) : and(eq(carrierAccounts.siteId, b.siteId), eq(carrierAccounts.carrierId, b.carrierId), eq(carrierAccounts.active, true)))
      .orderBy(asc(carrierAccounts.id))
      .limit(1);
    let outcome: BookingOutcome;
    try {
      outcome = await adapterFor(carrier!).bookPickup({
        bookingId: b.id,
        bookingDate: b.bookingDate,
        readyAt: b.readyAt,
        closingAt: b.closingAt,
        bookingEmail: account?.bookingEmail || account?.supportEmail || carrier!.defaultEmail || null,
        accountNumber: account?.accountNumber ?? null,
        customerName,
        siteName: site!.name,
        siteAddress: [site!.addressLine1, site!.locality, site!.region, site!.postcode].filter(Boolean).join(", "),
        serviceName: service?.name ?? "",
        consignmentNumbers: members.map((m) => m.number ?? "").filter(Boolean),
        totalItems: b.totalItems,
        totalWeight: Number(b.totalWeight),
        hazardousGoods: b.hazardousGoods,
        additionalItems: b.additionalItems,
        specialRequirements: b.specialRequirements,
        mailer: { ...mailer, send: (m) => mailer.send(m, tx) },
      });
    } catch (e) {
      outcome = { ok: false, reason: e instanceof Error ? e.message : String(e), permanent: false };
    }
    await tx
      .update(bookings)
      .set(
        outcome.ok
          ? { state: "booked", bookingNumber: outcome.bookingNumber, bookingError: null, attempts: sql`${bookings.attempts} + 1`, updatedAt: new Date() }
          : { state: outcome.permanent ? "failed_permanently" : "failed", bookingError: outcome.reason, attempts: sql`${bookings.attempts} + 1`, updatedAt: new Date() },
      )
      .where(eq(bookings.id, id));
  });
}

/** The job's closing message and errors: all sent, all failed ('Sorry...'), or how many went. */
export function bookOutcome(result: BookResult): { message: string; errors: string[] } {
  if (!result.failed.length && result.booked.length === result.total) return { message: BOOKINGS_SENT, errors: [] };
  if (!result.booked.length) return { message: ALL_FAILED, errors: [ALL_FAILED, ...result.reasons] };
  return { message: bookedMessage(result.booked.length, result.total), errors: result.reasons };
}
