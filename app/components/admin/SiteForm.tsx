import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Alerts } from "~/components/Alerts";
import { Breadcrumbs } from "~/components/Breadcrumbs";
import { AddressFields, emptyAddress, type AddressState } from "~/components/consignment/AddressFields";
import { TimeSelect } from "~/components/TimeSelect";
import { NamedFieldError, SaveNewBack } from "./FormParts";
import { COUNTRY_LABELS } from "~/modules/localities/places";
import { PLACEHOLDER_KEYS, SITE_MESSAGES } from "~/modules/customers/sites";
import type { SiteJson } from "~/modules/customers/sites.server";
import type { Crumb } from "~/modules/shell/breadcrumbs";
import type { FieldErrors } from "~/utils/errors";
import { useFocusFirstInvalid, fieldAria } from "~/components/Field";

type Loose = Record<string, unknown>;
type ActionResult = { message: string; errors: FieldErrors; values: Loose | null };

const PLACEHOLDER_LABELS: Record<(typeof PLACEHOLDER_KEYS)[number], string> = {
  reference: "Reference",
  custom_reference: "Custom reference",
  receiver_account: "Receiver account",
  special_instructions: "Special instructions",
};
const BILLING_FIELDS = [
  ["name", "Name"],
  ["address_line_1", "Address line 1"],
  ["address_line_2", "Address line 2"],
  ["locality", "Locality"],
  ["postcode", "Postcode"],
  ["region", "Region"],
] as const;

const str = (v: unknown) => (v == null ? "" : String(v));
const pick = (o: unknown, k: string): unknown => (o && typeof o === "object" ? (o as Loose)[k] : undefined);

function addressOf(source: Loose | null): AddressState {
  const a = (source?.address ?? {}) as Loose;
  const base = emptyAddress();
  for (const k of Object.keys(base) as Array<keyof AddressState>) if (a[k] != null) base[k] = str(a[k]);
  if (!base.name && source?.name) base.name = str(source.name);
  return base;
}

/** The site detail screen (spec 2 "Site"): every field, then the site's carrier accounts and Delete. */
export function SiteForm({ customerId, customerName, site, crumbs, saved, zones }: { customerId: number; customerName: string; site: SiteJson | null; crumbs: Crumb[]; saved: boolean; zones: string[] }) {
  const result = useActionData<ActionResult>();
  const busy = useNavigation().state !== "idle";
  const errors: FieldErrors = result?.errors ?? {};
  const source: Loose | null = (result?.values as Loose | null) ?? (site as unknown as Loose | null);
  const [hydrated, setHydrated] = useState(false);
  const [address, setAddress] = useState<AddressState>(() => addressOf(source));
  const [opening, setOpening] = useState(str(source?.opening_time));
  const [closing, setClosing] = useState(str(source?.closing_time));
  const [billing, setBilling] = useState(Boolean(pick(source?.site_options, "different_billing_address")));
  const form = useFocusFirstInvalid(result?.errors);
  useEffect(() => setHydrated(true), []);
  const text = (f: string, label: string, max = 255, extra: { type?: string; value?: string } = {}) => (
    <div key={f}>
      <label htmlFor={f} className="label">
        {label}
      </label>
      <input id={f} name={f} type={extra.type ?? "text"} maxLength={max} defaultValue={extra.value ?? str(source?.[f])} className="input" {...fieldAria(errors, f)} />
      <NamedFieldError field={f} errors={errors} />
    </div>
  );
  const heading = site ? `Site: ${site.name}` : `New site for ${customerName}`;
  const alerts = result?.message ? [{ type: "error" as const, message: result.message }] : saved ? [{ type: "success" as const, message: SITE_MESSAGES.saved }] : [];
  const placeholders = (pick(source?.site_options, "placeholder_texts") ?? {}) as Loose;
  const billingAddress = (source?.billing_address ?? {}) as Loose;

  return (
    <div className="max-w-5xl space-y-4">
      <Breadcrumbs crumbs={crumbs} />
      <h1 className="text-xl font-semibold">{heading}</h1>
      <Alerts alerts={alerts} />
      <Form key={site?.id ?? "new"} ref={form} method="post" className="card space-y-4" aria-label={heading}>
        <fieldset className="grid gap-3 md:grid-cols-4">
          <legend className="font-semibold">Site</legend>
          {text("code", "Code", 50)}
          <div>
            <label htmlFor="som" className="label">
              Unit of measurement
            </label>
            <select id="som" name="som" defaultValue={str(source?.som) || "metric"} className="input">
              <option value="metric">Metric (kg, cm)</option>
              <option value="imperial">Imperial (lb, in)</option>
            </select>
          </div>
          <TimeSelect id="opening_time" name="opening_time" label="Opening time" value={opening} onChange={setOpening} invalid={fieldAria(errors, "opening_time")["aria-invalid"]} describedBy={fieldAria(errors, "opening_time")["aria-describedby"]} />
          <div>
            <TimeSelect id="closing_time" name="closing_time" label="Closing time" value={closing} onChange={setClosing} invalid={fieldAria(errors, "closing_time")["aria-invalid"]} describedBy={fieldAria(errors, "closing_time")["aria-describedby"]} />
            <NamedFieldError field="closing_time" errors={errors} />
          </div>
          <div>
            <label htmlFor="timezone" className="label">
              Time zone
            </label>
            <select id="timezone" name="timezone" defaultValue={str(source?.timezone) || "Australia/Sydney"} className="input" {...fieldAria(errors, "timezone")}>
              {zones.map((z) => (
                <option key={z} value={z}>
                  {z}
                </option>
              ))}
            </select>
            <NamedFieldError field="timezone" errors={errors} />
          </div>
          <div className="flex items-end gap-2">
            <input id="despatch_enabled" name="despatch_enabled" type="checkbox" defaultChecked={source ? source.despatch_enabled !== false : true} />
            <label htmlFor="despatch_enabled">Despatch enabled</label>
          </div>
        </fieldset>
        <fieldset>
          <legend className="font-semibold">Address</legend>
          <AddressFields prefix="address" label="Site" value={address} onChange={setAddress} errors={errors} hydrated={hydrated} />
          <NamedFieldError field="code-name" errors={errors} />
        </fieldset>
        <fieldset className="grid gap-3 md:grid-cols-3">
          <legend className="font-semibold">Contacts and pallet accounts</legend>
          {text("dg_contact_name", "DG contact name")}
          {text("dg_contact_phone", "DG contact phone", 30, { type: "tel" })}
          {text("cs_phone_number", "Customer service phone", 30, { type: "tel" })}
          {text("chep_account", "CHEP account", 50)}
          {text("loscam_account", "Loscam account", 50)}
        </fieldset>
        <fieldset className="grid gap-3 md:grid-cols-2">
          <legend className="font-semibold">Placeholder texts</legend>
          {PLACEHOLDER_KEYS.map((k) => text(`site_options.placeholder_texts.${k}`, PLACEHOLDER_LABELS[k], 255, { value: str(placeholders[k]) }))}
        </fieldset>
        <fieldset className="space-y-2">
          <legend className="font-semibold">Billing address</legend>
          <div className="flex items-center gap-2">
            <input id="different_billing_address" name="site_options.different_billing_address" type="checkbox" checked={billing} onChange={(e) => setBilling(e.target.checked)} />
            <label htmlFor="different_billing_address">Different billing address</label>
          </div>
          {/* without JavaScript the fields are always there; the server ignores them unless the box is ticked */}
          {billing || !hydrated ? (
            <div className="grid gap-3 md:grid-cols-3">
              {BILLING_FIELDS.map(([k, label]) => text(`billing_address.${k}`, `Billing ${label.toLowerCase()}`, 255, { value: str(billingAddress[k]) }))}
              <div>
                <label htmlFor="billing_address.country" className="label">
                  Billing country
                </label>
                <select id="billing_address.country" name="billing_address.country" defaultValue={str(billingAddress.country) || "AUSTRALIA"} className="input">
                  {COUNTRY_LABELS.map(([v, l]) => (
                    <option key={v} value={v}>
                      {l}
                    </option>
                  ))}
                </select>
              </div>
            </div>
          ) : null}
        </fieldset>
        <SaveNewBack busy={busy} newTo={`/customers/${customerId}/sites`} backTo={`/customers/${customerId}/index_sites`} />
      </Form>
      {site ? <SiteAccounts customerId={customerId} site={site} /> : null}
    </div>
  );
}

function SiteAccounts({ customerId, site }: { customerId: number; site: SiteJson }) {
  const base = `/customers/${customerId}/sites/${site.id}`;
  return (
    <>
      <section className="card space-y-2" aria-labelledby="accounts-heading">
        <div className="flex items-center justify-between">
          <h2 id="accounts-heading" className="font-semibold">
            Accounts
          </h2>
          <Link to={`${base}/accounts`} className="btn-primary">
            New Account
          </Link>
        </div>
        {site.accounts.length ? (
          <ul className="list-disc pl-5" data-testid="site-accounts">
            {site.accounts.map((a) => (
              <li key={a.id}>
                <Link to={`${base}/accounts/${a.id}`} className="text-sky-700 underline">
                  {a.carrier_name} {a.service_name ? `· ${a.service_name}` : ""} · {a.account_number}
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-700">No accounts yet.</p>
        )}
      </section>
      <Form method="post" className="card" onSubmit={(e) => (window.confirm(`Delete site ${site.code}?`) ? undefined : e.preventDefault())}>
        <input type="hidden" name="intent" value="delete" />
        <button type="submit" className="btn">
          Delete site
        </button>
      </Form>
    </>
  );
}
