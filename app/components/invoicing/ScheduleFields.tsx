import { DatePicker } from "~/components/DatePicker";
import { FieldError } from "~/components/Field";
import { SCHEDULE_DAYS, SCHEDULE_HOURS, SCHEDULE_PERIOD_LABELS, SCHEDULE_PERIODS, SCHEDULE_TIME_ZONES } from "~/modules/invoicing/schedule";

/**
 * Scheduling the chosen lines instead of invoicing them now (spec 3 "Invoicing date picker"):
 * period ONCE or WEEKLY, day Monday to Sunday, hour in 30-minute steps, the offered time zones,
 * and for ONCE a date in the user's format (DD/MM/YYYY, MM/DD/YYYY in the US) from today in the furthest-behind offered zone (earliestScheduleDate).
 */
export function ScheduleFields({ errors, country, today, earliest }: { errors: Record<string, string[]>; country: string; today: string; earliest: string }) {
  const err = (k: string) => errors[k] ?? errors[`options.invoicing_options.${k}`];
  const select = (name: string, label: string, options: readonly string[], value?: string, labels: Record<string, string> = {}) => (
    <div className="w-44">
      <label htmlFor={`schedule-${name}`} className="label">
        {label}
      </label>
      <select
        id={`schedule-${name}`}
        name={name}
        className="input"
        defaultValue={value}
        aria-invalid={err(name) ? true : undefined}
        aria-describedby={err(name) ? `schedule-${name}-error` : undefined}
      >
        {name === "day" ? <option value="">(none)</option> : null}
        {options.map((o) => (
          <option key={o} value={o}>
            {labels[o] ?? o}
          </option>
        ))}
      </select>
      <FieldError id={`schedule-${name}-error`} errors={err(name)} />
    </div>
  );
  return (
    <fieldset className="rounded border border-slate-200 p-3" data-testid="schedule-fields">
      <legend className="px-1 text-sm font-semibold">Or schedule the selection</legend>
      <div className="flex flex-wrap items-start gap-3">
        {select("period", "Period", SCHEDULE_PERIODS, "WEEKLY", SCHEDULE_PERIOD_LABELS)}
        {select("day", "Day", SCHEDULE_DAYS, "Monday")}
        {select("hour", "Time", SCHEDULE_HOURS, "09:00")}
        {select("time_zone", "Time zone", SCHEDULE_TIME_ZONES, SCHEDULE_TIME_ZONES[0])}
        {/* always there (no JavaScript needed to show it): a ONCE run on this date, else on its day */}
        <div className="w-48">
          <DatePicker id="schedule-date" name="date" label="Date (once)" country={country} today={today} notBefore={earliest} invalid={Boolean(err("date"))} />
          <FieldError id="schedule-date-error" errors={err("date")} />
        </div>
      </div>
      <FieldError id="schedule-next-error" errors={errors.next_run_at} />
      <div className="mt-2 flex justify-end">
        <button type="submit" name="intent" value="schedule" className="btn">
          Schedule
        </button>
      </div>
    </fieldset>
  );
}
