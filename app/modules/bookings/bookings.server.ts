/**
 * Bookings as users read them (spec 2 sections 3, 4, 7 and 9): the list by date range and site,
 * one booking with its consignments, and what a site's day has to book (the new bookings screen
 * and GET /api/bookings/new). Every query is scoped to the working customer and the user's sites;
 * every call checks can_book. Making and rebooking bookings: book.server.ts.
 */
import { and, asc, desc, eq, gte, inArray, lte, notExists, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../../../db/client.server";
import { addresses, bookingConsignments, bookings, carrierAccounts, carriers, consignments, services, sites } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { authorize } from "../auth/guard.server";
import { localTime, todayIn, userSite, userToday } from "../calendar/site-time";
import { inYearWindow, isRealDate, yearWindowMessage } from "../calendar/dates";
import { resolveDateRange } from "../despatch/manifest-dates";
import { readSite } from "../despatch/manifest-rows.server";
import { AppError, notFound, type FieldErrors } from "../../utils/errors";
import { pathId } from "../../utils/ids";
import { defaultWindow, isRebookable, NO_BOOKINGS, NO_CONSIGNMENTS_LEFT, NON_BOOKABLE, NONE_TO_BOOK, stateLabel, type BookingState } from "./rules";

export const UNKNOWN_SITE = "Choose one of your sites";
/** The most bookings one list shows: two months of a busy customer's pickups fit well inside it. */
export const MAX_LISTED = 1000;

/** can_book gates every booking screen and call (spec 2 sections 2 and 9). */
export function authorizeBooking(user: CurrentUser) {
  authorize(user, (u) => u.canBook);
}

export const SORTS = ["booking_date", "booking_number", "state", "site_name", "carrier_name", "service_name", "total_consignments"] as const;
export type BookingSort = (typeof SORTS)[number];

export interface BookingRow {
  id: number;
  booking_number: string | null;
  state: BookingState;
  state_label: string;
  site_id: number;
  site_name: string;
  carrier_name: string;
  service_code: string | null;
  service_name: string | null;
  booking_date: string;
  ready_at: string;
  closing_at: string;
  total_consignments: number;
  total_items: number;
  total_weight: number;
  total_volume: number;
  hazardous_goods: boolean;
  failed_booking: boolean;
  rebook: boolean;
  special_requirements: string | null;
  booking_error: string | null;
  attempts: number;
}

function rowQuery(db: DbOrTx) {
  return db
    .select({ b: bookings, siteName: sites.name, carrierName: carriers.name, serviceCode: services.code, serviceName: services.name })
    .from(bookings)
    .innerJoin(sites, eq(sites.id, bookings.siteId))
    .innerJoin(carriers, eq(carriers.id, bookings.carrierId))
    .leftJoin(services, eq(services.id, bookings.serviceId));
}
type Joined = Awaited<ReturnType<ReturnType<typeof rowQuery>["where"]>>[number];

function toRow({ b, siteName, carrierName, serviceCode, serviceName }: Joined): BookingRow {
  const failed = b.state === "failed" || b.state === "failed_permanently";
  return {
    id: b.id,
    booking_number: b.bookingNumber,
    state: b.state,
    state_label: stateLabel(b.state),
    site_id: b.siteId,
    site_name: siteName,
    carrier_name: carrierName,
    service_code: serviceCode,
    service_name: serviceName,
    booking_date: b.bookingDate,
    ready_at: b.readyAt,
    closing_at: b.closingAt,
    total_consignments: b.totalConsignments,
    total_items: b.totalItems,
    total_weight: Number(b.totalWeight),
    total_volume: Number(b.totalVolume),
    hazardous_goods: b.hazardousGoods,
    failed_booking: failed,
    rebook: isRebookable(b.state),
    special_requirements: b.specialRequirements,
    booking_error: b.bookingError,
    attempts: b.attempts,
  };
}

/** The customer's bookings at the user's sites. */
const scopeOf = (user: CurrentUser) => and(eq(bookings.customerId, user.customer.id), user.siteIds.length ? inArray(bookings.siteId, user.siteIds) : sql`false`);

const ORDER: Record<BookingSort, AnyPgColumn> = {
  booking_date: bookings.bookingDate,
  booking_number: bookings.bookingNumber,
  state: bookings.state,
  site_name: sites.name,
  carrier_name: carriers.name,
  service_name: services.name,
  total_consignments: bookings.totalConsignments,
};

export interface BookingFilters {
  site_id?: string | null;
  from_date?: string | null;
  to_date?: string | null;
  sort?: string | null;
  direction?: string | null;
}

export interface BookingList {
  filters: { site_id: string; from_date: string; to_date: string; sort: BookingSort; direction: "asc" | "desc" };
  errors: FieldErrors;
  bookings: BookingRow[];
  truncated: boolean;
  /** 'There are no bookings to display.' when the range has none */
  message: string | null;
}

/**
 * The bookings list and GET /api/bookings?from_date&to_date&site_id: dates default to today at
 * the user's site, sorted by booking date; a range over 2 months is refused with the spec's message.
 */
export async function listBookings(db: DbOrTx, user: CurrentUser, filters: BookingFilters, now = new Date()): Promise<BookingList> {
  authorizeBooking(user);
  const site = readSite(filters.site_id, user);
  const range = resolveDateRange({ from: filters.from_date, to: filters.to_date }, userToday(user, site.siteId, now), { from: "from_date", to: "to_date" });
  const sort = (SORTS as readonly string[]).includes(filters.sort ?? "") ? (filters.sort as BookingSort) : "booking_date";
  const direction = filters.direction === "desc" ? "desc" : "asc";
  const errors: FieldErrors = { ...range.errors, ...(site.ok ? {} : { site_id: [UNKNOWN_SITE] }) };
  const applied = { site_id: site.siteId ? String(site.siteId) : "", from_date: range.from, to_date: range.to, sort, direction } as const;
  if (Object.keys(errors).length) return { filters: applied, errors, bookings: [], truncated: false, message: null };
  const by = direction === "desc" ? desc : asc;
  const rows = await rowQuery(db)
    .where(and(scopeOf(user), site.siteId ? eq(bookings.siteId, site.siteId) : undefined, gte(bookings.bookingDate, range.from), lte(bookings.bookingDate, range.to)))
    .orderBy(by(ORDER[sort]), by(bookings.bookingDate), by(bookings.id))
    .limit(MAX_LISTED + 1);
  const list = rows.slice(0, MAX_LISTED).map(toRow);
  return { filters: applied, errors, bookings: list, truncated: rows.length > MAX_LISTED, message: list.length ? null : NO_BOOKINGS };
}

/** The list's refusal as an /api error (422 with the field's message). */
export async function listBookingsOrThrow(db: DbOrTx, user: CurrentUser, filters: BookingFilters) {
  const list = await listBookings(db, user, filters);
  const first = Object.values(list.errors)[0]?.[0];
  if (first) throw new AppError("invalid", first, list.errors);
  return list;
}

export interface BookingConsignment {
  id: number;
  consignment_number: string | null;
  state: string;
  receiver_address: string;
  despatch_date: string | null;
  item_count: number;
  weight: number;
  volume: number;
  dangerous: boolean;
}

const receiverLine = (a: { name: string | null; locality: string | null; region: string | null; postcode: string | null } | null) =>
  a ? [a.name, [a.locality, a.region, a.postcode].filter(Boolean).join(" ")].filter(Boolean).join(", ") : "";

function consignmentQuery(db: DbOrTx) {
  return db
    .select({
      id: consignments.id,
      number: consignments.consignmentNumber,
      state: consignments.state,
      active: consignments.active,
      despatchDate: consignments.despatchDate,
      itemCount: consignments.itemCount,
      weight: consignments.totalWeight,
      volume: consignments.totalVolume,
      hazardous: consignments.hazardous,
      serviceId: consignments.serviceId,
      carrierId: carrierAccounts.carrierId,
      receiver: { name: addresses.name, locality: addresses.locality, region: addresses.region, postcode: addresses.postcode },
    })
    .from(consignments)
    .leftJoin(addresses, eq(addresses.id, consignments.receiverAddressId))
    .leftJoin(carrierAccounts, eq(carrierAccounts.id, consignments.carrierAccountId));
}
type ConsignmentJoin = Awaited<ReturnType<ReturnType<typeof consignmentQuery>["where"]>>[number];

const toConsignment = (c: ConsignmentJoin): BookingConsignment => ({
  id: c.id,
  consignment_number: c.number,
  state: c.state,
  receiver_address: receiverLine(c.receiver),
  despatch_date: c.despatchDate,
  item_count: c.itemCount,
  weight: Number(c.weight),
  volume: Number(c.volume),
  dangerous: c.hazardous,
});

/** A booking the user may see, or 404 (another customer's, or a site they do not have). */
export async function scopedBooking(db: DbOrTx, user: CurrentUser, id: number) {
  const [row] = await rowQuery(db).where(and(eq(bookings.id, id), scopeOf(user)));
  if (!row) throw notFound("Booking");
  return row;
}

/** A booking's consignments still to pick up: not deleted, merged or cancelled, and still with the booking's carrier. */
export const stillBooked = (c: { state: string; active: boolean; carrierId: number | null }, carrierId: number) =>
  c.active && !["deleted", "merged", "cancelled", "cancelling"].includes(c.state) && c.carrierId === carrierId;

/** GET /api/bookings/{id} and /booking/{id}: the booking, its consignments and, when none is left, the error. */
export async function getBooking(db: DbOrTx, user: CurrentUser, rawId: string | number) {
  authorizeBooking(user);
  const id = typeof rawId === "number" ? rawId : pathId(rawId, "Booking");
  const row = await scopedBooking(db, user, id);
  const members = await consignmentQuery(db)
    .innerJoin(bookingConsignments, eq(bookingConsignments.consignmentId, consignments.id))
    .where(eq(bookingConsignments.bookingId, id))
    .orderBy(asc(consignments.id));
  const left = members.filter((c) => stillBooked(c, row.b.carrierId));
  const noneLeft = !left.length && !row.b.additionalItems.length;
  return {
    ...toRow(row),
    additional_items: row.b.additionalItems,
    consignments: members.map(toConsignment),
    /** the booking has nothing left to pick up: all consignments were deleted or the carrier was changed */
    error: noneLeft ? NO_CONSIGNMENTS_LEFT : null,
  };
}

// ---------------------------------------------------------------------------------------------
// What there is to book (the new bookings screen and GET /api/bookings/new)

export interface ServiceGroup {
  carrier_code: string;
  carrier_name: string;
  service_code: string;
  service_name: string;
  consignments: (BookingConsignment & { bookable: boolean; warning: string | null })[];
}

/** A site of the user's, or the user's current site (their default, else their first). */
export function bookingSite(user: CurrentUser, raw: string | number | null | undefined) {
  const v = raw == null ? "" : String(raw).trim();
  if (!v) {
    const site = userSite(user);
    if (!site) throw new AppError("invalid", UNKNOWN_SITE, { site_id: [UNKNOWN_SITE] });
    return site;
  }
  const site = user.sites.find((s) => String(s.id) === v);
  if (!site) throw new AppError("invalid", UNKNOWN_SITE, { site_id: [UNKNOWN_SITE] });
  return site;
}

/** The site's row with what bookings need of it (closing time, zone, country, address). */
export async function siteForBooking(db: DbOrTx, siteId: number) {
  const [site] = await db.select().from(sites).where(eq(sites.id, siteId));
  if (!site) throw notFound("Site");
  return site;
}

/** The consignments despatched from a site for a day and not booked yet, by service. */
export async function consignmentsToBook(db: DbOrTx, user: CurrentUser, siteId: number, date: string) {
  return consignmentQuery(db)
    .innerJoin(services, eq(services.id, consignments.serviceId))
    .innerJoin(carriers, eq(carriers.id, services.carrierId))
    .where(
      and(
        eq(consignments.customerId, user.customer.id),
        eq(consignments.siteId, siteId),
        eq(consignments.state, "despatched"),
        eq(consignments.active, true),
        eq(consignments.isQuote, false),
        eq(consignments.despatchDate, date),
        notExists(db.select({ one: sql`1` }).from(bookingConsignments).where(eq(bookingConsignments.consignmentId, consignments.id))),
      ),
    )
    .orderBy(asc(carriers.name), asc(services.name), asc(consignments.id));
}

/**
 * GET /api/bookings/new?site_id&date: the user's current site (or the one asked), the day
 * (today there by default), the default pickup window (ready at the next quarter hour, closing at
 * the site's closing time) and the service groups with the consignments to book.
 */
export async function newBookings(db: DbOrTx, user: CurrentUser, query: { site_id?: string | null; date?: string | null }, now = new Date()) {
  authorizeBooking(user);
  const summary = bookingSite(user, query.site_id);
  const site = await siteForBooking(db, summary.id);
  const today = todayIn(site.timezone, now);
  const date = query.date?.trim() || today;
  if (!isRealDate(date)) throw new AppError("invalid", "Enter a date as YYYY-MM-DD", { date: ["Enter a date as YYYY-MM-DD"] });
  if (!inYearWindow(date)) throw new AppError("invalid", yearWindowMessage("Date"), { date: [yearWindowMessage("Date")] });
  const rows = await consignmentsToBook(db, user, site.id, date);
  const groups: ServiceGroup[] = [];
  const meta = await serviceNames(db, rows.map((r) => r.serviceId!));
  for (const r of rows) {
    const s = meta.get(r.serviceId!)!;
    let group = groups.find((g) => g.carrier_code === s.carrierCode && g.service_code === s.code);
    if (!group) groups.push((group = { carrier_code: s.carrierCode, carrier_name: s.carrierName, service_code: s.code, service_name: s.name, consignments: [] }));
    // a consignment without weight cannot be booked (spec 2 section 8): shown with its warning
    const bookable = Number(r.weight) > 0;
    group.consignments.push({ ...toConsignment(r), bookable, warning: bookable ? null : NON_BOOKABLE });
  }
  const clock = localTime(now, site.timezone, "AUSTRALIA").slice(-5);
  return {
    site: { id: site.id, name: site.name, code: site.code, closing_time: site.closingTime },
    date,
    today,
    ...defaultWindow(date === today ? clock : "08:00", site.closingTime),
    groups,
    message: groups.length ? null : NONE_TO_BOOK,
  };
}

async function serviceNames(db: DbOrTx, ids: number[]) {
  const unique = [...new Set(ids)];
  const rows = unique.length
    ? await db
        .select({ id: services.id, code: services.code, name: services.name, carrierCode: carriers.code, carrierName: carriers.name })
        .from(services)
        .innerJoin(carriers, eq(carriers.id, services.carrierId))
        .where(inArray(services.id, unique))
    : [];
  return new Map(rows.map((r) => [r.id, r]));
}
