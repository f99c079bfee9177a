import { DatePicker } from "~/components/DatePicker";
import { forPerson } from "~/modules/calendar/display-date";
import { TimeSelect } from "~/components/TimeSelect";
import { formatDate, returnEmailParagraphs } from "~/modules/consignments/rules";
import { parseDisplayDate } from "~/modules/consignments/form";

export interface PickupState {
  ready_date: string;
  ready_time: string;
  closing_date: string;
  closing_time: string;
  contact_name: string;
  phone_number: string;
  pickup_location: string;
  email: string;
  email_body: string;
}

const str = (v: unknown) => (v == null ? "" : String(v));

/** The pickup fields from a saved return (or what was typed), else the default window. */
export function pickupFrom(raw: unknown, fallback: { ready_at: string; closing_at: string } | null, country: string): PickupState {
  const r = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  // what a failed post sends back is already split into date and time
  if ("ready_date" in r || "ready_time" in r) return { ...emptyPickup(), ...Object.fromEntries(Object.entries(r).map(([k, v]) => [k, str(v)])) };
  const ready = str(r.ready_at) || fallback?.ready_at || "";
  const closing = str(r.closing_at) || fallback?.closing_at || "";
  return {
    ready_date: formatDate(ready.slice(0, 10), country),
    ready_time: ready.slice(11, 16),
    closing_date: formatDate(closing.slice(0, 10), country),
    closing_time: closing.slice(11, 16),
    contact_name: str(r.contact_name),
    phone_number: str(r.phone_number),
    pickup_location: str(r.pickup_location),
    email: str(r.email),
    email_body: str(r.email_body),
  };
}

const emptyPickup = (): PickupState => ({ ready_date: "", ready_time: "", closing_date: "", closing_time: "", contact_name: "", phone_number: "", pickup_location: "", email: "", email_body: "" });

/**
 * Pickup information of a return or third-party pickup (spec 1 sections 2, 5 and 9): the window
 * (dates in the site's format, times in 15-minute steps), who to ask for, where, and the return
 * e-mail with its preview.
 */
export function PickupInformation({
  value,
  onChange,
  errorFor,
  country,
  today,
  customerName,
  csPhone,
}: {
  value: PickupState;
  onChange: (p: PickupState) => void;
  errorFor: (key: string) => string | undefined;
  country: string;
  /** today at the site, where the calendars open */
  today: string;
  customerName: string;
  csPhone: string | null;
}) {
  const set = (patch: Partial<PickupState>) => onChange({ ...value, ...patch });
  const err = (f: string) => {
    const message = errorFor(`return_info.${f}`);
    return message && forPerson(message, country);
  };
  const field = (f: keyof PickupState, label: string, extra: { max?: number; type?: string; hint?: string } = {}) => (
    <div>
      <label className="label" htmlFor={`return_info.${f}`}>
        {label}
      </label>
      <input
        id={`return_info.${f}`}
        name={`return_info.${f}`}
        className="input"
        type={extra.type ?? "text"}
        maxLength={extra.max}
        value={value[f]}
        onChange={(e) => set({ [f]: f === "phone_number" ? e.target.value.replace(/[^\d ]/g, "") : e.target.value })}
        aria-invalid={Boolean(err(f))}
      />
      {extra.hint ? <p className="mt-1 text-xs text-slate-500">{extra.hint}</p> : null}
      {err(f) ? <p className="field-error">{err(f)}</p> : null}
    </div>
  );
  const readyDate = parseDisplayDate(value.ready_date, country);
  return (
    <section className="card space-y-3" aria-label="Pickup information" data-testid="pickup-information">
      <h2 className="font-semibold">Pickup information</h2>
      <div className="grid gap-3 md:grid-cols-4">
        {(["ready", "closing"] as const).map((which) => {
          const label = which === "ready" ? "Ready" : "Closing";
          const invalid = Boolean(err(`${which}_at`));
          return [
            <div key={`${which}_date`}>
              <DatePicker
                id={`return_info.${which}_date`}
                name={`return_info.${which}_date`}
                label={`${label} date`}
                country={country}
                today={today}
                value={value[`${which}_date`]}
                onChange={(d) => set({ [`${which}_date`]: d })}
                invalid={invalid || Boolean(err(`${which}_date`))}
              />
              {err(`${which}_date`) ? <p className="field-error">{err(`${which}_date`)}</p> : null}
            </div>,
            <TimeSelect
              key={`${which}_time`}
              id={`return_info.${which}_time`}
              name={`return_info.${which}_time`}
              label={`${label} time`}
              value={value[`${which}_time`]}
              onChange={(t) => set({ [`${which}_time`]: t })}
              invalid={invalid}
            />,
          ];
        })}
      </div>
      {err("ready_at") ? <p className="field-error">{err("ready_at")}</p> : null}
      {err("closing_at") ? <p className="field-error">{err("closing_at")}</p> : null}
      <div className="grid gap-3 md:grid-cols-3">
        {field("contact_name", "Contact name", { max: 255 })}
        {field("phone_number", "Phone number", { max: 30, type: "tel", hint: "Land lines must include the area code." })}
        {field("pickup_location", "Pickup location", { max: 255 })}
      </div>
      <div className="grid gap-3 md:grid-cols-2">
        <div className="space-y-3">
          {field("email", "Email labels to (optional)", { max: 255, type: "email" })}
          <div>
            <label className="label" htmlFor="return_info.email_body">
              Additional notes
            </label>
            <textarea id="return_info.email_body" name="return_info.email_body" className="input h-24" maxLength={4000} value={value.email_body} onChange={(e) => set({ email_body: e.target.value })} />
            <p className="mt-1 text-xs text-slate-500">{value.email_body.length} / 4000</p>
            {err("email_body") ? <p className="field-error">{err("email_body")}</p> : null}
          </div>
        </div>
        <section className="rounded border border-slate-200 bg-slate-50 p-3 text-sm" aria-label="Email preview" data-testid="email-preview">
          <p className="mb-2 text-xs font-semibold uppercase text-slate-500">Email preview</p>
          {returnEmailParagraphs({ contactName: value.contact_name, customerName, readyDate, country, notes: value.email_body, csPhone }).map((p, i) => (
            <p key={i} className={i ? "mt-2 whitespace-pre-wrap" : "whitespace-pre-wrap"}>
              {p}
            </p>
          ))}
        </section>
      </div>
    </section>
  );
}
