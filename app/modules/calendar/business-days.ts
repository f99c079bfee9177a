/**
 * Business days: not a Saturday or Sunday and not a public holiday of the country and region
 * (date-holidays). Dates are calendar dates ("YYYY-MM-DD") compared as the holiday list states
 * them, so no time zone can move a holiday to the next day.
 */
import Holidays from "date-holidays";

export type CountryName = "AUSTRALIA" | "NEW ZEALAND" | "UNITED STATES OF AMERICA";
const ISO: Record<CountryName, string> = { AUSTRALIA: "AU", "NEW ZEALAND": "NZ", "UNITED STATES OF AMERICA": "US" };

const cache = new Map<string, Set<string>>();

/** Public holidays (type "public" only: not observances, bank or school days) of one year, by calendar date. */
function publicHolidays(country: string, region: string | undefined, year: number): Set<string> {
  const iso = ISO[country as CountryName];
  if (!iso) return new Set();
  // NZ has no regions here (national holidays only)
  const state = iso === "NZ" ? undefined : region || undefined;
  const key = `${iso}|${state ?? ""}|${year}`;
  let set = cache.get(key);
  if (!set) {
    const hd = state ? new Holidays(iso, state) : new Holidays(iso);
    set = new Set(
      (hd.getHolidays(year) || [])
        .filter((h) => h.type === "public")
        .map((h) => h.date.slice(0, 10)),
    );
    cache.set(key, set);
  }
  return set;
}

const toDate = (iso: string) => new Date(`${iso}T00:00:00Z`);
const toIso = (d: Date) => d.toISOString().slice(0, 10);
const plusDays = (iso: string, n: number) => {
  const d = toDate(iso);
  d.setUTCDate(d.getUTCDate() + n);
  return toIso(d);
};

export function isBusinessDay(date: string, country: string, region?: string | null): boolean {
  const day = toDate(date).getUTCDay();
  if (day === 0 || day === 6) return false;
  return !publicHolidays(country, region ?? undefined, Number(date.slice(0, 4))).has(date);
}

/** The first business day strictly after the date. */
export function nextBusinessDay(date: string, country: string, region?: string | null): string {
  let d = plusDays(date, 1);
  while (!isBusinessDay(d, country, region)) d = plusDays(d, 1);
  return d;
}

// every rate of a rate shop asks for the same few dates: answers are kept (bounded)
const added = new Map<string, string>();

/** n business days after the date; with n = 0, the date itself if it is a business day, else the next one. */
export function addBusinessDays(date: string, n: number, country: string, region?: string | null): string {
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
