/**
 * The booking rules of spec 2 sections 4, 5, 8 and 9, pure so the screens, the module and the
 * /api share one copy: the messages, the pickup time steps, the additional items rule and the
 * book request's schema.
 */
import { z } from "zod";
import { recordId } from "../../utils/ids";
import { calendarDate } from "../calendar/dates";
import { roundUpToQuarter } from "../consignments/rules";

export const NO_BOOKINGS = "There are no bookings to display.";
export const NONE_TO_BOOK = "There are no consignments to book.";
export const NOTHING_SELECTED = "No consignments or additional items have been selected for booking.";
export const FILL_ADDITIONAL_ITEMS = "Please ensure all additional items fields are filled out.";
export const FILL_DG_FIELDS = "A dangerous goods item needs its hazard class, proper shipping name, UN number and weight.";
export const BOOKINGS_SENT = "Your bookings have been sent.";
export const ALL_FAILED = "Sorry, all consignments failed to book. Please contact tech support.";
export const CLOSING_TIME_PASSED = "Closing time has passed, booking has been moved to next valid despatch date.";
export const NO_CONSIGNMENTS_LEFT = "All consignments of this booking were deleted or the carrier was changed.";
export const NOT_REBOOKABLE = "Only a failed booking can be rebooked.";
export const SPECIAL_REQUIREMENTS_TOO_LONG = "Special requirements must be 200 characters or fewer.";
export const TIMES_OUT_OF_ORDER = "The closing time must be after the ready time.";
export const BAD_TIME = "Choose a time on the quarter hour (HH:MM)";
export const NON_BOOKABLE = "Non-bookable: this consignment has no weight.";
export const BOOKING = "Booking...";
export const MAX_SPECIAL_REQUIREMENTS = 200;
/** The most bookings one request makes (one per service group of a site's day). */
export const MAX_BOOKINGS = 50;
export const MAX_CONSIGNMENTS = 5000;
export const MAX_ADDITIONAL_ITEMS = 50;

/** 'Booked n of total bookings': the job's progress and, when only some went, its closing message. */
export const bookedMessage = (done: number, total: number) => `Booked ${done} of ${total} bookings`;

export type BookingState = "pending" | "booked" | "failed" | "failed_permanently";

/** The state as the header shows it: capitalised; failed_permanently reads "Failed". */
export const stateLabel = (state: BookingState) => (state === "failed_permanently" ? "Failed" : state.charAt(0).toUpperCase() + state.slice(1));
export const isRebookable = (state: BookingState) => state === "failed" || state === "failed_permanently";

// ---------------------------------------------------------------------------------------------
// Pickup times: HH:MM on the quarter hour (spec 2 section 9)

const QUARTER = /^([01]\d|2[0-3]):(00|15|30|45)$/;
export const isQuarterHour = (t: string) => QUARTER.test(t);
const minutesOf = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
// the pickers' choices (TimeSelect) and rounding are the consignment screen's: one copy of the 15-minute rule
const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;

/** The default pickup window from a local time: ready at the next quarter hour, closing at the site's closing time or two hours on. */
export function defaultWindow(localTime: string, siteClosing: string | null): { ready_at: string; closing_at: string } {
  const ready = roundUpToQuarter(localTime);
  const closing = siteClosing ? roundUpToQuarter(siteClosing) : null;
  return { ready_at: ready, closing_at: closing && minutesOf(closing) > minutesOf(ready) ? closing : hhmm(Math.min(minutesOf(ready) + 120, 23 * 60 + 45)) };
}

/** Whether a local time of day (HH:MM) is at or past a closing time (HH:MM). */
export const pastClosing = (localTime: string, closing: string) => minutesOf(localTime.slice(0, 5)) >= minutesOf(closing.slice(0, 5));

// ---------------------------------------------------------------------------------------------
// Additional items: all of a row's fields once any is given; the DG fields together (spec 2 section 8)

export const ITEM_FIELDS = ["quantity", "type", "length", "width", "height", "weight_in_uom"] as const;
export const DG_FIELDS = ["hazard_class", "proper_shipping_name", "un_number"] as const;
export type AdditionalItem = Record<(typeof ITEM_FIELDS)[number] | (typeof DG_FIELDS)[number], string>;

const text = (v: unknown) => (v == null ? "" : String(v).trim());
const positive = (v: string) => v !== "" && Number.isFinite(Number(v)) && Number(v) > 0;

/**
 * The additional items as given, blank rows dropped, each checked: a row with any field needs
 * them all (positive numbers for the counts and measures); a DG row needs its three DG fields
 * and the weight. Errors are keyed additional_items_attributes.{i}.{field}.
 */
export function checkAdditionalItems(rows: unknown[], path = "additional_items_attributes"): { items: AdditionalItem[]; errors: Record<string, string[]> } {
  const items: AdditionalItem[] = [];
  const errors: Record<string, string[]> = {};
  rows.forEach((raw, i) => {
    const r = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
    const item = Object.fromEntries([...ITEM_FIELDS, ...DG_FIELDS].map((f) => [f, text(r[f]).slice(0, 100)])) as AdditionalItem;
    const given = ITEM_FIELDS.some((f) => item[f] !== "");
    const dg = DG_FIELDS.some((f) => item[f] !== "");
    if (!given && !dg) return;
    const missing = ITEM_FIELDS.filter((f) => (f === "type" ? item[f] === "" : !positive(item[f])));
    for (const f of missing) errors[`${path}.${i}.${f}`] = [FILL_ADDITIONAL_ITEMS];
    if (dg) for (const f of DG_FIELDS) if (item[f] === "") errors[`${path}.${i}.${f}`] = [FILL_DG_FIELDS];
    items.push(item);
  });
  return { items, errors };
}

// ---------------------------------------------------------------------------------------------
// The book request (PUT /api/bookings/book_all and the new bookings screen)

const time = z.string({ error: BAD_TIME }).trim().refine(isQuarterHour, BAD_TIME);

export const bookingSchema = z
  .object({
    site_id: recordId("Choose one of your sites"),
    service_code: z.string({ error: "Choose a service" }).trim().min(1, "Choose a service").max(50),
    /** needed only where two of the site's carriers use the same service code */
    carrier_code: z.string().trim().max(50).optional(),
    /** the pickup day at the site (YYYY-MM-DD); today there when absent */
    booking_date: calendarDate("Booking date", "Enter a date as YYYY-MM-DD").optional(),
    consignment_ids: z.array(recordId("consignment_ids must be consignment ids")).max(MAX_CONSIGNMENTS).default([]),
    ready_at: time,
    closing_at: time,
    additional_items_attributes: z.array(z.unknown()).max(MAX_ADDITIONAL_ITEMS).default([]),
    special_requirements: z.string().trim().max(MAX_SPECIAL_REQUIREMENTS, SPECIAL_REQUIREMENTS_TOO_LONG).nullish(),
  })
  .refine((b) => !isQuarterHour(b.ready_at) || !isQuarterHour(b.closing_at) || minutesOf(b.closing_at) > minutesOf(b.ready_at), { message: TIMES_OUT_OF_ORDER, path: ["closing_at"] });

export type BookingInput = z.infer<typeof bookingSchema>;

export const bookAllSchema = z.object({
  bookings: z.array(z.unknown(), { error: NONE_TO_BOOK }).min(1, NONE_TO_BOOK).max(MAX_BOOKINGS, `At most ${MAX_BOOKINGS} bookings can be made at once.`),
});

// ---------------------------------------------------------------------------------------------
// The new bookings form: one booking a service group, fields named g{i}.{field}

/** The shape of the book request from the screen's form (groups with nothing selected are left out by the module). */
export function bookingsFromForm(form: FormData): { bookings: Record<string, unknown>[] } {
  const get = (k: string) => (form.get(k) == null ? "" : String(form.get(k)));
  const groups = Number(get("groups"));
  const bookings: Record<string, unknown>[] = [];
  for (let g = 0; g < (Number.isInteger(groups) ? Math.min(groups, MAX_BOOKINGS) : 0); g++) {
    const rows = Math.min(Number(get(`g${g}.rows`)) || 0, MAX_ADDITIONAL_ITEMS);
    bookings.push({
      site_id: Number(get("site_id")),
      booking_date: get("booking_date") || undefined,
      service_code: get(`g${g}.service_code`),
      carrier_code: get(`g${g}.carrier_code`) || undefined,
      consignment_ids: form.getAll(`g${g}.c`).map(Number),
      ready_at: get("ready_at"),
      closing_at: get("closing_at"),
      special_requirements: get("special_requirements"),
      additional_items_attributes: Array.from({ length: rows }, (_, n) => Object.fromEntries([...ITEM_FIELDS, ...DG_FIELDS].map((f) => [f, get(`g${g}.items.${n}.${f}`)]))),
    });
  }
  return { bookings };
}
