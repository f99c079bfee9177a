/**
 * The template editor's form (docs/decisions/019 "Template screens"): what the screen shows and
 * posts, and its translation into the object `configInput` takes. Plain named controls
 * (`transformations.2.options.column`, the same path the schema's errors carry), so the editor
 * works without JavaScript; every value stays a string here, so what was typed comes back as
 * typed after an error. Pure: shared by the route's action and the screen.
 */
import { MAPPABLE_FIELDS } from "./map-fields";
import { cellsOf, cellsText, compactCosts, costsOf, costValues, operandsOf, operandsText } from "./editor-text";
import type { ConfigJson } from "./configs.server";
import type { StepType } from "./schema";

export interface FieldSpec {
  key: string;
  label: string;
  kind: "text" | "column" | "int" | "ints" | "list" | "pairs" | "choice" | "operands" | "cells";
  /** a choice's options */
  choices?: string[];
  /** the actions that read it */
  actions: string[];
  /** blank is left out (the schema's default applies) rather than sent as "" */
  optional?: boolean;
  hint?: string;
}

type EditableType = Exclude<StepType, "MapFields">;

/** Every step type's actions and option fields (each type's zod schema is the authority). */
export const STEP_FORMS: Record<EditableType, { actionLabel: string; actions: string[]; fields: FieldSpec[]; /** the action is the editor's, not an option */ actionless?: boolean }> = {
  DeleteRows: {
    actionLabel: "Delete",
    actions: ["ROW_INDEXES", "COLUMN_MATCH"],
    fields: [
      { key: "indexes", label: "Row numbers", kind: "ints", actions: ["ROW_INDEXES"], hint: "Comma separated file row numbers; -1 is the last row" },
      { key: "column", label: "Column", kind: "column", actions: ["COLUMN_MATCH"] },
      { key: "pattern", label: "Pattern", kind: "text", actions: ["COLUMN_MATCH"], hint: "Regular expression, case aside; ^$ matches a blank cell" },
    ],
  },
  EditValues: {
    actionLabel: "Edit",
    actions: ["COPY", "REPLACE", "STRIP", "WEEKS_TO_DATE", "CALCULATE"],
    fields: [
      { key: "column", label: "Column", kind: "column", actions: ["REPLACE", "STRIP", "WEEKS_TO_DATE"] },
      { key: "from", label: "From column", kind: "column", actions: ["COPY"] },
      { key: "operation", label: "Operation", kind: "choice", choices: ["SUM", "DIFFERENCE", "PRODUCT"], actions: ["CALCULATE"], hint: "DIFFERENCE: the first less the others" },
      { key: "operands", label: "Operands", kind: "operands", actions: ["CALCULATE"], hint: 'One a line: a column or a number; a column named like a number in "quotes"' },
      { key: "to", label: "To column", kind: "column", actions: ["COPY", "WEEKS_TO_DATE", "CALCULATE"], optional: true, hint: "Required for COPY and CALCULATE; for WEEKS_TO_DATE blank writes over the column" },
      { key: "decimals", label: "Decimals", kind: "int", actions: ["CALCULATE"], optional: true, hint: "Blank: 2" },
      { key: "when.column", label: "Only when column", kind: "column", actions: ["COPY"], optional: true },
      { key: "when.pattern", label: "Only when it matches", kind: "text", actions: ["COPY"], optional: true },
      { key: "pattern", label: "Pattern", kind: "text", actions: ["REPLACE"], hint: "Regular expression, case aside" },
      { key: "replacement", label: "Replacement", kind: "text", actions: ["REPLACE"], hint: "$1 is the first group" },
      { key: "characters", label: "Characters to remove", kind: "text", actions: ["STRIP"], optional: true, hint: "Blank: currency signs, AUD/NZD/USD, commas and spaces" },
    ],
  },
  GroupBy: {
    actionLabel: "Combine",
    actions: ["SUM", "JOIN"],
    fields: [
      { key: "by", label: "Group by columns", kind: "list", actions: ["SUM", "JOIN"], hint: "Comma separated; consecutive rows with the same cells become one" },
      { key: "columns", label: "Columns to combine", kind: "list", actions: ["SUM", "JOIN"], hint: "Comma separated" },
      { key: "separator", label: "Separator", kind: "text", actions: ["JOIN"], optional: true, hint: 'Blank: ", "' },
    ],
  },
  HeaderCells: {
    actionLabel: "Read",
    actions: ["CELLS"],
    actionless: true,
    fields: [
      { key: "header_row", label: "Column header row number", kind: "int", actions: ["CELLS"], hint: "The rows above it are the header block; put this step before NameColumns" },
      { key: "cells", label: "Cells", kind: "cells", actions: ["CELLS"], hint: "One a line: name = B3, name = right of Invoice No, or name = below Invoice No" },
    ],
  },
  JoinRows: {
    actionLabel: "Join",
    actions: ["SIZE", "CONTINUATION"],
    fields: [
      { key: "size", label: "Rows per record", kind: "int", actions: ["SIZE"] },
      { key: "continuation.column", label: "Continuation column", kind: "column", actions: ["CONTINUATION"] },
      { key: "continuation.pattern", label: "Continuation pattern", kind: "text", actions: ["CONTINUATION"], hint: "A row whose column matches belongs to the row before" },
    ],
  },
  NameColumns: {
    actionLabel: "Name by",
    actions: ["ROW_INDEX", "MAPPINGS"],
    fields: [
      { key: "row", label: "Header row number", kind: "int", actions: ["ROW_INDEX"] },
      { key: "mappings", label: "Renames", kind: "pairs", actions: ["MAPPINGS"], hint: "One a line: column = name (A = Invoice)" },
    ],
  },
};
export const EDITABLE_TYPES = Object.keys(STEP_FORMS) as EditableType[];
export const isEditableType = (t: string): t is EditableType => t in STEP_FORMS;

export interface EditorStep {
  id?: number;
  type: StepType;
  /** option controls by their key after `options.` (action, column, when.column, map.invoice_number, cost.gst.column) */
  values: Record<string, string>;
  destroyed: boolean;
  /** ticked to run in the test run */
  run: boolean;
}
export interface EditorState {
  name: string;
  carrier_id: string;
  /** the formats ticked, in PARSER_FORMATS order */
  formats: string[];
  sheets: string;
  steps: EditorStep[];
}

export const stepName = (i: number, key: string) => `transformations.${i}.${key}`;
export const optionName = (i: number, key: string) => `transformations.${i}.options.${key}`;
const MAX_STEPS = 100;

/** The posted form as the editor's state (strings as typed); MapFields kept last. */
export function stateFromForm(form: FormData): EditorState {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : "";
  };
  const steps: EditorStep[] = [];
  for (let i = 0; i <= MAX_STEPS && form.has(stepName(i, "type")); i++) {
    const prefix = optionName(i, "");
    const values: Record<string, string> = {};
    for (const [k, v] of form) if (k.startsWith(prefix) && typeof v === "string") values[k.slice(prefix.length)] = v;
    const id = Number(text(stepName(i, "id")));
    steps.push({ ...(id > 0 ? { id } : {}), type: text(stepName(i, "type")) as StepType, values, destroyed: text(stepName(i, "_destroy")) === "1", run: form.has(stepName(i, "run")) });
  }
  // a form of before formats (and its tests) posts one `format`
  const ticked = form.getAll("formats").filter((f): f is string => typeof f === "string");
  const formats = form.has("formats_shown") || ticked.length ? ticked : [text("format") || "CSV"];
  return withMapFieldsLast({ name: text("name"), carrier_id: text("carrier_id"), formats, sheets: text("sheets"), steps: steps.map((s) => (s.type === "MapFields" ? { ...s, values: compactCosts(s.values) } : s)) });
}

/** A saved template (or none: a new one) as the editor's state. */
export function stateFromConfig(config: ConfigJson | null): EditorState {
  if (!config) return withMapFieldsLast({ name: "", carrier_id: "", formats: ["CSV"], sheets: "", steps: [] });
  return withMapFieldsLast({
    name: config.name,
    carrier_id: String(config.carrier_id),
    formats: config.parser.formats,
    sheets: config.parser.sheets.join(", "),
    steps: config.transformations.map((t) => ({ id: t.id, type: t.type, values: valuesOf(t.type, t.options as Record<string, unknown>), destroyed: false, run: true })),
  });
}

function valuesOf(type: StepType, options: Record<string, unknown>): Record<string, string> {
  const values: Record<string, string> = {};
  if (type === "MapFields") {
    const o = options as { mappings?: { field: string; column: string }[]; costs?: Parameters<typeof costValues>[0] };
    for (const m of o.mappings ?? []) values[`map.${m.field}`] = m.column;
    return { ...values, ...costValues(o.costs ?? []) };
  }
  const spec = STEP_FORMS[type];
  values.action = type === "JoinRows" ? (options.size !== undefined ? "SIZE" : "CONTINUATION") : String(options.action ?? spec.actions[0]);
  for (const f of spec.fields) {
    const v = f.key.split(".").reduce<unknown>((o, k) => (o && typeof o === "object" ? (o as Record<string, unknown>)[k] : undefined), options);
    if (v === undefined || v === null) continue;
    if (f.kind === "pairs") values[f.key] = (v as { column: string; name: string }[]).map((p) => `${p.column} = ${p.name}`).join("\n");
    else if (f.kind === "operands") values[f.key] = operandsText(v as Parameters<typeof operandsText>[0]);
    else if (f.kind === "cells") values[f.key] = cellsText(v as Parameters<typeof cellsText>[0]);
    else values[f.key] = Array.isArray(v) ? v.join(", ") : String(v);
  }
  return values;
}

/** Exactly one MapFields, at the end: the spec's "Editor keeps the field-mapping transform last". */
function withMapFieldsLast(state: EditorState): EditorState {
  const maps = state.steps.filter((s) => s.type === "MapFields");
  const others = state.steps.filter((s) => s.type !== "MapFields");
  return { ...state, steps: [...others, maps[0] ?? { type: "MapFields", values: {}, destroyed: false, run: true }] };
}

const intOf = (s: string): number | string => (/^\s*-?\d+\s*$/.test(s) ? Number(s) : s);
const listOf = (s: string) => s.split(",").map((x) => x.trim()).filter(Boolean);

/** One step's option controls as the options object its zod schema takes. */
export function optionsOf(step: EditorStep): Record<string, unknown> {
  const v = step.values;
  if (step.type === "MapFields") {
    return {
      mappings: MAPPABLE_FIELDS.filter((f) => (v[`map.${f}`] ?? "").trim()).map((f) => ({ field: f, column: v[`map.${f}`]! })),
      costs: costsOf(v).costs,
    };
  }
  if (!isEditableType(step.type)) return {};
  const spec = STEP_FORMS[step.type];
  const action = spec.actions.includes(v.action ?? "") ? v.action! : spec.actions[0]!;
  const out: Record<string, unknown> = spec.actionless || step.type === "JoinRows" ? {} : { action };
  for (const f of spec.fields.filter((f) => f.actions.includes(action))) {
    const raw = v[f.key] ?? "";
    if (raw.trim() === "" && f.optional) continue;
    const value =
      f.kind === "int" ? (raw.trim() === "" ? undefined : intOf(raw))
      : f.kind === "ints" ? raw.split(/[\s,]+/).filter(Boolean).map(intOf)
      : f.kind === "list" ? listOf(raw)
      : f.kind === "operands" ? operandsOf(raw)
      : f.kind === "cells" ? cellsOf(raw)
      : f.kind === "pairs" ? raw.split(/\r?\n/).filter((l) => l.trim()).map((l) => ({ column: l.split("=")[0]!.trim(), name: l.includes("=") ? l.slice(l.indexOf("=") + 1).trim() : "" }))
      : raw;
    const [head, sub] = f.key.split(".") as [string, string?];
    if (sub) ((out[head] ??= {}) as Record<string, unknown>)[sub] = value;
    else out[head] = value;
  }
  // COPY's condition needs both halves once either is given
  if (out.when) out.when = { column: "", pattern: "", ...(out.when as object) };
  return out;
}

/** The state as the body `configInput` (and saveConfig) takes. */
export function configBody(state: EditorState) {
  return {
    name: state.name,
    carrier_id: state.carrier_id,
    parser: { formats: state.formats, sheets: listOf(state.sheets) },
    transformations: state.steps.map((s) => ({ ...(s.id ? { id: s.id } : {}), type: s.type, ...(s.destroyed ? { _destroy: "1" } : {}), options: optionsOf(s) })),
  };
}

/**
 * A schema error's key as the editor's control name: `transformations.1.options.indexes.0` is the
 * indexes control, `...options.costs.0.description` the description of the first mapped cost's
 * category; an error about a whole step goes on `transformations.1`.
 */
export function formErrorKey(key: string, state: EditorState): string {
  const m = /^transformations\.(\d+)\.options(?:\.(.+))?$/.exec(key);
  if (!m) return key;
  const i = Number(m[1]);
  const step = state.steps[i];
  const rest = m[2] ?? "";
  if (!step || !rest) return stepName(i, "options");
  if (step.type === "MapFields") {
    const [list, k, part] = rest.split(".");
    const body = optionsOf(step) as { mappings: { field: string }[] };
    const costRow = costsOf(step.values).rows[Number(k)];
    if (list === "mappings" && k !== undefined && body.mappings[Number(k)]) return optionName(i, `map.${body.mappings[Number(k)]!.field}`);
    if (list === "costs" && k !== undefined && costRow !== undefined) return optionName(i, `cost.${costRow}.${part === "when" ? `when.${rest.split(".")[3] ?? "column"}` : part === "category" || part === "description" ? part : "column"}`);
    return optionName(i, list ?? "mappings");
  }
  const fields = isEditableType(step.type) ? STEP_FORMS[step.type].fields : [];
  const field = fields.map((f) => f.key).filter((k) => rest === k || rest.startsWith(`${k}.`)).sort((a, b) => b.length - a.length)[0];
  return field ? optionName(i, field) : rest === "action" ? optionName(i, "action") : stepName(i, "options");
}

export function remapErrors(errors: Record<string, string[]>, state: EditorState): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(errors)) (out[formErrorKey(k, state)] ??= []).push(...v);
  return out;
}

/** Adds a step of `type` before MapFields; answers its index. */
export function addStep(state: EditorState, type: string): { state: EditorState; index: number } {
  if (!isEditableType(type)) return { state, index: -1 };
  const steps = [...state.steps];
  const index = steps.length - 1;
  steps.splice(index, 0, { type, values: { action: STEP_FORMS[type].actions[0]! }, destroyed: false, run: true });
  return { state: { ...state, steps }, index };
}

/** Moves step `i` past its live neighbour; MapFields never moves and nothing passes it. Answers the step's new index. */
export function moveStep(state: EditorState, i: number, direction: -1 | 1): { state: EditorState; index: number } {
  const steps = [...state.steps];
  const movable = (k: number) => steps[k] && steps[k]!.type !== "MapFields";
  if (!movable(i)) return { state, index: i };
  let j = i + direction;
  while (steps[j] && steps[j]!.destroyed) j += direction;
  if (!movable(j)) return { state, index: i };
  [steps[i], steps[j]] = [steps[j]!, steps[i]!];
  return { state: { ...state, steps }, index: j };
}

/** Marks step `i` removed (saved as _destroy) or brings it back; MapFields stays. */
export function setRemoved(state: EditorState, i: number, destroyed: boolean): EditorState {
  const step = state.steps[i];
  if (!step || step.type === "MapFields") return state;
  return { ...state, steps: state.steps.map((s, k) => (k === i ? { ...s, destroyed } : s)) };
}

/** The live steps' numbers as the pipeline counts them (1-based, removed steps skipped). */
export function stepNumbers(state: EditorState): (number | null)[] {
  let n = 0;
  return state.steps.map((s) => (s.destroyed ? null : ++n));
}
