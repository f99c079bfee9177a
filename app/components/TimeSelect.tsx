import { roundUpToQuarter } from "~/modules/consignments/rules";

/** Every quarter hour of a day, HH:mm. */
export const QUARTER_HOURS = Array.from({ length: 96 }, (_, i) => `${String(Math.floor(i / 4)).padStart(2, "0")}:${String((i % 4) * 15).padStart(2, "0")}`);

/**
 * A time of day as HH:mm in 15-minute steps (spec 1 section 9), the same for every browser and
 * locale (a native time box shows 12-hour clocks in some). A time between the steps, saved
 * through the /api, shows rounded up to the next quarter hour, as the screen would have taken it.
 * Typing the digits ("1", "0", ":", "1", "5") finds a time by keyboard; it works without JavaScript.
 */
export function TimeSelect({
  id,
  name,
  label,
  value,
  onChange,
  blank = true,
  invalid,
  describedBy,
}: {
  id: string;
  name: string;
  label: string;
  value: string;
  onChange: (time: string) => void;
  /** a blank choice: no time */
  blank?: boolean;
  invalid?: boolean;
  describedBy?: string;
}) {
  const rounded = value ? roundUpToQuarter(value) : "";
  const shown = QUARTER_HOURS.includes(rounded) ? rounded : "";
  return (
    <div>
      <label className="label" htmlFor={id}>
        {label}
      </label>
      <select id={id} name={name} className="input tabular-nums" value={shown} onChange={(e) => onChange(e.target.value)} aria-invalid={invalid || undefined} aria-describedby={describedBy}>
        {blank || !shown ? <option value="">HH:mm</option> : null}
        {QUARTER_HOURS.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
    </div>
  );
}
