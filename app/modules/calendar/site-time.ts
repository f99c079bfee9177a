/**
 * Dates and times as a site reads them: a consignment's despatch date, "today" of the lists and
 * the date rules, and despatch times all belong to the sending site's time zone, not UTC. Early
 * on a Melbourne morning UTC is still on yesterday; late on a Los Angeles afternoon it is already
 * on tomorrow.
 */
import { monthFirst } from "./display-date";

// a formatter per zone and shape, kept: making one costs more than the rest of a rate shop's date work
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string, withTime: boolean): Intl.DateTimeFormat {
  const key = `${timeZone}|${withTime}`;
  let f = formatters.get(key);
  if (!f) {
    const options: Intl.DateTimeFormatOptions = { year: "numeric", month: "2-digit", day: "2-digit", ...(withTime ? { hour: "2-digit", minute: "2-digit", hourCycle: "h23" } : {}) };
    f = new Intl.DateTimeFormat("en-AU", { ...options, timeZone });
    // zone names come from sites, a short list; the bound only guards against a flood of bad ones
    if (formatters.size >= 1_000) formatters.clear();
    formatters.set(key, f);
  }
  return f;
}

// the parts of recent times shown, kept: every view of /home and the shell shows the same notices'
// dates (formatToParts was 2% of /home's CPU). Read only, never changed by a caller. Today and the
// wall-clock probes read zonedParts: todayIn keeps its own, and each probe is a new instant.
const recent = new Map<string, Readonly<Record<string, string>>>();

function zoned(at: Date, timeZone: string | null, withTime: boolean): Readonly<Record<string, string>> {
  const key = `${at.getTime()}|${timeZone}|${withTime}`;
  let kept = recent.get(key);
  if (!kept) {
    kept = zonedParts(at, timeZone, withTime);
    if (recent.size >= 2_000) recent.clear();
    recent.set(key, kept);
  }
  return kept;
}

function zonedParts(at: Date, timeZone: string | null, withTime: boolean): Record<string, string> {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = formatter(timeZone ?? "UTC", withTime).formatToParts(at);
  } catch {
    // an unknown zone name on a site: UTC rather than no page
    parts = formatter("UTC", withTime).formatToParts(at);
  }
  return Object.fromEntries(parts.map((p) => [p.type, p.value]));
}

// today per zone, kept for the UTC second it was read in: every rate shop asks, and no zone's date
// changes inside a second (offsets and their changes are whole seconds)
const todays = new Map<string | null, { second: number; date: string }>();

/** Today's date (YYYY-MM-DD) in a time zone (UTC when the site has none). */
export function todayIn(timeZone: string | null, now = new Date()): string {
  const second = Math.floor(now.getTime() / 1000);
  const kept = todays.get(timeZone);
  if (kept?.second === second) return kept.date;
  const p = zonedParts(now, timeZone, false);
  const date = `${p.year}-${p.month}-${p.day}`;
  // as the formatters: a short list of zones, bounded only against a flood of bad names
  if (todays.size >= 1_000) todays.clear();
  todays.set(timeZone, { second, date });
  return date;
}

function siteDate(p: Readonly<Record<string, string>>, country: string): string {
  return monthFirst(country) ? `${p.month}/${p.day}/${p.year}` : `${p.day}/${p.month}/${p.year}`;
}

/** A time as the site reads it: DD/MM/YYYY HH:mm (MM/DD/YYYY for the US); `country` may be a person's date format. */
export function localTime(at: Date, timeZone: string | null, country: string): string {
  const p = zoned(at, timeZone, true);
  return `${siteDate(p, country)} ${p.hour}:${p.minute}`;
}

/**
 * A date as the site reads it: DD/MM/YYYY (MM/DD/YYYY for the US). Pages format with the zone the
 * loader gives, never the browser's, so the server's and the browser's renderings agree.
 */
export function localDate(at: Date, timeZone: string | null, country: string): string {
  return siteDate(zoned(at, timeZone, false), country);
}

type UserSites<S> = { sites: S[]; defaultSiteId: number | null };

/**
 * The site a user works from by default: the given site, else their default site, else their
 * first. For choosing a site only, never for reading dates: a user's dates are their clock's
 * (user-clock.ts), since a staff user's first site is just the customer's first.
 */
export function userSite<S extends { id: number }>(user: UserSites<S>, siteId?: number | null): S | undefined {
  return user.sites.find((s) => s.id === siteId) ?? user.sites.find((s) => s.id === user.defaultSiteId) ?? user.sites[0];
}

/** "Today" at the given site of the user's; without one (or one not theirs), today in the user's own time zone (their clock). */
export function userToday(user: { sites: { id: number; timezone: string | null }[]; clock: { timeZone: string } }, siteId?: number | null, now = new Date()): string {
  const site = siteId == null ? undefined : user.sites.find((s) => s.id === siteId);
  return todayIn(site ? site.timezone : user.clock.timeZone, now);
}

const WALL = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})$/;

/** The wall-clock reading (YYYY-MM-DD HH:mm) of an instant in a time zone. */
function wallClock(instant: number, timeZone: string | null): string {
  const p = zonedParts(new Date(instant), timeZone, true);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

/**
 * Whether a local time (YYYY-MM-DD HH:mm) happens at all in the zone: 02:30 on the morning the
 * clocks go forward never does. Tried with the zone's offset a day before and a day after, the
 * offsets on either side of any change near it; a time that reads back under neither is skipped.
 */
export function localTimeExists(local: string, timeZone: string | null): boolean {
  const m = WALL.exec(local);
  if (!m) return false;
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  const wanted = local.replace("T", " ");
  return [wall - 86_400_000, wall + 86_400_000].some((probe) => {
    const offset = Date.parse(`${wallClock(probe, timeZone).replace(" ", "T")}:00Z`) - Math.floor(probe / 60_000) * 60_000;
    return wallClock(wall - offset, timeZone) === wanted;
  });
}

/** Per field, the local times that do not happen at the site (clocks going forward): refused, not moved. */
export function skippedLocalTimes(fields: Record<string, string | null | undefined>, timeZone: string | null): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const [field, value] of Object.entries(fields)) {
    if (value && WALL.test(value) && !localTimeExists(value, timeZone)) errors[field] = [`${value} does not exist at the site (the clocks go forward then)`];
  }
  return errors;
}
