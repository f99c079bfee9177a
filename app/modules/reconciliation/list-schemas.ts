/**
 * The reconciliations list's query (GET /api/reconciliations and the /reconciliations screens,
 * spec 3 sections 2, 7 and 9; decision 020-finance-ii-list). Pure, so the screen's links and the
 * browser's filter form use the same names, limits and labels as the server.
 */
import { z } from "zod";
import { REASON_CATEGORIES, type ReasonCategory } from "./compare";
import { PAGE_SIZES } from "../invoices/schemas";
import { RECONCILIATION_STATES } from "./states";

export const DEFAULT_PER_PAGE = 20;

/** Labels of the reasons multi-select and the Issues column. */
export const REASON_LABELS: Record<ReasonCategory, string> = {
  duplicate: "Possible duplicate",
  zone: "Zone",
  incorrect_rate: "Incorrect rate",
  failed_to_rate: "Failed to rate",
  buy_rate_missing: "Buy rate missing",
  service: "Service",
  surcharge: "Surcharge",
  check_wt_vol: "Check weight/volume",
};

/**
 * The per-column filters and how each matches (documented in the decision):
 * consignment and invoice numbers from their start, case aside (a number is typed from its
 * beginning); zones whole, case aside (a zone is a short code); weight, margin and discrepancy
 * equal to the number typed (to the gram / cent).
 */
export const COLUMN_FILTERS = ["consignment_number", "invoice_number", "from_zone", "to_zone", "weight", "margin", "discrepancy"] as const;
export type ColumnFilter = (typeof COLUMN_FILTERS)[number];

/** The sortable columns (the whitelist of order_by). */
export const ORDER_COLUMNS = ["id", ...COLUMN_FILTERS] as const;
export type OrderColumn = (typeof ORDER_COLUMNS)[number];

const blankToUndefined = (v: unknown) => (v === "" || v == null ? undefined : v);
const text = (max: number) => z.preprocess((v) => (typeof v === "string" ? v.trim() || undefined : v), z.string().max(max, `At most ${max} characters`).optional());
/** A filter far outside any figure is told its range, not that it is no number. */
export const FILTER_RANGE = "Must be from -1,000,000,000 to 1,000,000,000";
const number = (message: string) =>
  z.preprocess(blankToUndefined, z.coerce.number(message).finite(message).min(-1e9, FILTER_RANGE).max(1e9, FILTER_RANGE).optional());
const id = (message: string) => z.preprocess(blankToUndefined, z.coerce.number(message).int(message).positive(message).max(2_147_483_647, message).optional());

/** reasons as "zone,surcharge", repeated fields or a JSON array: any of them */
const reasons = z.preprocess(
  (v) => {
    const list = Array.isArray(v) ? v.flatMap((x) => String(x).split(",")) : typeof v === "string" ? v.split(",") : v == null ? [] : v;
    return Array.isArray(list) ? [...new Set(list.map((s) => String(s).trim()).filter(Boolean))] : list;
  },
  z.array(z.enum(REASON_CATEGORIES, `Must be any of ${REASON_CATEGORIES.join(", ")}`)),
);

export const listQuerySchema = z.object({
  state: z.preprocess(blankToUndefined, z.enum(RECONCILIATION_STATES, "Must be reconciling, disputed or reconciled").default("reconciling")),
  per_page: z.preprocess(
    blankToUndefined,
    z.coerce
      .number()
      .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), "Must be one of 20, 50, 100, 150")
      .optional(),
  ),
  page: z.preprocess(blankToUndefined, z.coerce.number("Must be a page number").int("Must be a page number").min(1, "Must be a page number").max(1_000_000, "Must be a page number").default(1)),
  invoice_id: id("Must be an invoice id"),
  customer_id: id("Must be a customer id"),
  carrier_code: text(50),
  reasons,
  consignment_number: text(50),
  invoice_number: text(50),
  from_zone: text(20),
  to_zone: text(20),
  weight: number("Must be a number"),
  margin: number("Must be a number"),
  discrepancy: number("Must be a number"),
  order_by: z.preprocess(blankToUndefined, z.enum(ORDER_COLUMNS, `Must be one of ${ORDER_COLUMNS.join(", ")}`).default("id")),
  order_direction: z.preprocess(blankToUndefined, z.enum(["asc", "desc"], "Must be asc or desc").optional()),
  meta_data: z.preprocess((v) => v === true || v === "true" || v === "1", z.boolean()).default(false),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

/** The query parameters a list screen keeps in its links (everything but page and meta_data). */
export const KEPT_PARAMS = ["state", "customer_id", "carrier_code", "reasons", ...COLUMN_FILTERS, "order_by", "order_direction"] as const;

/**
 * The page numbers the pager shows (spec 3 section 9): at most 5, around the current page; First
 * and Last controls reach the ends, and an ellipsis marks pages left out on either side.
 */
export function pageWindow(current: number, total: number): { pages: number[]; gapBefore: boolean; gapAfter: boolean } {
  const last = Math.max(1, total);
  const start = Math.max(1, Math.min(current - 2, last - 4));
  const end = Math.min(last, start + 4);
  const pages: number[] = [];
  for (let n = start; n <= end; n++) pages.push(n);
  return { pages, gapBefore: start > 1, gapAfter: end < last };
}
