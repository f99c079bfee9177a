import { Form } from "@remix-run/react";
import { FieldError, FormErrors, fieldAria } from "~/components/Field";
import { ALLOCATION_MODELS, LOOKUP_TARGETS, MATCHABLE_FIELDS, RULE_TYPES } from "~/modules/allocation/schemas";
import type { FieldErrors } from "~/utils/errors";

export interface RuleView {
  id: number;
  customer_id: number | null;
  allocation_model: string;
  type: string;
  options: Record<string, unknown>;
  next_rule: number | null;
  to_code: string | null;
}
export interface Choices {
  customers: Array<{ id: number; code: string; name: string }>;
  sites: Array<{ id: number; code: string; name: string; customerCode: string }>;
  services: Array<{ id: number; code: string; name: string }>;
  rules: RuleView[];
}

const LOOKUPS = Object.entries(LOOKUP_TARGETS).flatMap(([model, fields]) => fields.map((f) => `${model}.${f}`));

/**
 * One rule's editor (or a new rule's): a plain form posting intent=save or intent=delete, so it
 * works before JavaScript loads. Mapping uses text and "Allocate to"; Lookup uses "Look up in".
 */
export function AllocationRuleForm({ rule, choices, errors, canEdit, model }: { rule: RuleView | null; choices: Choices; errors: FieldErrors; canEdit: boolean; model?: string }) {
  const p = rule ? `rule-${rule.id}` : "new-rule";
  const o = (rule?.options ?? {}) as { from_matcher?: { field?: string; text?: string }; to_id?: number; to_matcher?: { model?: string; field?: string } };
  const label = rule ? `Rule ${rule.id}` : "New rule";
  const first = Object.values(errors)[0]?.[0];
  const select = (name: string, text: string, value: string, options: Array<{ value: string; label: string; group?: string }>, hint?: string) => (
    <div>
      <label htmlFor={`${p}-${name}`} className="label">
        {text}
      </label>
      <select id={`${p}-${name}`} name={name} defaultValue={value} className="input" disabled={!canEdit} {...fieldAria(errors, errorKey(name))} aria-describedby={errors[errorKey(name)] ? `${p}-${name}-error` : undefined}>
        {options.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
      {hint ? <p className="mt-1 text-xs text-slate-600">{hint}</p> : null}
      <FieldError id={`${p}-${name}-error`} errors={errors[errorKey(name)]} />
    </div>
  );
  const targets = [
    { value: "", label: "(for Mapping: choose)" },
    ...choices.customers.map((c) => ({ value: String(c.id), label: `Customer: ${c.name} (${c.code})` })),
    ...choices.sites.map((s) => ({ value: String(s.id), label: `Site: ${s.customerCode} / ${s.name} (${s.code})` })),
    ...choices.services.map((s) => ({ value: String(s.id), label: `CarrierService: ${s.name} (${s.code})` })),
  ];
  return (
    <Form method="post" className="card space-y-2" aria-label={label} id={p}>
      <h3 className="font-medium">{label}</h3>
      {first ? <FormErrors errors={[first]} /> : null}
      <input type="hidden" name="rule_id" value={rule?.id ?? ""} />
      <div className="grid gap-2 sm:grid-cols-3">
        {select("allocation_model", "Allocates", rule?.allocation_model ?? model ?? "Customer", ALLOCATION_MODELS.map((m) => ({ value: m, label: m })))}
        {select("type", "Type", rule?.type ?? "Mapping", RULE_TYPES.map((t) => ({ value: t, label: t })))}
        {select("customer_id", "For customer", String(rule?.customer_id ?? ""), [{ value: "", label: "Every customer" }, ...choices.customers.map((c) => ({ value: String(c.id), label: `${c.name} (${c.code})` }))])}
        {select("field", "Invoice line field", o.from_matcher?.field ?? "account_number", MATCHABLE_FIELDS.map((f) => ({ value: f, label: f })))}
        <div>
          <label htmlFor={`${p}-text`} className="label">
            Text (Mapping)
          </label>
          <input id={`${p}-text`} name="text" className="input" maxLength={255} defaultValue={o.from_matcher?.text ?? ""} disabled={!canEdit} aria-invalid={Boolean(errors["options.from_matcher.text"]) || undefined} aria-describedby={errors["options.from_matcher.text"] ? `${p}-text-error` : undefined} />
          <FieldError id={`${p}-text-error`} errors={errors["options.from_matcher.text"]} />
        </div>
        {select("to_id", "Allocate to (Mapping)", String(o.to_id ?? ""), targets)}
        {select("to_matcher", "Look up in (Lookup)", o.to_matcher ? `${o.to_matcher.model}.${o.to_matcher.field}` : "Customer.code", LOOKUPS.map((l) => ({ value: l, label: l.replace(".", " by ") })))}
        {select("next_rule", "Next rule (tried when this fails)", String(rule?.next_rule ?? ""), [{ value: "", label: "None" }, ...choices.rules.filter((r) => r.id !== rule?.id).map((r) => ({ value: String(r.id), label: `Rule ${r.id} (${r.allocation_model} ${r.type})` }))])}
      </div>
      {canEdit ? (
        <div className="flex gap-2">
          <button type="submit" name="intent" value="save" className="btn-primary">
            {rule ? "Save" : "Add rule"}
          </button>
          {rule ? (
            <button type="submit" name="intent" value="delete" className="btn-danger" formNoValidate>
              Delete
            </button>
          ) : null}
        </div>
      ) : null}
    </Form>
  );
}

/** The server's error key for a form control. */
function errorKey(name: string) {
  return { field: "options.from_matcher.field", to_id: "options.to_id", to_matcher: "options.to_matcher.field" }[name] ?? name;
}
