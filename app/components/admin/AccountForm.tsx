import { Form, useActionData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Alerts, type Alert } from "~/components/Alerts";
import { Breadcrumbs } from "~/components/Breadcrumbs";
import { NamedFieldError, SaveNewBack } from "./FormParts";
import { ACCOUNT_MESSAGES, NOTE_MAX } from "~/modules/customers/accounts";
import type { AccountJson } from "~/modules/customers/accounts.server";
import type { Crumb } from "~/modules/shell/breadcrumbs";
import type { FieldErrors } from "~/utils/errors";
import { useFocusFirstInvalid, fieldAria } from "~/components/Field";
import { localTime } from "~/modules/calendar/site-time";

type Loose = Record<string, unknown>;
type ActionResult = { message: string; errors: FieldErrors; values: Loose | null };
interface CarrierChoice {
  id: number;
  code: string;
  name: string;
  services: Array<{ code: string; name: string }>;
}

/** What a new account starts with: the usual digits of each number. */
const NEW_ACCOUNT: Loose = { consignment_number_digits: 8, manifest_number_digits: 6, sscc_digits: 9 };
const str = (v: unknown) => (v == null ? "" : String(v));

const RANGES = [
  { key: "consignment", legend: "Consignment numbers", prefix: "consignment_number_prefix", digits: "consignment_number_digits", start: "consignment_range_start", end: "consignment_range_end" },
  { key: "manifest", legend: "Manifest numbers", prefix: "manifest_number_prefix", digits: "manifest_number_digits", start: "manifest_range_start", end: "manifest_range_end" },
  { key: "sscc", legend: "SSCC", prefix: "sscc_prefix", digits: "sscc_digits", start: "sscc_range_start", end: "sscc_range_end" },
] as const;
const FLAGS = [
  ["managed_account", "Managed account"],
  ["pickup_at", "Timeslot: pickup at"],
  ["deliver_by", "Timeslot: deliver by"],
  ["deliver_at", "Timeslot: deliver at"],
  ["climbing_count_enabled", "Climbing count"],
] as const;

/** The account detail screen (spec 2 "Account"): carrier and service, e-mails, ranges with current value and remaining, timeslots, auto despatch, notes and warnings. */
export function AccountForm({
  customerId,
  site,
  account,
  carriers,
  crumbs,
  saved,
  superAdmin,
  clock,
}: {
  customerId: number;
  site: { id: number; code: string; name: string };
  account: AccountJson | null;
  carriers: CarrierChoice[];
  crumbs: Crumb[];
  saved: boolean;
  superAdmin: boolean;
  /** the reader's zone and format (their clock), so the server's and the browser's renderings agree */
  clock: { timeZone: string; dateFormat: string };
}) {
  const result = useActionData<ActionResult>();
  const busy = useNavigation().state !== "idle";
  const errors: FieldErrors = result?.errors ?? {};
  const source: Loose | null = result?.values ?? (account as unknown as Loose | null) ?? NEW_ACCOUNT;
  const [carrierCode, setCarrierCode] = useState(str(source?.carrier_code));
  const [hydrated, setHydrated] = useState(false);
  const form = useFocusFirstInvalid(result?.errors);
  useEffect(() => setHydrated(true), []);
  const err = (f: string) => <NamedFieldError field={f} errors={errors} />;
  const text = (f: string, label: string, extra: { type?: string; inputMode?: "numeric"; max?: number } = {}) => (
    <div key={f}>
      <label htmlFor={f} className="label">
        {label}
      </label>
      <input id={f} name={f} type={extra.type ?? "text"} inputMode={extra.inputMode} maxLength={extra.max ?? 255} defaultValue={str(source?.[f])} className="input" {...fieldAria(errors, f)} />
      {err(f)}
    </div>
  );
  const carrier = carriers.find((c) => c.code === carrierCode);
  // without JavaScript every carrier's services are offered (grouped); the server checks the pair
  const serviceGroups = hydrated ? (carrier ? [carrier] : []) : carriers;
  const heading = account ? `Account ${account.account_number} (${account.carrier_name})` : `New account for site ${site.name}`;
  const alerts: Alert[] = [
    ...(result?.message ? [{ type: "error" as const, message: result.message }] : saved ? [{ type: "success" as const, message: ACCOUNT_MESSAGES.saved }] : []),
    ...(account?.warnings ?? []).map((message) => ({ type: "warning" as const, message })),
  ];
  // a refused save keeps the note typed
  const typedNote = str((result?.values?.notes_attributes as Array<{ text?: string }> | undefined)?.[0]?.text);
  const autoDespatch = Boolean((source?.account_options as Loose | undefined)?.auto_despatch);

  return (
    <div className="max-w-5xl space-y-4">
      <Breadcrumbs crumbs={crumbs} />
      <h1 className="text-xl font-semibold">{heading}</h1>
      <Alerts alerts={alerts} />
      {errors.base?.length && result?.message !== errors.base[0] ? <p className="field-error">{errors.base.join(" ")}</p> : null}
      <Form key={account?.id ?? "new"} ref={form} method="post" className="card space-y-4" aria-label={heading}>
        <fieldset className="grid gap-3 md:grid-cols-3">
          <legend className="font-semibold">Carrier and service</legend>
          <div>
            <label htmlFor="carrier_code" className="label">
              Carrier
            </label>
            <select id="carrier_code" name="carrier_code" value={carrierCode} onChange={(e) => setCarrierCode(e.target.value)} className="input" {...fieldAria(errors, "carrier_code")}>
              <option value="">Choose a carrier</option>
              {carriers.map((c) => (
                <option key={c.id} value={c.code}>
                  {c.name}
                </option>
              ))}
            </select>
            {err("carrier_code")}
          </div>
          <div>
            <label htmlFor="service_code" className="label">
              Service (optional)
            </label>
            <select key={carrierCode} id="service_code" name="service_code" defaultValue={str(source?.service_code)} className="input" {...fieldAria(errors, "service_code")}>
              <option value="">Any service</option>
              {serviceGroups.map((c) => (
                <optgroup key={c.id} label={c.name}>
                  {c.services.map((s) => (
                    <option key={s.code} value={s.code}>
                      {s.name}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
            {err("service_code")}
          </div>
          {text("account_number", "Account number", { max: 100 })}
          {text("carrier_customer_reference", "Carrier customer reference")}
          {text("support_email", "Support e-mail", { type: "email" })}
          {text("booking_email", "Booking e-mail", { type: "email" })}
        </fieldset>
        {RANGES.map((r) => (
          <fieldset key={r.key} className="grid gap-3 md:grid-cols-6">
            <legend className="font-semibold">{r.legend}</legend>
            {text(r.prefix, r.key === "sscc" ? "SSCC prefix" : "Prefix", { max: 20 })}
            {text(r.digits, "Digits", { inputMode: "numeric", max: 2 })}
            {text(r.start, "Range start", { inputMode: "numeric", max: 19 })}
            {text(r.end, "Range end", { inputMode: "numeric", max: 19 })}
            {account ? (
              <>
                <div>
                  <span className="label" id={`${r.key}-current-label`}>
                    Current value
                  </span>
                  <output aria-labelledby={`${r.key}-current-label`} className="block py-2 tabular-nums" data-testid={`${r.key}-current`}>
                    {str(account[`${r.key}_current`]) || "none used"}
                  </output>
                </div>
                <div>
                  <span className="label" id={`${r.key}-remaining-label`}>
                    Remaining
                  </span>
                  <output aria-labelledby={`${r.key}-remaining-label`} className="block py-2 tabular-nums" data-testid={`${r.key}-remaining`}>
                    {account.remaining[r.key]}
                  </output>
                </div>
              </>
            ) : null}
          </fieldset>
        ))}
        <fieldset className="grid gap-2 md:grid-cols-3">
          <legend className="font-semibold">Options</legend>
          {FLAGS.map(([f, label]) => (
            <div key={f} className="flex items-center gap-2">
              <input id={f} name={f} type="checkbox" defaultChecked={source?.[f] === true} />
              <label htmlFor={f}>{label}</label>
            </div>
          ))}
          <div className="flex items-center gap-2">
            <input
              id="auto_despatch"
              name="account_options.auto_despatch"
              type="checkbox"
              defaultChecked={autoDespatch}
              disabled={!superAdmin}
              aria-describedby={superAdmin ? fieldAria(errors, "account_options.auto_despatch")["aria-describedby"] : "auto_despatch-hint"}
            />
            <label htmlFor="auto_despatch">Auto despatch</label>
            {superAdmin ? null : (
              <span id="auto_despatch-hint" className="text-xs text-slate-600">
                (super admin only)
              </span>
            )}
          </div>
          {err("account_options.auto_despatch")}
        </fieldset>
        <fieldset className="space-y-2">
          <legend className="font-semibold">Notes</legend>
          {text("note", "Note", { max: NOTE_MAX })}
          <div>
            <label htmlFor="new_note" className="label">
              Add a note (at most {NOTE_MAX} characters)
            </label>
            <textarea id="new_note" name="new_note" maxLength={NOTE_MAX} rows={2} className="input" defaultValue={typedNote} {...fieldAria(errors, "notes_attributes.0.text")} />
            {err("notes_attributes.0.text")}
          </div>
          {account?.notes.length ? (
            <ul className="space-y-1 text-sm" data-testid="account-notes">
              {account.notes.map((n) => (
                <li key={n.id}>
                  <span className="text-slate-600">
                    {n.created_by}, <time dateTime={n.created_at}>{localTime(new Date(n.created_at), clock.timeZone, clock.dateFormat)}</time>:
                  </span>{" "}
                  {n.text}
                </li>
              ))}
            </ul>
          ) : null}
        </fieldset>
        <SaveNewBack busy={busy} newTo={`/customers/${customerId}/sites/${site.id}/accounts`} backTo={`/customers/${customerId}/sites/${site.id}`} backLabel="Back to site" />
      </Form>
    </div>
  );
}
