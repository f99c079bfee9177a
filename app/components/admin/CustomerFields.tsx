import { useState, type ReactNode } from "react";
import { ADDRESS_FIELDS, ALLOCATE_BY, BY_REGION, MERGE_LIMITS, PLACEHOLDERS, REFERENCE_TYPE_LABELS, REFERENCE_TYPES, REGIONS, SPECIAL_INSTRUCTIONS_MAX } from "~/modules/customers/admin";
import type { CustomerAdminJson } from "~/modules/customers/admin.server";

/** What a field shows: the values just posted (a refused save keeps what was typed), else the stored ones. */
export interface FieldSource {
  posted: Record<string, string> | null;
  stored: Record<string, unknown>;
  errors: Record<string, string[] | undefined>;
}

const LABELS: Record<string, string> = {
  test_account: "Test Account",
  disabled: "Disabled",
  despatch_enabled: "Despatch enabled",
  customer_despatch_enabled: "Customer despatch enabled",
  tracking_despatch_enabled: "Customer POD updates",
  offers_customer_collect: "Offers customer collect",
  receivers_carrier_permitted: "Receiver's carrier permitted",
  merging_enabled: "Merging enabled",
  dg_merging_enabled: "Dangerous goods merging enabled",
  merging_custom_reference_enabled: "Merge by custom reference",
  print_declarations: "Print declarations",
  "options.booking_enabled": "Booking enabled",
  "options.booking_v2": "Bookings (version 2)",
  "options.view_item_references": "View item references",
  "options.send_all_tracking_updates": "Send all tracking updates",
  "options.global_recipients": "Global recipients",
  "options.delivery_options_enabled": "Delivery options enabled",
  "options.pre_despatch": "Pre-despatch",
  "options.despatch_failure_notices_enabled": "Despatch failure notices",
  "options.preserve_ssccs_during_merge": "Preserve SSCCs during merge",
  "options.view_consignment_reference": "View consignment reference",
  "options.view_all_despatched_cons": "View all despatched consignments",
  "options.all_users_can_edit_recipients": "All users can edit recipients",
};

const idOf = (name: string) => name.replace(/\./g, "-");
const get = (obj: Record<string, unknown>, path: string): unknown => path.split(".").reduce<unknown>((o, k) => (o && typeof o === "object" ? (o as Record<string, unknown>)[k] : undefined), obj);

function Errors({ name, src }: { name: string; src: FieldSource }) {
  const errors = src.errors[name];
  return errors?.length ? (
    <p id={`${idOf(name)}-error`} className="field-error">
      {errors[0]}
    </p>
  ) : null;
}

/** A field's hint and its first error, each with the id its control's aria-describedby names. */
function HintAndErrors({ name, src, hint }: { name: string; src: FieldSource; hint?: string }) {
  return (
    <>
      {hint ? (
        <p id={`${idOf(name)}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      <Errors name={name} src={src} />
    </>
  );
}

const aria = (name: string, src: FieldSource, hint?: string) => {
  const bad = Boolean(src.errors[name]?.length);
  const ids = [bad ? `${idOf(name)}-error` : null, hint ? `${idOf(name)}-hint` : null].filter(Boolean).join(" ");
  return { "aria-invalid": bad || undefined, "aria-describedby": ids || undefined };
};

export function TextField({ name, label, src, type = "text", maxLength, hint, readOnly }: { name: string; label: string; src: FieldSource; type?: "text" | "email" | "number"; maxLength?: number; hint?: string; readOnly?: boolean }) {
  const stored = get(src.stored, name);
  const value = src.posted ? (src.posted[name] ?? "") : stored === null || stored === undefined ? "" : String(stored);
  return (
    <div>
      <label htmlFor={idOf(name)} className="label">
        {label}
      </label>
      <input
        id={idOf(name)}
        name={readOnly ? undefined : name}
        type={type === "number" ? "text" : type}
        inputMode={type === "number" ? "decimal" : undefined}
        defaultValue={value}
        maxLength={maxLength}
        readOnly={readOnly}
        className="input"
        {...aria(name, src, hint)}
      />
      <HintAndErrors name={name} src={src} hint={hint} />
    </div>
  );
}

export function Check({ name, src, disabled, onChange, hint }: { name: string; src: FieldSource; disabled?: boolean; onChange?: (on: boolean) => void; hint?: string }) {
  const checked = src.posted ? src.posted[name] === "on" : Boolean(get(src.stored, name));
  return (
    <div>
      <div className="flex items-center gap-2">
        <input id={idOf(name)} name={name} type="checkbox" defaultChecked={checked} disabled={disabled} onChange={(e) => onChange?.(e.target.checked)} {...aria(name, src, hint)} />
        <label htmlFor={idOf(name)}>{LABELS[name] ?? name}</label>
      </div>
      <HintAndErrors name={name} src={src} hint={hint} />
    </div>
  );
}

export function Choice({ name, label, src, choices, fallback = "" }: { name: string; label: string; src: FieldSource; choices: { value: string; label: string }[]; fallback?: string }) {
  const stored = get(src.stored, name);
  const value = src.posted ? (src.posted[name] ?? "") : stored === null || stored === undefined ? fallback : String(stored);
  return (
    <div>
      <label htmlFor={idOf(name)} className="label">
        {label}
      </label>
      <select id={idOf(name)} name={name} defaultValue={value} className="input" {...aria(name, src)}>
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
      <Errors name={name} src={src} />
    </div>
  );
}

function Group({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="card grid gap-3 sm:grid-cols-2">
      <legend className="px-1 font-semibold">{legend}</legend>
      {children}
    </fieldset>
  );
}

/** The stored billing_address_from as the form's choice and region fields. */
export function billingChoice(from: unknown): { choice: string; regions: Record<string, string> } {
  if (from && typeof from === "object") return { choice: BY_REGION, regions: Object.fromEntries(Object.entries(from).map(([k, v]) => [k, String(v)])) };
  return { choice: typeof from === "string" ? from : "ENTERED", regions: {} };
}

/** Every field of spec 2 section 3 Customer and customer_options, in fieldsets. */
export function CustomerFields({ src, customer }: { src: FieldSource; customer: CustomerAdminJson | null }) {
  const initialDespatch = src.posted ? src.posted.customer_despatch_enabled === "on" : (customer?.customer_despatch_enabled ?? true);
  const [customerDespatch, setCustomerDespatch] = useState(initialDespatch);
  const sites = customer?.sites ?? [];
  const billing = billingChoice(customer?.options.billing_address_from);
  const storedForBilling = { ...src.stored, options: { ...(src.stored.options as object), billing_address_from: billing.choice }, billing_regions: billing.regions };
  const billingSrc = { ...src, stored: storedForBilling };
  const siteChoices = [{ value: "", label: "(none)" }, ...sites.map((s) => ({ value: String(s.id), label: `${s.name} (${s.code})` }))];
  const dependsHint = customerDespatch ? undefined : "Needs Customer despatch enabled";
  return (
    <div className="space-y-4">
      <Group legend="Customer">
        <TextField name="name" label="Name" src={src} maxLength={255} />
        <TextField name="code" label="Code" src={src} maxLength={20} />
        <TextField name="branding_prefix" label="Branding prefix" src={src} maxLength={20} />
        <TextField name="support_email" label="Support e-mail" src={src} type="email" maxLength={255} />
        <TextField name="zendesk_org_id" label="Zendesk organisation id" src={src} readOnly />
        <TextField name="manifests" label="Manifests" src={src} readOnly />
        <TextField name="special_instructions" label="Default special instructions" src={src} maxLength={SPECIAL_INSTRUCTIONS_MAX} hint={`At most ${SPECIAL_INSTRUCTIONS_MAX} characters`} />
      </Group>
      <Group legend="Status">
        <Check name="test_account" src={src} hint={customer?.test_account ? "Unticking goes live (super admins only)" : undefined} />
        <Check name="disabled" src={src} />
      </Group>
      <Group legend="Despatch">
        <Check name="despatch_enabled" src={src} />
        <Check name="customer_despatch_enabled" src={src} onChange={setCustomerDespatch} />
        <Check name="tracking_despatch_enabled" src={src} disabled={!customerDespatch} hint={dependsHint} />
        <Check name="options.send_all_tracking_updates" src={src} disabled={!customerDespatch} hint={dependsHint} />
        <Check name="offers_customer_collect" src={src} />
        <Check name="receivers_carrier_permitted" src={src} />
        <Check name="options.pre_despatch" src={src} />
        <Check name="options.despatch_failure_notices_enabled" src={src} />
        <Check name="options.delivery_options_enabled" src={src} />
        <Check name="options.booking_enabled" src={src} />
        <Check name="options.booking_v2" src={src} />
        <Check name="print_declarations" src={src} />
      </Group>
      <Group legend="Merging">
        <Check name="merging_enabled" src={src} />
        <Check name="dg_merging_enabled" src={src} />
        <Check name="merging_custom_reference_enabled" src={src} />
        <Check name="options.preserve_ssccs_during_merge" src={src} />
        <Choice name="options.merge_limit" label="Merge limit" src={src} choices={[{ value: "", label: "(not set)" }, ...MERGE_LIMITS.map((n) => ({ value: String(n), label: String(n) }))]} />
      </Group>
      <Group legend="Custom reference and placeholders">
        <Choice name="custom_consignment_reference_type" label="Custom reference type" src={src} choices={REFERENCE_TYPES.map((t) => ({ value: t, label: REFERENCE_TYPE_LABELS[t] }))} fallback="text" />
        <TextField name="custom_consignment_reference_label" label="Custom reference label" src={src} maxLength={255} />
        {PLACEHOLDERS.map((p) => (
          <TextField key={p} name={`options.placeholder_texts.${p}`} label={`Placeholder: ${p.replace(/_/g, " ")}`} src={src} maxLength={255} />
        ))}
      </Group>
      <Group legend="Visibility and recipients">
        <Check name="options.view_item_references" src={src} />
        <Check name="options.view_consignment_reference" src={src} />
        <Check name="options.view_all_despatched_cons" src={src} />
        <Check name="options.global_recipients" src={src} />
        <Check name="options.all_users_can_edit_recipients" src={src} />
        <TextField name="options.session_timeout" label="Session timeout (minutes)" src={src} type="number" hint="At least 1; blank means 720 (12 hours)" />
      </Group>
      <Group legend="Invoicing and reconciliation">
        <TextField name="options.markup" label="Markup" src={src} type="number" />
        <TextField name="options.invoicing_email" label="Invoicing e-mail" src={src} type="email" maxLength={255} />
        <Choice name="options.invoice_allocate_by" label="Allocate invoices by" src={src} choices={[{ value: "", label: "(not set)" }, { value: "CUSTOMER", label: "Customer (single invoice)" }, { value: "SITE", label: "Site (consignor site)" }, { value: "REGION", label: "Region (receiver region)" }].filter((c) => !c.value || (ALLOCATE_BY as readonly string[]).includes(c.value))} />
        <TextField name="options.reconciliation_threshold_flat" label="Reconciliation threshold amount" src={src} type="number" />
        <TextField name="options.reconciliation_threshold_percentage" label="Reconciliation threshold percentage" src={src} type="number" />
      </Group>
      <Group legend="Billing address">
        <Choice
          name="options.billing_address_from"
          label="Billing address from"
          src={billingSrc}
          fallback="ENTERED"
          choices={[{ value: "ENTERED", label: "Entered below" }, { value: "SITE", label: "The consignment's site" }, ...sites.map((s) => ({ value: String(s.id), label: `Site ${s.name} (${s.code})` })), { value: BY_REGION, label: "A site per region" }]}
        />
        <div />
        {REGIONS.map((r) => (
          <Choice key={r} name={`billing_regions.${r}`} label={`Site for ${r} (a site per region)`} src={billingSrc} choices={siteChoices} />
        ))}
        {ADDRESS_FIELDS.map((f) => (
          <TextField key={f} name={`billing_address.${f}`} label={`Billing ${f.replace(/_/g, " ").replace(/(\d)/, " $1").replace(/\s+/g, " ")}`} src={src} maxLength={255} />
        ))}
      </Group>
    </div>
  );
}
