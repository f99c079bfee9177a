/**
 * MapFields: the last step of every template (sequence 999999), turning each named row into an
 * invoice line (docs/decisions/019 "Templates"). `mappings` take a column's text into an
 * invoice detail field or an invoice field (invoice_number, invoice_date, total); `costs` take a
 * column's amount into a cost line of a category (a blank or zero amount makes no cost line). A
 * cost with `when` counts only on rows where its condition holds (conditions.ts); several costs of
 * one category add up to one cost line, described as the first that counted.
 * Each value is read as its field needs (values.ts); a value that cannot be read, a missing
 * invoice or consignment number, or a row a step before marked, comes out as a problem naming the
 * row and the step, and the import refuses the file.
 */
import { z } from "zod";
import { COST_CATEGORIES, type CostCategory } from "../../../../db/schema/finance";
import { costCategoryLabel } from "../schemas";
import { conditionSchema, conditionTest } from "./conditions";
import { rowLabel, type Row, type RowProblem, type Rows, type StepPlace } from "./rows";
import { parseAmount, parseCount, parseDate, parseFlag } from "./values";

export const MAP_FIELDS_SEQUENCE = 999999;

const TEXT_FIELDS = [
  "consignment_number",
  "account_number",
  "parent_account_number",
  "payer",
  "reference",
  "service_description",
  "sender_name",
  "sender_locality",
  "sender_postcode",
  "sender_region",
  "sender_zone",
  "sender_country",
  "receiver_name",
  "receiver_locality",
  "receiver_postcode",
  "receiver_region",
  "receiver_zone",
] as const;
const AMOUNT_FIELDS = ["total_weight_in_uom", "total_charge_weight", "total_volume_in_uom_cubed", "total_cost"] as const;
export const DETAIL_FIELDS = [...TEXT_FIELDS, "despatch_date", "dangerous_goods", "total_quantity", ...AMOUNT_FIELDS] as const;
export const INVOICE_FIELDS = ["invoice_number", "invoice_date", "total"] as const;
export const MAPPABLE_FIELDS = [...INVOICE_FIELDS, ...DETAIL_FIELDS] as const;
export type DetailField = (typeof DETAIL_FIELDS)[number];
export type MappableField = (typeof MAPPABLE_FIELDS)[number];

/**
 * How a person names each field a template fills (issue 31 #6): a problem says 'the charge weight',
 * never 'total_charge_weight'. A field added to the lists above fails to compile until it has one.
 */
export const MAPPABLE_FIELD_LABELS: Record<MappableField, string> = {
  invoice_number: "Invoice number",
  invoice_date: "Invoice date",
  total: "Invoice total",
  consignment_number: "Consignment number",
  account_number: "Account number",
  parent_account_number: "Parent account number",
  payer: "Payer",
  reference: "Reference",
  service_description: "Service description",
  sender_name: "Sender name",
  sender_locality: "Sender suburb",
  sender_postcode: "Sender postcode",
  sender_region: "Sender state",
  sender_zone: "Sender zone",
  sender_country: "Sender country",
  receiver_name: "Receiver name",
  receiver_locality: "Receiver suburb",
  receiver_postcode: "Receiver postcode",
  receiver_region: "Receiver state",
  receiver_zone: "Receiver zone",
  despatch_date: "Despatch date",
  dangerous_goods: "Dangerous goods",
  total_quantity: "Quantity",
  total_weight_in_uom: "Weight",
  total_charge_weight: "Charge weight",
  total_volume_in_uom_cubed: "Volume",
  total_cost: "Cost",
};
const fieldWords = (f: MappableField) => `the ${MAPPABLE_FIELD_LABELS[f].toLowerCase()}`;

/** The category's label (schemas.ts, one for every screen), the description of a cost line the template leaves undescribed. */
export const costLabel = (c: CostCategory) => costCategoryLabel(c);

const column = z.string().trim().min(1, "Column is required");

/**
 * Mappings in MAPPABLE_FIELDS order: each field is mapped once, so the order means nothing, and
 * one order lets a template opened in the editor and saved unchanged read back as it was.
 */
export const inFieldOrder = <M extends { field: string }>(mappings: M[]): M[] => [...mappings].sort((a, b) => (MAPPABLE_FIELDS as readonly string[]).indexOf(a.field) - (MAPPABLE_FIELDS as readonly string[]).indexOf(b.field));

export const mapFieldsOptions = z
  .object({
    mappings: z.array(z.object({ field: z.enum(MAPPABLE_FIELDS, { error: "Choose a field" }), column })),
    costs: z
      .array(z.object({ category: z.enum(COST_CATEGORIES, { error: "Choose a cost category" }), column, description: z.string().trim().max(255).optional(), when: conditionSchema.optional() }))
      .max(100, "At most 100 costs")
      .default([]),
  })
  .superRefine((o, ctx) => {
    const fields = o.mappings.map((m) => m.field);
    for (const required of ["invoice_number", "consignment_number"] as const)
      if (!fields.includes(required)) ctx.addIssue({ code: "custom", path: ["mappings"], message: unmappedMessage(required) });
    const twice = fields.find((f, i) => fields.indexOf(f) !== i);
    if (twice) ctx.addIssue({ code: "custom", path: ["mappings"], message: `${MAPPABLE_FIELD_LABELS[twice]} is mapped twice` });
  })
  .transform((o) => ({ ...o, mappings: inFieldOrder(o.mappings) }));
export type MapFieldsOptions = z.infer<typeof mapFieldsOptions>;

/** The message of a required field left without a column; the editor shows it beside that field's cell. */
export function unmappedMessage(field: string) {
  return `Map a column to ${(MAPPABLE_FIELD_LABELS as Record<string, string>)[field] ?? field}`;
}

export type DetailValues = Partial<Record<DetailField, string | number | boolean | null>>;

export interface MappedLine {
  row: number;
  sheet?: string;
  invoice: { invoiceNumber: string; invoiceDate: string | null; total: number | null };
  detail: DetailValues;
  costs: { category: CostCategory; description: string; amount: number }[];
}

export type Mapped = { ok: true; line: MappedLine } | { ok: false; row: number; sheet?: string; problem: RowProblem };

/**
 * A problem as the person importing the file reads it (issue 31 #6): the row and what is wrong
 * with its cell ('Row 11: 'abc' in column Weight is not an amount for the charge weight'), no step
 * of the template; the test run's list gives the step to the template's author.
 */
export const problemText = (p: Extract<Mapped, { ok: false }>) => {
  const row = rowLabel(p);
  return `${row.charAt(0).toUpperCase()}${row.slice(1)}: ${p.problem.message}`;
};

export async function* mapFields(rows: Rows, o: MapFieldsOptions, place: StepPlace): AsyncIterable<Mapped> {
  const tests = o.costs.map((c) => (c.when ? conditionTest(c.when) : null));
  for await (const r of rows) yield mapRow(r, o, place, tests);
}

export function mapRow(r: Row, o: MapFieldsOptions, place: StepPlace, tests = o.costs.map((c) => (c.when ? conditionTest(c.when) : null))): Mapped {
  const at = r.sheet === undefined ? { row: r.row } : { row: r.row, sheet: r.sheet };
  if (r.problem) return { ok: false, ...at, problem: r.problem };
  const fail = (message: string): Mapped => ({ ok: false, ...at, problem: { step: place.step, stepName: place.stepName, message } });
  const detail: DetailValues = {};
  const invoice: MappedLine["invoice"] = { invoiceNumber: "", invoiceDate: null, total: null };
  for (const { field, column: c } of o.mappings) {
    const text = (r.values[c] ?? "").trim();
    const bad = (kind: string) => fail(`'${text}' in column ${c} is not ${kind} for ${fieldWords(field)}`);
    if (field === "invoice_number") invoice.invoiceNumber = text;
    else if (field === "invoice_date" || field === "despatch_date") {
      const d = text === "" ? null : parseDate(text);
      if (text !== "" && !d) return bad("a date");
      if (field === "invoice_date") invoice.invoiceDate = d;
      else detail.despatch_date = d;
    } else if (field === "total" || (AMOUNT_FIELDS as readonly string[]).includes(field)) {
      const n = text === "" ? null : parseAmount(text);
      if (text !== "" && n === null) return bad("an amount");
      if (field === "total") invoice.total = n;
      else detail[field as DetailField] = n;
    } else if (field === "total_quantity") {
      const n = text === "" ? null : parseCount(text);
      if (text !== "" && n === null) return bad("a whole number");
      detail.total_quantity = n;
    } else if (field === "dangerous_goods") {
      const f = parseFlag(text);
      if (f === null) return bad("yes or no");
      detail.dangerous_goods = f;
    } else detail[field] = text === "" ? null : text;
  }
  if (!invoice.invoiceNumber) return fail("The invoice number is blank");
  if (!detail.consignment_number) return fail("The consignment number is blank");
  // in cents per category, in the order the categories first counted
  const sums = new Map<CostCategory, { description: string; cents: number }>();
  for (const [i, c] of o.costs.entries()) {
    const text = (r.values[c.column] ?? "").trim();
    if (text === "") continue;
    const holds = tests[i] ? tests[i]!(r.values) : true;
    if (typeof holds === "string") return fail(`${holds} (in the condition of the ${costLabel(c.category)} cost)`);
    if (!holds) continue;
    const amount = parseAmount(text);
    if (amount === null) return fail(`'${text}' in column ${c.column} is not an amount for the ${costLabel(c.category)} cost`);
    const sum = sums.get(c.category) ?? { description: c.description || costLabel(c.category), cents: 0 };
    sum.cents += Math.round(amount * 100);
    sums.set(c.category, sum);
  }
  const costs: MappedLine["costs"] = [...sums].filter(([, s]) => s.cents !== 0).map(([category, s]) => ({ category, description: s.description, amount: s.cents / 100 }));
  // a file without a line total: the line costs what its cost lines add up to
  if (detail.total_cost == null) detail.total_cost = Math.round(costs.reduce((s, c) => s + c.amount, 0) * 100) / 100;
  return { ok: true, line: { ...at, invoice, detail, costs } };
}
