/**
 * Dates as a person types and reads them: DD/MM/YYYY, MM/DD/YYYY for the United States (spec 1
 * section 1), always 10 characters. The wire format (the /api, the database) is YYYY-MM-DD; the
 * screens show and post the site's format and the server reads it back with the site's country.
 */
import { z } from "zod";
import { inYearWindow, isRealDate, yearWindowMessage } from "./dates";

export const US = "UNITED STATES OF AMERICA";

/**
 * Month first for the United States, or for a person whose date format (user-clock.ts) is
 * MM/DD/YYYY: every function here takes either a country or a person's date format.
 */
export const monthFirst = (country: string | null | undefined) => country === US || country === "MM/DD/YYYY";

/** The pattern a site's dates are typed in, for placeholders and hints. */
export const dateFormatOf = (country: string | null | undefined) => (monthFirst(country) ? "MM/DD/YYYY" : "DD/MM/YYYY");

/** YYYY-MM-DD as the country writes it (blank for none). */
export function formatDisplayDate(iso: string | null | undefined, country: string | null | undefined): string {
  if (!iso) return "";
  const [y, m, d] = iso.slice(0, 10).split("-");
  return monthFirst(country) ? `${m}/${d}/${y}` : `${d}/${m}/${y}`;
}

/** DD/MM/YYYY (MM/DD/YYYY for the United States) to YYYY-MM-DD; ISO passes through; anything else stays as typed for the server to refuse. */
export function parseDisplayDate(text: string, country: string | null | undefined): string {
  const value = text.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value);
  if (!m) return value;
  const [a, b, year] = [m[1]!, m[2]!, m[3]!];
  const [day, month] = monthFirst(country) ? [b, a] : [a, b];
  return `${year}-${month.padStart(2, "0")}-${day.padStart(2, "0")}`;
}

/** The real calendar date a typed date names in the country's format (or ISO), else null: what a calendar can open on. */
export function displayDateToIso(text: string, country: string | null | undefined): string | null {
  const iso = parseDisplayDate(text, country);
  return isRealDate(iso) ? iso : null;
}

/**
 * A message about a date as a person should read it: the wire format it names (YYYY-MM-DD) is
 * the site's (DD/MM/YYYY, MM/DD/YYYY in the US), since that is what the person typed.
 */
export const forPerson = (message: string, country: string | null | undefined) => message.replaceAll("YYYY-MM-DD", dateFormatOf(country));

/** Why a whole date (three numbers between slashes) typed in the country's format is no date; null while it is one, or not yet whole. */
export function typedDateProblem(text: string, country: string | null | undefined, label: string): string | null {
  return /^\s*\d{1,2}\/\d{1,2}\/\d{4}\s*$/.test(text) && !displayDateToIso(text, country) ? `${label} must be a date (${dateFormatOf(country)})` : null;
}

/**
 * A date typed for one site, written again for another when the sending site changes country:
 * 24/11/2026 at Melbourne is 11/24/2026 at Los Angeles. Read with the old country's format and
 * written with the new one; what does not read as a date (half typed) is left as it is.
 */
export function reexpressDate(text: string, from: string | null | undefined, to: string | null | undefined): string {
  if (monthFirst(from) === monthFirst(to)) return text;
  const iso = displayDateToIso(text, from);
  return iso ? formatDisplayDate(iso, to) : text;
}

/** Why a date the product takes was refused: not a date in the expected pattern, or outside the years MIN_YEAR to MAX_YEAR. */
export type DateRefusal = "format" | "window";

/**
 * The one reading of a date the product takes (issue 35 finding 7): YYYY-MM-DD, or the country's
 * DD/MM/YYYY (MM/DD/YYYY in the US); a real calendar date in the years MIN_YEAR to MAX_YEAR. A year
 * such as 0001 or 9999 once reached the database (or a time-zone conversion that failed with a 500).
 */
export function readDate(text: string, country: string | null | undefined = null): { iso: string } | { refused: DateRefusal } {
  const iso = parseDisplayDate(text, country);
  if (!isRealDate(iso)) return { refused: "format" };
  return inYearWindow(iso) ? { iso } : { refused: "window" };
}

/**
 * readDate as a zod string schema giving the ISO date: `formatMessage` for a value that is no date,
 * the year window's message (naming `label`) for one outside it. `maxLength` caps the typed text.
 */
export const typedDate = (label: string, options: { formatMessage: string; country?: string | null; maxLength?: number }) =>
  z
    .string({ error: options.formatMessage })
    .trim()
    .max(options.maxLength ?? 10, options.formatMessage)
    .transform((text, ctx) => {
      const read = readDate(text, options.country);
      if ("iso" in read) return read.iso;
      ctx.addIssue({ code: "custom", message: read.refused === "window" ? yearWindowMessage(label) : options.formatMessage });
      return z.NEVER;
    });
