/**
 * Invoicing schedules (spec 3 "Invoicing schedule" and "Invoices receivable"; issue 19 point 7):
 * when a schedule runs next, in its own time zone's wall clock, right across daylight saving.
 * Pure: Intl's zone data (through calendar/zone-offset) and nothing else, so no new dependency.
 *
 * Daylight saving (decision 020):
 * - A time the clocks skip (02:30 on a spring-forward day) runs when that wall time would have
 *   been read on the old offset, which is the same time an hour later by the new clock (03:30).
 * - A time the clocks repeat (02:30 on an autumn day) runs once, at its first occurrence
 *   (daylight time): each local date gives one instant, and the next run is always strictly
 *   after the one before, so the second 02:30 never runs again.
 */
import { z } from "zod";
import { calendarDate } from "../calendar/dates";
import { offsetMinutes } from "../calendar/zone-offset";

export const SCHEDULE_PERIODS = ["ONCE", "WEEKLY"] as const;
export type SchedulePeriod = (typeof SCHEDULE_PERIODS)[number];
/** How the screens name each period (issue 31 #6: the code WEEKLY was shown); the API keeps the codes. */
export const SCHEDULE_PERIOD_LABELS: Record<SchedulePeriod, string> = { ONCE: "Once", WEEKLY: "Weekly" };
export const SCHEDULE_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;
export type ScheduleDay = (typeof SCHEDULE_DAYS)[number];
/** the zones offered: the Australian states' and territories' zones, and New Zealand's */
export const SCHEDULE_TIME_ZONES = [
  "Australia/Sydney",
  "Australia/Melbourne",
  "Australia/Brisbane",
  "Australia/Adelaide",
  "Australia/Darwin",
  "Australia/Hobart",
  "Australia/Perth",
  "Pacific/Auckland",
] as const;
export type ScheduleTimeZone = (typeof SCHEDULE_TIME_ZONES)[number];
/** 00:00 to 23:30 in 30-minute steps (spec 3 section 9) */
export const SCHEDULE_HOURS = Array.from({ length: 48 }, (_, i) => `${String(Math.floor(i / 2)).padStart(2, "0")}:${i % 2 ? "30" : "00"}`);

export const SCHEDULE_MESSAGES = {
  dayRequired: "Choose a day.",
  passed: "That time has passed: choose a later one.",
};

export interface ScheduleTiming {
  period: SchedulePeriod;
  day?: ScheduleDay | null;
  /** a ONCE schedule's date (YYYY-MM-DD, local), picked in the date picker; else its next `day` */
  date?: string | null;
  hour: string;
  time_zone: ScheduleTimeZone;
}

const invoicingOptions = z.object({
  day: z.enum(SCHEDULE_DAYS, "Must be a day, Monday to Sunday").nullish(),
  date: calendarDate("Date", "Must be a date (YYYY-MM-DD)").nullish(),
  hour: z.enum(SCHEDULE_HOURS as [string, ...string[]], "Must be a time in 30-minute steps (HH:MM)"),
  time_zone: z.enum(SCHEDULE_TIME_ZONES, "Must be one of " + SCHEDULE_TIME_ZONES.join(", ")),
});

/** POST /api/invoicing_schedules: a period, the lines to invoice and when. */
export const scheduleSchema = z
  .object({
    period: z.enum(SCHEDULE_PERIODS, "Must be ONCE or WEEKLY"),
    options: z.object({
      invoice_detail_ids: z.array(z.coerce.number().int().positive("Must be an id")).min(1, "Choose at least one line.").max(10_000),
      invoicing_options: invoicingOptions,
    }),
  })
  .superRefine((s, ctx) => {
    const o = s.options.invoicing_options;
    // a weekly run needs its day; a single run a day or a date
    if (!o.day && (s.period === "WEEKLY" || !o.date)) ctx.addIssue({ code: "custom", path: ["options", "invoicing_options", "day"], message: SCHEDULE_MESSAGES.dayRequired });
  });

const DAY_MS = 86_400_000;
const wallMs = (date: string, hour: string) => Date.parse(`${date}T${hour}:00Z`);
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** The local date (YYYY-MM-DD) of an instant in a zone. */
export function localDate(at: Date, timeZone: string): string {
  return new Date(at.getTime() + offsetMinutes(at, timeZone) * 60_000).toISOString().slice(0, 10);
}

/**
 * The first date a single run may be set for: today in whichever offered zone is furthest behind
 * (Perth), since the date is read in the schedule's own zone, not the reader's nor UTC's.
 */
export function earliestScheduleDate(now: Date): string {
  return SCHEDULE_TIME_ZONES.map((zone) => localDate(now, zone)).sort()[0]!;
}

/** Monday 0 ... Sunday 6, as SCHEDULE_DAYS. */
const weekday = (date: string) => (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7;

/**
 * The instant a local date and time happen in a zone, with the daylight-saving choices above.
 * (calendar's instantInZone takes the later of a repeated time; a schedule wants the first.)
 */
export function localInstant(date: string, hour: string, timeZone: string): Date {
  const wall = wallMs(date, hour);
  // the offsets a day either side: any clock change near the wall time lies between them
  const before = offsetMinutes(new Date(wall - DAY_MS), timeZone);
  const after = offsetMinutes(new Date(wall + DAY_MS), timeZone);
  const fits = [...new Set([before, after])]
    .map((offset) => wall - offset * 60_000)
    .filter((t) => wall - t === offsetMinutes(new Date(t), timeZone) * 60_000)
    .sort((a, b) => a - b);
  // none fits: the clocks skipped it; read it on the offset before the change
  return new Date(fits[0] ?? wall - before * 60_000);
}

/**
 * When the schedule runs next, strictly after `after` (now, or the run just made): a WEEKLY one
 * at its day and hour every week; a ONCE one at its date (or next day) and hour, and never again
 * once it has run (`ranAt`). Null when it will not run: a ONCE that ran, or whose time has passed.
 */
export function nextRunAt(timing: ScheduleTiming, after: Date, ranAt: Date | null = null): Date | null {
  if (timing.period === "ONCE" && ranAt) return null;
  if (timing.period === "ONCE" && timing.date) {
    const at = localInstant(timing.date, timing.hour, timing.time_zone);
    return at.getTime() > after.getTime() ? at : null;
  }
  if (!timing.day) return null;
  const wanted = SCHEDULE_DAYS.indexOf(timing.day);
  const start = localDate(after, timing.time_zone);
  // a week and a day: the wanted day's time today may already have passed
  for (let k = 0; k <= 7; k++) {
    const date = addDays(start, k);
    if (weekday(date) !== wanted) continue;
    const at = localInstant(date, timing.hour, timing.time_zone);
    if (at.getTime() > after.getTime()) return at;
  }
  return null;
}
