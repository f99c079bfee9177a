/**
 * Business days: not a Saturday or Sunday and not a public holiday of the country and region
 * (date-holidays). Dates are calendar dates ("YYYY-MM-DD") compared as the holiday list states
 * them, so no time zone can move a holiday to the next day.
 */
import { createRequire } from "node:module";
import type HolidaysClass from "date-holidays";
import { AppError } from "../../utils/errors";
import { isRealDate, plusDays } from "./dates";

export type CountryName = "AUSTRALIA" | "NEW ZEALAND" | "UNITED STATES OF AMERICA";
const ISO: Record<CountryName, string> = { AUSTRALIA: "AU", "NEW ZEALAND": "NZ", "UNITED STATES OF AMERICA": "US" };

const cache = new Map<string, Set<string>>();
// loaded at the first date asked (its data is a sixth of a second of every process's start)
let Holidays: typeof HolidaysClass | undefined;
const holidaysClass = () => (Holidays ??= createRequire(import.meta.url)("date-holidays") as typeof HolidaysClass);

/** Public holidays (type "public" only: not observances, bank or school days) of one year, by calendar date. */
function publicHolidays(country: string, region: string | undefined, year: number): Set<string> {
  const iso = ISO[country as CountryName];
  if (!iso) return new Set();
  // NZ has no regions here (national holidays only)
  const state = iso === "NZ" ? undefined : region || undefined;
  const key = `${iso}|${state ?? ""}|${year}`;
  let set = cache.get(key);
  if (!set) {
    const Calendar = holidaysClass();
    const hd = state ? new Calendar(iso, state) : new Calendar(iso);
    set = new Set(
      (hd.getHolidays(year) || [])
        .filter((h) => h.type === "public")
        .map((h) => h.date.slice(0, 10))
        // date-holidays reads years 0 to 99 as 1900 to 1999 (and 0 as this year): keep only the year asked
        .filter((d) => Number(d.slice(0, 4)) === year),
    );
    cache.set(key, set);
  }
  return set;
}

/**
 * The longest search for a business day. No real calendar has a run of weekends and holidays
 * near this long, so reaching it means the calendar data is broken: an error, never a spin.
 */
export const MAX_SEARCH_DAYS = 366;

const mustBeDate = (date: string) => {
  if (!isRealDate(date)) throw new AppError("invalid", "Date must be a date (YYYY-MM-DD)", { date: ["Date must be a date (YYYY-MM-DD)"] });
};

export function isBusinessDay(date: string, country: string, region?: string | null): boolean {
  mustBeDate(date);
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  if (day === 0 || day === 6) return false;
  return !publicHolidays(country, region ?? undefined, Number(date.slice(0, 4))).has(date);
}

/**
 * The first business day strictly after the date. Finite: at most MAX_SEARCH_DAYS days are tried,
 * and a date past 9999-12-31 is refused by plusDays (an AppError "invalid" either way).
 */
export function nextBusinessDay(date: string, country: string, region?: string | null): string {
  mustBeDate(date);
  for (let i = 1; i <= MAX_SEARCH_DAYS; i++) {
    const d = plusDays(date, i);
    if (isBusinessDay(d, country, region)) return d;
  }
  throw new AppError("invalid", `No business day within ${MAX_SEARCH_DAYS} days after ${date}`, { date: [`No business day within ${MAX_SEARCH_DAYS} days after ${date}`] });
}

// every rate of a rate shop asks for the same few dates: answers are kept (bounded)
const added = new Map<string, string>();

/** The most business days added at once: a rate's transit days have two digits. */
export const MAX_ADDED_DAYS = 366;

/** n business days after the date; with n = 0, the date itself if it is a business day, else the next one. */
export function addBusinessDays(date: string, n: number, country: string, region?: string | null): string {
  if (!Number.isInteger(n) || n < 0 || n > MAX_ADDED_DAYS) throw new AppError("invalid", `Business days must be a whole number from 0 to ${MAX_ADDED_DAYS}`);
  const key = `${date}|${n}|${country}|${region ?? ""}`;
  let d = added.get(key);
  if (d === undefined) {
    d = isBusinessDay(date, country, region) ? date : nextBusinessDay(date, country, region);
    for (let i = 0; i < n; i++) d = nextBusinessDay(d, country, region);
    if (added.size >= 10_000) added.clear();
    added.set(key, d);
  }
  return d;
}
