import { Form } from "@remix-run/react";
import { DATE_FORMATS, type UserClock } from "~/modules/calendar/user-clock";

type Props = {
  clock: { timezone: string; date_format: string; inherited: UserClock; zones: string[] };
  errors: Record<string, string[] | undefined>;
  saved: boolean;
};

/** The user's own time zone and date format; "Default" inherits (decision 032). Works without JavaScript. */
export function ClockForm({ clock, errors, saved }: Props) {
  const err = (k: string) => errors[k]?.[0];
  return (
    <Form method="post" className="mt-6 space-y-4 border-t pt-4" aria-labelledby="clock-heading">
      <h2 id="clock-heading" className="font-semibold">Dates and times</h2>
      {saved && <p role="status" className="rounded border border-green-300 bg-green-50 px-3 py-2 text-sm text-green-900">Your time zone and date format were saved.</p>}
      <input type="hidden" name="intent" value="clock" />
      <div>
        <label htmlFor="timezone" className="block text-sm font-medium">Time zone</label>
        <select id="timezone" name="timezone" defaultValue={clock.timezone} aria-invalid={err("timezone") ? true : undefined} aria-describedby={err("timezone") ? "timezone-error" : undefined} className="input">
          <option value="">Default ({clock.inherited.timeZone})</option>
          {clock.zones.map((z) => <option key={z} value={z}>{z}</option>)}
        </select>
        {err("timezone") && <p id="timezone-error" className="text-sm text-red-700">{err("timezone")}</p>}
      </div>
      <div>
        <label htmlFor="date_format" className="block text-sm font-medium">Date format</label>
        <select id="date_format" name="date_format" defaultValue={clock.date_format} aria-invalid={err("date_format") ? true : undefined} aria-describedby={err("date_format") ? "date_format-error" : undefined} className="input">
          <option value="">Default ({clock.inherited.dateFormat})</option>
          {DATE_FORMATS.map((f) => <option key={f} value={f}>{f}</option>)}
        </select>
        {err("date_format") && <p id="date_format-error" className="text-sm text-red-700">{err("date_format")}</p>}
      </div>
      <button type="submit" className="btn-primary">Save dates and times</button>
    </Form>
  );
}
