/**
 * Calendar dates ("YYYY-MM-DD") and local date-times ("YYYY-MM-DD HH:mm") as the product accepts
 * them, and their arithmetic. Arithmetic stays inside four-digit years: past 9999-12-31 the
 * platform writes "+010000-01-01", which no date rule reads (a next-business-day search once
 * spun forever on it), so it refuses instead.
 *
 * Windows (issue 12):
 * - a despatch date is not in the past and at most a year ahead (DESPATCH_HORIZON_YEARS);
 * - any other date (a query's date, a rate's effective date, a pickup time) lies in the years
 *   MIN_YEAR to MAX_YEAR: wide enough for any real record, narrow enough for every date rule.
 */
import { z } from "zod";
import { AppError } from "../../utils/errors";

export const MIN_YEAR = 2000;
export const MAX_YEAR = 2100;
export const DESPATCH_HORIZON_YEARS = 1;

export const DESPATCH_DATE_PAST = "Despatch date cannot be in the past";
export const DESPATCH_DATE_TOO_FAR = "Despatch date must be within a year from today";
export const yearWindowMessage = (label: string) => `${label} must be in the years ${MIN_YEAR} to ${MAX_YEAR}`;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})$/;

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysInMonth = (year: number, month: number) => [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;

/** A real calendar date of a four-digit year (0000-01-01 to 9999-12-31; no 30 February). */
export function isRealDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return mo >= 1 && mo <= 12 && d >= 1 && d <= daysInMonth(y, mo);
}

/** A real wall-clock time: a real date, hour 0-23, minute 0-59 (space or T between). */
export function isRealDateTime(s: string): boolean {
  const m = DATE_TIME.exec(s);
  return Boolean(m) && isRealDate(`${m![1]}-${m![2]}-${m![3]}`) && Number(m![4]) <= 23 && Number(m![5]) <= 59;
}

const outside = (what: string) => new AppError("invalid", `${what} is outside the calendar (years 0000 to 9999)`, { date: [`${what} is outside the calendar (years 0000 to 9999)`] });

/** The date n days later (earlier when negative); refuses a result beyond four-digit years. */
export function plusDays(iso: string, n: number): string {
  if (!isRealDate(iso)) throw new AppError("invalid", "Date must be a date (YYYY-MM-DD)", { date: ["Date must be a date (YYYY-MM-DD)"] });
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  const year = d.getUTCFullYear();
  if (!Number.isFinite(year) || year < 0 || year > 9999) throw outside(`${iso} plus ${n} days`);
  return d.toISOString().slice(0, 10);
}

/** The same day `years` later, 29 February becoming 28 February in a common year. */
export function plusYears(iso: string, years: number): string {
  if (!isRealDate(iso)) throw new AppError("invalid", "Date must be a date (YYYY-MM-DD)", { date: ["Date must be a date (YYYY-MM-DD)"] });
  const [y, m, d] = iso.split("-").map(Number) as [number, number, number];
  const year = y + years;
  if (year < 0 || year > 9999) throw outside(`${iso} plus ${years} years`);
  return `${String(year).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(Math.min(d, daysInMonth(year, m))).padStart(2, "0")}`;
}

/**
 * Today's date somewhere on Earth: the earliest (UTC-12) and the latest (UTC+14). A schema does
 * not know the site yet, so it refuses only what is past or too far at every site; the module that
 * knows the site applies its own today (consignments.server.ts).
 */
export function earthToday(now = new Date()): { earliest: string; latest: string } {
  const at = (hours: number) => new Date(now.getTime() + hours * 3_600_000).toISOString().slice(0, 10);
  return { earliest: at(-12), latest: at(14) };
}

const yearOf = (s: string) => Number(s.slice(0, 4));
// checks after a format check run even when it failed (zod 4): a malformed value passes them, its format message speaks
export const inYearWindow = (s: string) => !/^\d{4}/.test(s) || (yearOf(s) >= MIN_YEAR && yearOf(s) <= MAX_YEAR);

/** A date (YYYY-MM-DD) in the years MIN_YEAR to MAX_YEAR. */
export const calendarDate = (label: string, formatMessage = `${label} must be a date (YYYY-MM-DD)`) =>
  z.iso.date({ error: formatMessage }).refine(inYearWindow, { message: yearWindowMessage(label), abort: true });

/**
 * A despatch date: not in the past (unless `allowPast`: a saved consignment may keep a date that has
 * since passed, and its module checks the past at the site) and at most a year ahead.
 */
export const despatchDate = (options: { allowPast?: boolean; message?: string } = {}) =>
  z.iso
    .date({ error: options.message ?? "Despatch date must be a date (YYYY-MM-DD)" })
    .superRefine((date, ctx) => {
      if (!isRealDate(date)) return;
      const window = despatchWindow();
      if (!options.allowPast && date < window.earliest) ctx.addIssue({ code: "custom", message: DESPATCH_DATE_PAST });
      else if (yearOf(date) < MIN_YEAR) ctx.addIssue({ code: "custom", message: DESPATCH_DATE_PAST });
      else if (date > window.last) ctx.addIssue({ code: "custom", message: DESPATCH_DATE_TOO_FAR });
    });

// kept for the UTC second it was worked out in: every rate shop checks its date against it
let kept: { second: number; earliest: string; last: string } | undefined;

/** The despatch dates allowed now: from the earliest today on Earth to a year after the latest. */
function despatchWindow(): { earliest: string; last: string } {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (kept?.second !== second) {
    const today = earthToday(new Date(now));
    kept = { second, earliest: today.earliest, last: plusYears(today.latest, DESPATCH_HORIZON_YEARS) };
  }
  return kept;
}

/** A local date-time (YYYY-MM-DD HH:mm, or with T) that exists on the calendar and the clock, in the year window; T becomes a space. */
export const localDateTime = (label: string) =>
  z
    .string()
    .trim()
    .regex(DATE_TIME, `${label} must be a date and time (YYYY-MM-DD HH:mm)`)
    .refine((v) => !DATE_TIME.test(v) || isRealDateTime(v), { message: `${label} must be a real date and time (hour 0-23, minute 0-59)`, abort: true })
    .refine(inYearWindow, { message: yearWindowMessage(label), abort: true })
    .transform((v) => v.replace("T", " "));
