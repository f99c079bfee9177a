/**
 * The advanced search criteria schema ({ query } of POST /api/consignments/advanced_search and the
 * /advanced screen's URL). Apart from search.ts because it reads the state list of the database
 * schema, which the browser bundle should not carry.
 */
import { z } from "zod";
import { CONSIGNMENT_STATES } from "../../../db/schema/consignments";
import { inYearWindow, yearWindowMessage } from "../calendar/dates";
import { addMonths, isIsoDate } from "../despatch/manifest-dates";
import { ADVANCED_SORTS, DEFAULT_ADVANCED_SORT, DESPATCH_TYPES, FROM_REQUIRED, MAX_RANGE_MONTHS, RANGE_REVERSED, RANGE_TOO_WIDE, SEARCH_MAX, TO_REQUIRED, type AdvancedSort } from "./search";

/** States a search may ask for: every state but quote (quotes are not consignments here). */
export const SEARCH_STATES = CONSIGNMENT_STATES.filter((s) => s !== "quote");

const text = (label: string) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(SEARCH_MAX, `${label} must be at most ${SEARCH_MAX} characters`)
    .optional()
    .transform((v) => (v ? v : undefined));

const flag = (label: string) =>
  z
    .union([z.boolean(), z.enum(["true", "false"])], { error: `${label} must be true or false` })
    .transform((v) => v === true || v === "true");

const date = (label: string, required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .refine(isIsoDate, { message: `${label} must be a date (YYYY-MM-DD)`, abort: true })
    .refine(inYearWindow, { message: yearWindowMessage(label), abort: true });

/**
 * The advanced search criteria ({ query } of POST /api/consignments/advanced_search, and the
 * screen's URL). Dates are YYYY-MM-DD; the range runs from from_date to to_date, both included,
 * and to_date must fall before the same day two months after from_date.
 */
export const advancedQuerySchema = z
  .object({
    from_date: date("From date", FROM_REQUIRED),
    to_date: date("To date", TO_REQUIRED),
    despatch_type: z.enum(DESPATCH_TYPES, { error: "Despatch type must be normal, return or third_party" }).default("normal"),
    active: flag("Active").default(true),
    state: z.enum(SEARCH_STATES, { error: "Please check the state" }).optional(),
    site: text("Site"),
    carrier: text("Carrier"),
    service: text("Service"),
    reference: text("Reference"),
    custom_reference: text("Custom reference"),
    receiver_name: text("Receiver name"),
    postcode: text("Postcode"),
    locality: text("Locality"),
    consignment_number: text("Consignment number"),
    /** super admins: only consignments changed by a staff user (the audit history) */
    admin: flag("Admin").default(false),
    sort: z.enum(Object.keys(ADVANCED_SORTS) as [AdvancedSort, ...AdvancedSort[]], { error: "Please check the sort" }).default(DEFAULT_ADVANCED_SORT),
    dir: z.enum(["asc", "desc"], { error: "Direction must be asc or desc" }).default("desc"),
  })
  .superRefine((q, ctx) => {
    if (![q.from_date, q.to_date].every((d) => isIsoDate(d) && inYearWindow(d))) return;
    if (q.from_date > q.to_date) ctx.addIssue({ code: "custom", path: ["from_date"], message: RANGE_REVERSED });
    else if (q.to_date >= addMonths(q.from_date, MAX_RANGE_MONTHS)) ctx.addIssue({ code: "custom", path: ["to_date"], message: RANGE_TOO_WIDE });
  });
export type AdvancedQuery = z.infer<typeof advancedQuerySchema>;

