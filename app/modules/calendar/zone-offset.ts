/**
 * Instants written at a place's offset: a carrier's event time says where it happened
 * ("2026-05-04T23:30:00+10:00"), and its date there is the event's date.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function wallClock(at: Date, timeZone: string): number {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" });
    if (formatters.size >= 1_000) formatters.clear();
    formatters.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(at).map((x) => [x.type, x.value]));
  return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
}

/** Minutes ahead of UTC in `timeZone` at `at` (0 for an unknown zone). */
export function offsetMinutes(at: Date, timeZone: string | null): number {
  if (!timeZone) return 0;
  try {
    const whole = new Date(Math.floor(at.getTime() / 1000) * 1000);
    return Math.round((wallClock(whole, timeZone) - whole.getTime()) / 60_000);
  } catch {
    return 0;
  }
}

const pad = (n: number) => String(n).padStart(2, "0");

/** ISO 8601 at the zone's offset, to the second: 2026-05-04T23:30:00+10:00. */
export function isoInZone(at: Date, timeZone: string | null): string {
  const offset = offsetMinutes(at, timeZone);
  const local = new Date(Math.floor(at.getTime() / 1000) * 1000 + offset * 60_000).toISOString().slice(0, 19);
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  return `${local}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** The instant a wall-clock time (YYYY-MM-DD, HH:mm) happens in `timeZone`. */
export function instantInZone(date: string, time: string, timeZone: string | null): Date {
  const guess = Date.parse(`${date}T${time}:00Z`);
  // the offset at the guess, then again at the corrected instant (right across a clock change)
  const first = guess - offsetMinutes(new Date(guess), timeZone) * 60_000;
  return new Date(guess - offsetMinutes(new Date(first), timeZone) * 60_000);
}
