/**
 * The date picker's calendar as pure date work on YYYY-MM-DD strings: the weeks of a month, where
 * a key moves the focused day, and the names a screen reader says. No time zone enters: a
 * calendar date is read as a UTC midnight only to do arithmetic and name its weekday.
 */
import { MAX_YEAR, MIN_YEAR, isRealDate, plusDays } from "./dates";
import { US } from "./display-date";

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

const utc = (iso: string) => new Date(`${iso}T00:00:00Z`);
const pad = (n: number, width = 2) => String(n).padStart(width, "0");
const isoOf = (year: number, month: number, day: number) => `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Weeks start on Sunday in the United States, on Monday elsewhere: 0 Sunday, 1 Monday. */
export const weekStartOf = (country: string | null | undefined): 0 | 1 => (country === US ? 0 : 1);

/** The column headings of a week that starts on `weekStart`: full names and two-letter abbreviations. */
export function weekdayHeadings(weekStart: 0 | 1): Array<{ name: string; short: string }> {
  return Array.from({ length: 7 }, (_, i) => {
    const name = WEEKDAYS[(weekStart + i) % 7]!;
    return { name, short: name.slice(0, 2) };
  });
}

/** "November 2026" for the month of a date. */
export function monthTitle(iso: string): string {
  const [y, m] = iso.split("-").map(Number) as [number, number];
  return `${MONTHS[m - 1]} ${y}`;
}

/** A day's full name as the country says it: "Tuesday 24 November 2026", "Tuesday, November 24, 2026" in the US. */
export function dayLabel(iso: string, country: string | null | undefined): string {
  const [y, m, d] = iso.split("-").map(Number) as [number, number, number];
  const weekday = WEEKDAYS[utc(iso).getUTCDay()];
  return country === US ? `${weekday}, ${MONTHS[m - 1]} ${d}, ${y}` : `${weekday} ${d} ${MONTHS[m - 1]} ${y}`;
}

/**
 * The month of a date as whole weeks (starting on `weekStart`), each day a YYYY-MM-DD or null for
 * the cells before the first and after the last day of the month.
 */
export function monthWeeks(iso: string, weekStart: 0 | 1): Array<Array<string | null>> {
  const [y, m] = iso.split("-").map(Number) as [number, number];
  const lead = (utc(isoOf(y, m, 1)).getUTCDay() - weekStart + 7) % 7;
  const cells: Array<string | null> = [...Array<null>(lead).fill(null), ...Array.from({ length: daysIn(y, m) }, (_, i) => isoOf(y, m, i + 1))];
  while (cells.length % 7) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, w) => cells.slice(w * 7, w * 7 + 7));
}

/** The same day `months` later (earlier when negative), the last day of a shorter month when it has no such day. */
export function plusMonths(iso: string, months: number): string {
  const [y, m, d] = iso.split("-").map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + months;
  const [year, month] = [Math.floor(index / 12), (index % 12) + 1];
  return isoOf(year, month, Math.min(d, daysIn(year, month)));
}

const FIRST = isoOf(MIN_YEAR, 1, 1);
const LAST = isoOf(MAX_YEAR, 12, 31);

/** A date kept inside the years every date rule accepts (MIN_YEAR to MAX_YEAR). */
export const clampToWindow = (iso: string) => (iso < FIRST ? FIRST : iso > LAST ? LAST : iso);

/**
 * Where a key moves the focused day (the grid pattern of a date picker): arrows a day or a week,
 * Page Up/Down a month (with Shift a year), Home/End the first/last day of its week. Null for
 * any other key.
 */
export function moveByKey(iso: string, key: string, shift: boolean, weekStart: 0 | 1): string | null {
  if (!isRealDate(iso)) return null;
  const weekday = (utc(iso).getUTCDay() - weekStart + 7) % 7;
  const moved = (() => {
    switch (key) {
      case "ArrowLeft":
        return plusDays(iso, -1);
      case "ArrowRight":
        return plusDays(iso, 1);
      case "ArrowUp":
        return plusDays(iso, -7);
      case "ArrowDown":
        return plusDays(iso, 7);
      case "PageUp":
        return plusMonths(iso, shift ? -12 : -1);
      case "PageDown":
        return plusMonths(iso, shift ? 12 : 1);
      case "Home":
        return plusDays(iso, -weekday);
      case "End":
        return plusDays(iso, 6 - weekday);
      default:
        return null;
    }
  })();
  return moved === null ? null : clampToWindow(moved);
}
