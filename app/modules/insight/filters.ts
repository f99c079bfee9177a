/**
 * The /insight filters (issue 33 item 2): what the URL may say, checked once for the page, its
 * CSVs and /api. Unknown parameters, periods longer than two years and malformed ids are refused
 * with a message naming the parameter; whether an id is the reader's is the server half's check.
 */
import { z } from "zod";
import { calendarDate, plusDays } from "../calendar/dates";

export const MAX_PERIOD_DAYS = 731;
export const CURRENCIES = ["AUD", "NZD", "USD"] as const;
export const SECTIONS = ["performance", "spend", "audit", "emissions"] as const;
export type Section = (typeof SECTIONS)[number];

export const INSIGHT_MESSAGES = {
  unknown: (names: string[]) => `Unknown filter${names.length > 1 ? "s" : ""}: ${names.join(", ")}`,
  tooLong: "The period can be at most two years",
  backwards: "The period must end on or after its start",
  lane: "Lane must be two states, from-to (for example VIC-NSW)",
  notYours: (what: string) => `${what} is not one you can see`,
  chart: "Unknown chart",
} as const;

const id = (label: string) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${label} must be a number`)
    .transform(Number)
    .optional();

/** The URL's filters as the page and its CSVs read them (every value a string, as a URL has them). */
export const insightFilterSchema = z
  .object({
    from: calendarDate("From").optional(),
    to: calendarDate("To").optional(),
    customer_id: id("Customer"),
    site_id: id("Site"),
    carrier_id: id("Carrier"),
    service_id: id("Service"),
    lane: z
      .string()
      .regex(/^[A-Za-z ]{1,30}-[A-Za-z ]{1,30}$/, INSIGHT_MESSAGES.lane)
      .optional(),
    currency: z.enum(CURRENCIES, { message: `Currency must be one of ${CURRENCIES.join(", ")}` }).optional(),
    section: z.enum(SECTIONS, { message: `Section must be one of ${SECTIONS.join(", ")}` }).optional(),
  })
  .strict();

export type InsightFilterInput = z.input<typeof insightFilterSchema>;

export interface InsightFilters {
  from: string;
  to: string;
  customerId: number | null;
  siteId: number | null;
  carrierId: number | null;
  serviceId: number | null;
  lane: { from: string; to: string } | null;
  currency: (typeof CURRENCIES)[number] | null;
  section: Section;
}

/** Whole days from `from` to `to`, both counted. */
export function periodDays(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** The first day of the month `months` before `iso`'s month (the default period's start). */
export function monthStart(iso: string, monthsBack = 0): string {
  const d = new Date(`${iso.slice(0, 7)}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() - monthsBack);
  return d.toISOString().slice(0, 10);
}

export type FilterResult = { ok: true; filters: InsightFilters } | { ok: false; message: string; errors: Record<string, string[]> };

/**
 * The URL's parameters checked and defaulted: the past twelve months to `today` (the reader's
 * date), every section's charts for the performance section when none is asked for. Empty values
 * count as absent, as a form without JavaScript sends every field.
 */
export function parseInsightFilters(params: URLSearchParams, today: string, ignore: readonly string[] = []): FilterResult {
  const raw: Record<string, string> = {};
  for (const [k, v] of params) if (v !== "" && !ignore.includes(k)) raw[k] = v;
  const parsed = insightFilterSchema.safeParse(raw);
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    const unknown: string[] = [];
    for (const issue of parsed.error.issues) {
      if (issue.code === "unrecognized_keys") unknown.push(...issue.keys);
      else (errors[String(issue.path[0] ?? "filters")] ??= []).push(issue.message);
    }
    if (unknown.length) errors.filters = [INSIGHT_MESSAGES.unknown(unknown)];
    return { ok: false, message: Object.values(errors)[0]![0]!, errors };
  }
  const f = parsed.data;
  const to = f.to ?? today;
  const from = f.from ?? monthStart(to, 11);
  if (to < from) return { ok: false, message: INSIGHT_MESSAGES.backwards, errors: { to: [INSIGHT_MESSAGES.backwards] } };
  if (periodDays(from, to) > MAX_PERIOD_DAYS) return { ok: false, message: INSIGHT_MESSAGES.tooLong, errors: { from: [INSIGHT_MESSAGES.tooLong] } };
  const [laneFrom, laneTo] = f.lane ? f.lane.split("-").map((s) => s.trim().toUpperCase()) : [];
  return {
    ok: true,
    filters: {
      from,
      to,
      customerId: f.customer_id ?? null,
      siteId: f.site_id ?? null,
      carrierId: f.carrier_id ?? null,
      serviceId: f.service_id ?? null,
      lane: laneFrom && laneTo ? { from: laneFrom, to: laneTo } : null,
      currency: f.currency ?? null,
      section: f.section ?? "performance",
    },
  };
}

/** The filters back as URL parameters (links between sections, the CSV links): defaults left out. */
export function filterParams(f: InsightFilters, extra: Record<string, string> = {}): URLSearchParams {
  const p = new URLSearchParams();
  p.set("from", f.from);
  p.set("to", f.to);
  if (f.customerId != null) p.set("customer_id", String(f.customerId));
  if (f.siteId != null) p.set("site_id", String(f.siteId));
  if (f.carrierId != null) p.set("carrier_id", String(f.carrierId));
  if (f.serviceId != null) p.set("service_id", String(f.serviceId));
  if (f.lane) p.set("lane", `${f.lane.from}-${f.lane.to}`);
  if (f.currency) p.set("currency", f.currency);
  p.set("section", f.section);
  for (const [k, v] of Object.entries(extra)) p.set(k, v);
  return p;
}

/** The months a period covers, as YYYY-MM, in order: the categories of the monthly charts. */
export function monthsOf(from: string, to: string): string[] {
  const months: string[] = [];
  for (let m = monthStart(from); m <= to; m = monthStart(m, -1)) months.push(m.slice(0, 7));
  return months;
}

/** The last day of `iso`'s month. */
export const monthEnd = (iso: string) => plusDays(monthStart(iso, -1), -1);

/** The whole months inside a period: their first days (the first and the last month's), and the last month's last day; null when none. */
export function wholeMonths(from: string, to: string): { first: string; lastStart: string; lastEnd: string } | null {
  const first = from.endsWith("-01") ? from : monthStart(from, -1);
  const endsMonth = plusDays(to, 1).endsWith("-01");
  const lastStart = endsMonth ? monthStart(to) : monthStart(to, 1);
  if (first > lastStart) return null;
  return { first, lastStart, lastEnd: monthEnd(lastStart) };
}
