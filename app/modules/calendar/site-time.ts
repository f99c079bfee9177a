/**
 * Dates and times as a site reads them: a consignment's despatch date, "today" of the lists and
 * the date rules, and despatch times all belong to the sending site's time zone, not UTC. Early
 * on a Melbourne morning UTC is still on yesterday; late on a Los Angeles afternoon it is already
 * on tomorrow.
 */

function zoned(at: Date, timeZone: string | null, withTime: boolean): Record<string, string> {
  const options: Intl.DateTimeFormatOptions = { year: "numeric", month: "2-digit", day: "2-digit", ...(withTime ? { hour: "2-digit", minute: "2-digit", hourCycle: "h23" } : {}) };
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat("en-AU", { ...options, timeZone: timeZone ?? "UTC" }).formatToParts(at);
  } catch {
    // an unknown zone name on a site: UTC rather than no page
    parts = new Intl.DateTimeFormat("en-AU", { ...options, timeZone: "UTC" }).formatToParts(at);
  }
  return Object.fromEntries(parts.map((p) => [p.type, p.value]));
}

/** Today's date (YYYY-MM-DD) in a time zone (UTC when the site has none). */
export function todayIn(timeZone: string | null, now = new Date()): string {
  const p = zoned(now, timeZone, false);
  return `${p.year}-${p.month}-${p.day}`;
}

/** A time as the site reads it: DD/MM/YYYY HH:mm (MM/DD/YYYY for the US). */
export function localTime(at: Date, timeZone: string | null, country: string): string {
  const p = zoned(at, timeZone, true);
  const date = country === "UNITED STATES OF AMERICA" ? `${p.month}/${p.day}/${p.year}` : `${p.day}/${p.month}/${p.year}`;
  return `${date} ${p.hour}:${p.minute}`;
}

/**
 * "Today" for a user: at the given site, else at their default site, else at their first site
 * (UTC for a user without sites).
 */
export function userToday(user: { sites: Array<{ id: number; timezone: string | null }>; defaultSiteId: number | null }, siteId?: number | null, now = new Date()): string {
  const site = user.sites.find((s) => s.id === siteId) ?? user.sites.find((s) => s.id === user.defaultSiteId) ?? user.sites[0];
  return todayIn(site?.timezone ?? null, now);
}
