/**
 * The shipping rules screen's form (docs/decisions/040): flat fields a person types, turned into
 * the rule /api takes, and the rule's per-path errors turned back onto those fields. Pure.
 */
import type { FieldErrors } from "../../utils/errors";
import type { RuleJson } from "./schema";

type Form = { get(name: string): FormDataEntryValue | null; getAll(name: string): FormDataEntryValue[] };

const str = (form: Form, name: string) => String(form.get(name) ?? "").trim();
const list = (text: string) =>
  text
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter(Boolean);
/** a blank box is no bound; anything else goes to the schema as typed (it says what is wrong) */
const bound = (form: Form, name: string) => (str(form, name) === "" ? null : str(form, name));
const range = (form: Form, name: string) => {
  const min = bound(form, `${name}_min`);
  const max = bound(form, `${name}_max`);
  return min == null && max == null ? null : { min, max };
};

export const RANGE_FIELDS = ["dead_weight", "cubic_weight", "item_count", "declared_value"] as const;

/** The posted form as the body of POST/PUT /api/customers/{id}/shipping_rules. */
export function ruleFromForm(form: Form) {
  const action = str(form, "action_kind");
  const dg = str(form, "dangerous_goods");
  const ranges = Object.fromEntries(RANGE_FIELDS.map((f) => [f, range(form, f)]));
  return {
    name: str(form, "name"),
    site_id: str(form, "site_id") || null,
    active: form.get("active") === "on" || form.get("active") === "true",
    conditions: {
      postcodes: list(str(form, "postcodes")).map((p) => {
        const [from, to] = p.split("-").map((s) => s.trim());
        return { from: from ?? "", to: to || null };
      }),
      regions: list(str(form, "regions")),
      countries: form.getAll("countries").map(String),
      address_type: str(form, "address_type") || null,
      ...ranges,
      item_types: form.getAll("item_types").map(String),
      dangerous_goods: dg === "yes" ? true : dg === "no" ? false : null,
      reference: str(form, "reference") || null,
    },
    actions: {
      use: action === "use" ? str(form, "use_service") || "" : null,
      choose: action === "cheapest" || action === "fastest" ? { by: action, services: form.getAll("choose_services").map(String) } : null,
      exclude_carriers: form.getAll("exclude_carriers").map(String),
      special_instructions: str(form, "special_instructions") || null,
      authority_to_leave: form.get("authority_to_leave") === "on",
    },
  };
}

/** The form field an /api error path belongs to ("conditions.dead_weight.min" is dead_weight_min). */
export function formFieldOf(path: string): string {
  const [group, field, sub] = path.split(".");
  if (group === "conditions" && field) {
    if ((RANGE_FIELDS as readonly string[]).includes(field)) return `${field}_${sub === "max" ? "max" : "min"}`;
    return field;
  }
  if (group === "actions" && field) return field === "use" ? "use_service" : field === "choose" ? (sub === "services" ? "choose_services" : "action_kind") : field;
  return path;
}

export function formErrors(errors: FieldErrors): FieldErrors {
  const out: FieldErrors = {};
  for (const [path, messages] of Object.entries(errors)) (out[formFieldOf(path)] ??= []).push(...messages);
  return out;
}

/** A rule's fields as the form shows them (for editing). */
export function formValues(rule: RuleJson | null) {
  const c = rule?.conditions ?? {};
  const a = rule?.actions ?? {};
  const r = (x: { min?: number | null; max?: number | null } | null | undefined) => ({ min: x?.min ?? "", max: x?.max ?? "" });
  return {
    name: rule?.name ?? "",
    site_id: rule?.site_id ? String(rule.site_id) : "",
    active: rule?.active ?? true,
    postcodes: (c.postcodes ?? []).map((p) => (p.to && p.to !== p.from ? `${p.from}-${p.to}` : p.from)).join(", "),
    regions: (c.regions ?? []).join(", "),
    countries: c.countries ?? [],
    address_type: c.address_type ?? "",
    ranges: Object.fromEntries(RANGE_FIELDS.map((f) => [f, r(c[f])])) as Record<(typeof RANGE_FIELDS)[number], { min: number | string; max: number | string }>,
    item_types: (c.item_types ?? []).map(String),
    dangerous_goods: c.dangerous_goods == null ? "" : c.dangerous_goods ? "yes" : "no",
    reference: c.reference ?? "",
    action_kind: a.use ? "use" : a.choose ? a.choose.by : "",
    use_service: a.use ?? "",
    choose_services: a.choose?.services ?? [],
    exclude_carriers: a.exclude_carriers ?? [],
    special_instructions: a.special_instructions ?? "",
    authority_to_leave: Boolean(a.authority_to_leave),
  };
}

/** One line saying what a rule does, for the list. */
export function describeRule(rule: RuleJson, siteName: string | null): string {
  const c = rule.conditions;
  const when: string[] = [];
  if (siteName) when.push(`site ${siteName}`);
  if (c.postcodes?.length) when.push(`postcode ${c.postcodes.map((p) => (p.to && p.to !== p.from ? `${p.from}-${p.to}` : p.from)).join(", ")}`);
  if (c.regions?.length) when.push(`region ${c.regions.join(", ")}`);
  if (c.countries?.length) when.push(c.countries.join(", "));
  if (c.address_type) when.push(c.address_type);
  for (const f of RANGE_FIELDS) {
    const v = c[f];
    if (v) when.push(`${f.replace("_", " ")} ${v.min ?? ""}..${v.max ?? ""}`);
  }
  if (c.item_types?.length) when.push(`${c.item_types.length} item type(s)`);
  if (c.dangerous_goods != null) when.push(c.dangerous_goods ? "dangerous goods" : "no dangerous goods");
  if (c.reference) when.push(`reference ${c.reference}`);
  const a = rule.actions;
  const then: string[] = [];
  if (a.use) then.push(`use ${a.use}`);
  if (a.choose) then.push(`${a.choose.by} of ${a.choose.services.join(", ")}`);
  if (a.exclude_carriers?.length) then.push(`exclude ${a.exclude_carriers.join(", ")}`);
  if (a.special_instructions) then.push(`instructions "${a.special_instructions}"`);
  if (a.authority_to_leave) then.push("authority to leave");
  return `When ${when.length ? when.join("; ") : "any consignment"}: ${then.length ? then.join("; ") : "no action"}`;
}
