/**
 * The invoices' filters, edits and messages (spec 3 sections 2, 5, 8 and 9), shared by the
 * screens and /api. Pure, so the browser bundle and unit tests use the same rules.
 */
import { z } from "zod";
import { typedDate } from "../calendar/display-date";
import { COST_CATEGORIES } from "../../../db/schema/finance";

export const INVOICE_MESSAGES = {
  noInvoices: "There are no invoices to display.",
  noLines: "There are no consignments to display.",
  chooseInvoices: "Choose at least one invoice first.",
  deleted: (n: number) => `${n} invoice${n === 1 ? "" : "s"} deleted.`,
  exportedCannotDelete: (numbers: string) => `Exported invoices cannot be deleted: ${numbers}.`,
  lineSaved: "The invoice line was saved.",
  lineExported: "An exported line cannot be changed.",
  invoiceSaved: "The invoice was saved.",
  notSaved: "The invoice line was not saved: check the fields marked.",
  exportedAccounting: (n: number) => `${n} invoice${n === 1 ? "" : "s"} exported as bills.`,
  unmapped: (carrier: string) => `${carrier} is not mapped to a supplier: not exported.`,
};

export const DATE_FILTERS = ["this_week", "last_week", "fortnight", "this_month", "last_month", "custom"] as const;
export type DateFilter = (typeof DATE_FILTERS)[number];
export const DATE_FILTER_LABELS: Record<DateFilter, string> = {
  this_week: "This week",
  last_week: "Last week",
  fortnight: "Past fortnight",
  this_month: "This month",
  last_month: "Last month",
  custom: "Custom",
};

export const PAYABLE_STATES = ["all", "unallocated", "allocated", "exported"] as const;
export type PayableStateFilter = (typeof PAYABLE_STATES)[number];
export const LINE_STATES = ["all", "allocated", "unallocated", "invoiced"] as const;
export type LineStateFilter = (typeof LINE_STATES)[number];
export const PAGE_SIZES = [20, 50, 100, 150] as const;

/** Cost category labels: the spec names fuel_charge "Fuel levy"; the rest read as words. */
export function costCategoryLabel(category: string): string {
  if (category === "fuel_charge") return "Fuel levy";
  if (category === "gst") return "GST";
  const words = category.replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const isoDate = /^\d{4}-\d{2}-\d{2}$/;
const optionalId = z.preprocess((v) => (v === "" || v === "all" || v == null ? undefined : v), z.coerce.number().int().positive("Must be an id").optional());
const optionalIso = z.preprocess((v) => (v === "" || v == null ? undefined : v), z.string().regex(isoDate, "Must be a date (YYYY-MM-DD)").optional());

/** The payable list's filters, as they stand in the URL (and in GET /api/invoices' query). */
export const invoiceFilterSchema = z.object({
  carrier_id: optionalId,
  customer_id: optionalId,
  date: z.preprocess((v) => (v === "" || v == null ? undefined : v), z.enum(DATE_FILTERS, "Must be one of " + DATE_FILTERS.join(", ")).optional()),
  from: optionalIso,
  to: optionalIso,
  state: z.preprocess((v) => (v === "" || v == null ? undefined : v), z.enum(PAYABLE_STATES, "Must be one of " + PAYABLE_STATES.join(", ")).optional()),
});
export type InvoiceFilterInput = z.infer<typeof invoiceFilterSchema>;

export function addDays(iso: string, n: number): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}
function monthStart(iso: string, back = 0): string {
  const d = new Date(`${iso}T00:00:00Z`);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - back, 1)).toISOString().slice(0, 10);
}
/** One month before a date (the custom range's default start, spec 3 section 9). */
export function monthBack(iso: string): string {
  const d = new Date(`${iso}T00:00:00Z`);
  const back = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1));
  const last = new Date(Date.UTC(back.getUTCFullYear(), back.getUTCMonth() + 1, 0)).getUTCDate();
  back.setUTCDate(Math.min(d.getUTCDate(), last));
  return back.toISOString().slice(0, 10);
}

/**
 * The invoice date range of a filter, inclusive, weeks starting on Monday. The default is the
 * past fortnight; custom defaults to one month back up to today.
 */
export function dateRange(filter: DateFilter, today: string, custom: { from?: string; to?: string } = {}): { from: string; to: string } {
  const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
  const monday = addDays(today, -weekday);
  switch (filter) {
    case "this_week":
      return { from: monday, to: addDays(monday, 6) };
    case "last_week":
      return { from: addDays(monday, -7), to: addDays(monday, -1) };
    case "this_month":
      return { from: monthStart(today), to: addDays(monthStart(today, -1), -1) };
    case "last_month":
      return { from: monthStart(today, 1), to: addDays(monthStart(today), -1) };
    case "custom":
      return { from: custom.from ?? monthBack(today), to: custom.to ?? today };
    default:
      return { from: addDays(today, -13), to: today };
  }
}

/**
 * The invoice dates a list shows (issue 29 finding 7, decision 027), one definition for the
 * payable and receivable lists: dateRange's from and to on the user's own today, and when the
 * range ends today (the past fortnight, a custom range with no end typed) no upper bound, so an
 * invoice dated after today (a carrier's future-dated invoice just imported, a customer invoice
 * dated on a site's calendar ahead of the viewer's) is never hidden. `through` null: no upper bound.
 */
export function listedDates(filter: DateFilter, today: string, custom: { from?: string; to?: string } = {}): { from: string; to: string; through: string | null } {
  const range = dateRange(filter, today, custom);
  const endsToday = range.to === today && !(filter === "custom" && custom.to);
  return { ...range, through: endsToday ? null : range.to };
}

/** Selected invoices: `ids` (or `invoice_ids`) as a list or repeated form field. */
export const idsSchema = z.object({
  ids: z.array(z.coerce.number().int().positive("Must be an id")).max(1000, "At most 1000 invoices at once").min(1, INVOICE_MESSAGES.chooseInvoices),
});

export const EXPORT_FORMATS = ["csv", "xlsx", "accounting"] as const;
export const exportSchema = idsSchema.extend({ format: z.enum(EXPORT_FORMATS, "Must be csv, xlsx or accounting") });

/** Spec 3 section 5: invoice date is dd/mm/yyyy, 10 characters (read by typedDate, below). */
export const isoToDisplay = (iso: string | null | undefined) => (iso ? `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}` : "");

// the product's one date reading (calendar/display-date.ts): dd/mm/yyyy or YYYY-MM-DD, in the years 2000 to 2100
const dateField = (label: string) => z.preprocess((v) => (v === "" ? null : v), typedDate(label, { formatMessage: `${label} must be a date (dd/mm/yyyy)` }).nullable());
/** An amount a person types: a number and in range, each said as such (zod gives the schema's message to a range check without one). */
export const MONEY_RANGE = "Must be from -10,000,000 to 10,000,000";
const money = z.preprocess((v) => (typeof v === "string" ? v.replace(/[$,\s]/g, "") : v), z.coerce.number("Must be a number").finite("Must be a number").min(-10_000_000, MONEY_RANGE).max(10_000_000, MONEY_RANGE));

/** PUT /api/invoices/{id}: number, date (dd/mm/yyyy) and total. */
export const invoiceUpdateSchema = z
  .object({
    invoice_number: z.string().trim().min(1, "Invoice number is required").max(100),
    invoice_date: dateField("Invoice date"),
    total: money,
  })
  .partial()
  .strict();

const text = (max = 255) => z.preprocess((v) => (v === "" ? null : v), z.string().trim().max(max, `At most ${max} characters`).nullable());
const num = (label: string) =>
  z.preprocess((v) => (v === "" ? null : typeof v === "string" ? v.replace(/[,\s]/g, "") : v), z.coerce.number(`${label} must be a number`).finite(`${label} must be a number`).min(0, `${label} cannot be negative`).max(1_000_000, `${label} must be at most 1,000,000`).nullable());
const flag = z.preprocess((v) => v === true || v === "true" || v === "on" || v === "1", z.boolean());
const ref = z.preprocess((v) => (v === "" ? null : v), z.coerce.number().int().positive("Must be an id").nullable());

/**
 * The payable line fields the detail modal edits (spec 3 "Invoice detail modal"). service_id
 * "unquoted" is the select's Unquoted choice.
 */
export const lineUpdateSchema = z
  .object({
    sender_name: text(),
    sender_locality: text(100),
    sender_region: text(50),
    sender_postcode: text(20),
    sender_zone: text(50),
    receiver_name: text(),
    receiver_locality: text(100),
    receiver_region: text(50),
    receiver_postcode: text(20),
    receiver_zone: text(50),
    account_number: text(100),
    parent_account_number: text(100),
    payer: text(),
    reference: text(),
    service_description: text(),
    despatch_date: dateField("Despatch date"),
    total_quantity: z.preprocess((v) => (v === "" ? null : v), z.coerce.number("Quantity must be a number").int("Quantity must be a whole number").min(0, "Quantity cannot be negative").max(100_000, "Quantity must be at most 100,000").nullable()),
    total_weight_in_uom: num("Dead weight"),
    total_charge_weight: num("Charge weight"),
    total_volume_in_uom_cubed: num("Volume"),
    total_cost: money,
    dangerous_goods: flag,
    customer_id: ref,
    site_id: ref,
    service_id: z.preprocess((v) => (v === "" ? null : v), z.union([z.literal("unquoted"), z.coerce.number().int().positive("Must be an id")]).nullable()),
  })
  .partial();
export type LineUpdate = z.infer<typeof lineUpdateSchema>;

/** Invoice detail search (GET /api/invoice_details): spec 3 section 7. */
export const LINE_ORDER = ["line_number", "consignment_number", "receiver_name", "despatch_date", "total_cost", "state"] as const;
export const lineSearchSchema = z.object({
  invoice_id: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().positive("Must be an id").optional()),
  state: z.preprocess((v) => (v === "" || v == null ? undefined : v), z.string().max(30).optional()),
  accounting_type: z.preprocess((v) => (v === "" || v == null ? undefined : v), z.enum(["payable", "receivable"]).optional()),
  page: z.preprocess((v) => (v === "" || v == null ? 1 : v), z.coerce.number().int().min(1, "Must be 1 or more").max(100_000)),
  per_page: z.preprocess((v) => (v === "" || v == null ? 20 : v), z.coerce.number().refine((n) => (PAGE_SIZES as readonly number[]).includes(n), "Must be one of 20, 50, 100, 150")),
  order_by: z.preprocess((v) => (v === "" || v == null ? "line_number" : v), z.enum(LINE_ORDER)),
  order_direction: z.preprocess((v) => (v === "" || v == null ? "asc" : v), z.enum(["asc", "desc"])),
});

export const searchQuerySchema = z.object({ query: z.string().trim().min(3, "Type at least 3 characters").max(100) });

export { COST_CATEGORIES };
