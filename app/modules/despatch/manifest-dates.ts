/**
 * The manifest date rule (spec 1 sections 5 and 9), pure: ISO dates, calendar months and the
 * range the manifests list and counts accept.
 */
import type { FieldErrors } from "../../utils/errors";
import { inYearWindow, isRealDate, yearWindowMessage } from "../calendar/dates";

export const DATE_RANGE_TOO_LARGE = "Date range too large, please select dates within 2 months.";
export const INVALID_DATE = "Enter a date as YYYY-MM-DD";
/** The widest manifest date range (spec 1 sections 5 and 9). */
export const MAX_RANGE_MONTHS = 2;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A real YYYY-MM-DD date (the calendar's reading; the year window is checked where a date is taken). */
export function isIsoDate(s: string): boolean {
  return ISO_DATE.test(s) && isRealDate(s);
}

/** Calendar months later, the day clamped to the month's end (31 Dec + 2 months = 28/29 Feb). */
export function addMonths(iso: string, months: number): string {
  const [y, m, d] = iso.split("-").map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return first.toISOString().slice(0, 10);
}

export const addDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

export interface DateRange {
  from: string;
  to: string;
  /** per field (named by `names`); empty when the range may be shown */
  errors: FieldErrors;
}

/**
 * The manifest date rule (spec 1 section 5): blank dates are today; from after to moves the
 * other date (here `to`: the server cannot tell which one the user changed; the screen's script
 * moves the right one before submitting); more than 2 months apart is refused.
 */
export function resolveDateRange(
  input: { from?: string | null; to?: string | null },
  today: string,
  names: { from: string; to: string } = { from: "from", to: "to" },
): DateRange {
  const errors: FieldErrors = {};
  const read = (value: string | null | undefined, field: string) => {
    const v = value?.trim() ?? "";
    if (!v) return today;
    if (isIsoDate(v) && inYearWindow(v)) return v;
    errors[field] = [isIsoDate(v) ? yearWindowMessage("Date") : INVALID_DATE];
    return v;
  };
  const from = read(input.from, names.from);
  let to = read(input.to, names.to);
  if (Object.keys(errors).length) return { from, to, errors };
  if (from > to) to = from;
  if (to > addMonths(from, MAX_RANGE_MONTHS)) errors[names.to] = [DATE_RANGE_TOO_LARGE];
  return { from, to, errors };
}
