import { Form, Link } from "@remix-run/react";
import { FieldError, TextField, fieldAria, useFocusFirstInvalid } from "~/components/Field";
import { RANGE_FIELDS, formValues } from "~/modules/shipping-rules/form";
import type { RuleJson } from "~/modules/shipping-rules/schema";
import { COUNTRIES } from "../../../db/schema/rating";

type Errors = Record<string, string[] | undefined>;
interface Choices {
  services: Array<{ key: string; label: string }>;
  carriers: Array<{ code: string; name: string }>;
  sites: Array<{ id: number; name: string }>;
  itemTypes: Array<{ id: number; description: string | null }>;
}

const RANGE_LABELS: Record<(typeof RANGE_FIELDS)[number], string> = {
  dead_weight: "Total dead weight (kg or lb)",
  cubic_weight: "Cubic weight (250 kg/m³)",
  item_count: "Item count",
  declared_value: "Declared value",
};

/** A group of checkboxes with a legend and the group's errors. */
function Checks({ name, legend, options, checked, errors }: { name: string; legend: string; options: Array<{ value: string; label: string }>; checked: string[]; errors: Errors }) {
  if (!options.length) return null;
  return (
    <fieldset className="space-y-1" aria-describedby={errors[name]?.length ? `${name}-error` : undefined}>
      <legend className="label">{legend}</legend>
      <div className="flex max-h-40 flex-wrap gap-x-4 gap-y-1 overflow-y-auto">
        {options.map((o) => (
          <label key={o.value} className="flex items-center gap-1 text-sm">
            <input type="checkbox" name={name} value={o.value} defaultChecked={checked.includes(o.value)} />
            {o.label}
          </label>
        ))}
      </div>
      <FieldError id={`${name}-error`} errors={errors[name]} />
    </fieldset>
  );
}

function Select({ name, label, options, value, errors }: { name: string; label: string; options: Array<{ value: string; label: string }>; value: string; errors: Errors }) {
  return (
    <div>
      <label htmlFor={name} className="label">
        {label}
      </label>
      <select id={name} name={name} className="input" defaultValue={value} {...fieldAria(errors, name)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldError id={`${name}-error`} errors={errors[name]} />
    </div>
  );
}

/** Add or edit a rule: posts intent=save to the page's action; errors come back by field. */
export function RuleForm({ rule, choices, errors, typed, cancelTo, busy }: { rule: RuleJson | null; choices: Choices; errors: Errors; typed?: unknown; cancelTo: string; busy: boolean }) {
  const v = formValues((typed as RuleJson | undefined) ?? rule);
  const ref = useFocusFirstInvalid(errors);
  return (
    <Form method="post" ref={ref} className="card space-y-4" aria-labelledby="rule-form-title">
      <h2 id="rule-form-title" className="font-semibold">
        {rule ? `Edit rule ${rule.name}` : "New shipping rule"}
      </h2>
      {rule && <input type="hidden" name="id" value={rule.id} />}
      <div className="grid gap-3 sm:grid-cols-3">
        <TextField name="name" label="Name" errors={errors} defaultValue={v.name} required maxLength={100} />
        <Select name="site_id" label="Site" value={v.site_id} errors={errors} options={[{ value: "", label: "All sites" }, ...choices.sites.map((s) => ({ value: String(s.id), label: s.name }))]} />
        <label className="flex items-center gap-2 self-end text-sm">
          <input type="checkbox" name="active" defaultChecked={v.active} />
          Active
        </label>
      </div>
      <fieldset className="space-y-3">
        <legend className="font-semibold">When (all that are filled in must hold)</legend>
        <div className="grid gap-3 sm:grid-cols-3">
          <TextField name="postcodes" label="Receiver postcodes" hint="Ranges and single postcodes, e.g. 2000-2999, 3000" errors={errors} defaultValue={v.postcodes} />
          <TextField name="regions" label="Receiver regions or states" hint="Comma separated, e.g. NSW, VIC" errors={errors} defaultValue={v.regions} />
          <Select name="address_type" label="Address type" value={v.address_type} errors={errors} options={[{ value: "", label: "Any" }, { value: "business", label: "Business" }, { value: "residential", label: "Residential" }]} />
        </div>
        <Checks name="countries" legend="Receiver countries" options={COUNTRIES.map((c) => ({ value: c, label: c }))} checked={v.countries} errors={errors} />
        <div className="grid gap-3 sm:grid-cols-4">
          {RANGE_FIELDS.map((f) => (
            <fieldset key={f} className="grid grid-cols-2 gap-1">
              <legend className="label col-span-2">{RANGE_LABELS[f]}</legend>
              <TextField name={`${f}_min`} label="From" inputMode="decimal" errors={errors} defaultValue={String(v.ranges[f].min)} />
              <TextField name={`${f}_max`} label="To" inputMode="decimal" errors={errors} defaultValue={String(v.ranges[f].max)} />
            </fieldset>
          ))}
        </div>
        <div className="grid gap-3 sm:grid-cols-3">
          <Select name="dangerous_goods" label="Dangerous goods" value={v.dangerous_goods} errors={errors} options={[{ value: "", label: "Either" }, { value: "yes", label: "Yes" }, { value: "no", label: "No" }]} />
          <TextField name="reference" label="Reference pattern" hint="* any characters, ? one character, e.g. PO-*" errors={errors} defaultValue={v.reference} />
        </div>
        <Checks name="item_types" legend="Item types (any of)" options={choices.itemTypes.map((t) => ({ value: String(t.id), label: t.description ?? `#${t.id}` }))} checked={v.item_types} errors={errors} />
      </fieldset>
      <fieldset className="space-y-3">
        <legend className="font-semibold">Then</legend>
        <div className="grid gap-3 sm:grid-cols-2">
          <Select name="action_kind" label="Choose the service" value={v.action_kind} errors={errors} options={[{ value: "", label: "As usual (cheapest)" }, { value: "use", label: "Use one service" }, { value: "cheapest", label: "The cheapest of a set" }, { value: "fastest", label: "The fastest of a set" }]} />
          <Select name="use_service" label="Service to use" value={v.use_service} errors={errors} options={[{ value: "", label: "None" }, ...choices.services.map((s) => ({ value: s.key, label: s.label }))]} />
        </div>
        <Checks name="choose_services" legend="Set of services (cheapest or fastest of)" options={choices.services.map((s) => ({ value: s.key, label: s.label }))} checked={v.choose_services} errors={errors} />
        <Checks name="exclude_carriers" legend="Exclude carriers" options={choices.carriers.map((c) => ({ value: c.code, label: c.name }))} checked={v.exclude_carriers} errors={errors} />
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField name="special_instructions" label="Add special instructions" maxLength={80} errors={errors} defaultValue={v.special_instructions} />
          <label className="flex items-center gap-2 self-end text-sm">
            <input type="checkbox" name="authority_to_leave" defaultChecked={v.authority_to_leave} />
            Require authority to leave
          </label>
        </div>
      </fieldset>
      <div className="flex gap-2">
        <button type="submit" name="intent" value="save" className="btn-primary" disabled={busy}>
          Save rule
        </button>
        <Link to={cancelTo} className="btn">
          Cancel
        </Link>
      </div>
    </Form>
  );
}
