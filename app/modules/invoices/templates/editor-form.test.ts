import { describe, expect, it } from "vitest";
import { ACTION_LABELS, CHOICE_LABELS } from "./step-labels";
import { EDITABLE_TYPES, STEP_FORMS, addStep, configBody, formErrorKey, moveStep, optionName, setRemoved, stateFromConfig, stateFromForm, stepName, stepNumbers, type EditorState } from "./editor-form";
import { configInput } from "./schema";

const form = (entries: [string, string][]) => {
  const f = new FormData();
  for (const [k, v] of entries) f.append(k, v);
  return f;
};

const posted = form([
  ["name", " Acme "],
  ["carrier_id", "3"],
  ["format", "CSV"],
  ["sheets", "Charges, Summary"],
  [stepName(0, "type"), "DeleteRows"],
  [optionName(0, "action"), "ROW_INDEXES"],
  [optionName(0, "indexes"), "1, 2 -1"],
  [optionName(0, "column"), "ignored: not read by ROW_INDEXES"],
  [stepName(0, "run"), "1"],
  [stepName(1, "type"), "MapFields"],
  [optionName(1, "map.invoice_number"), "Inv"],
  [optionName(1, "map.consignment_number"), "Con"],
  [optionName(1, "map.payer"), "  "],
  [optionName(1, "cost.fuel_charge.column"), "Fuel"],
  [optionName(1, "cost.gst.column"), "GST"],
  [optionName(1, "cost.gst.description"), "Tax"],
  [stepName(2, "type"), "EditValues"],
  [stepName(2, "id"), "44"],
  [optionName(2, "action"), "COPY"],
  [optionName(2, "from"), "A"],
  [optionName(2, "to"), "B"],
  [optionName(2, "when.column"), "C"],
  [optionName(2, "when.pattern"), "^fuel"],
]);

describe("the editor's form as configInput's body", () => {
  it("reads nested option names, converts numbers and lists, drops blank mappings and keeps MapFields last", () => {
    const state = stateFromForm(posted);
    expect(state.steps.map((s) => s.type)).toEqual(["DeleteRows", "EditValues", "MapFields"]);
    expect(state.steps.map((s) => s.run)).toEqual([true, false, false]);
    const body = configBody(state);
    expect(body.parser).toEqual({ formats: ["CSV"], sheets: ["Charges", "Summary"] });
    expect(body.transformations).toEqual([
      { type: "DeleteRows", options: { action: "ROW_INDEXES", indexes: [1, 2, -1] } },
      { id: 44, type: "EditValues", options: { action: "COPY", from: "A", to: "B", when: { column: "C", pattern: "^fuel" } } },
      {
        type: "MapFields",
        options: {
          mappings: [{ field: "invoice_number", column: "Inv" }, { field: "consignment_number", column: "Con" }],
          costs: [{ category: "fuel_charge", column: "Fuel" }, { category: "gst", column: "GST", description: "Tax" }],
        },
      },
    ]);
    const parsed = configInput.parse(body);
    expect(parsed.transformations.map((t) => [t.type, t.sequence])).toEqual([["DeleteRows", 1], ["EditValues", 2], ["MapFields", 999999]]);
  });

  it("reads every type's own fields", () => {
    const one = (type: string, values: Record<string, string>) => configBody({ name: "", carrier_id: "", formats: ["CSV"], sheets: "", steps: [{ type: type as never, values, destroyed: false, run: true }] }).transformations[0]!.options;
    expect(one("GroupBy", { action: "JOIN", by: "A, B", columns: "C", separator: "" })).toEqual({ action: "JOIN", by: ["A", "B"], columns: ["C"] });
    expect(one("JoinRows", { action: "SIZE", size: "3", "continuation.column": "X" })).toEqual({ size: 3 });
    expect(one("JoinRows", { action: "CONTINUATION", "continuation.column": "A", "continuation.pattern": "^$" })).toEqual({ continuation: { column: "A", pattern: "^$" } });
    expect(one("NameColumns", { action: "MAPPINGS", mappings: "A = Invoice\r\nB=Con number\n\n" })).toEqual({ action: "MAPPINGS", mappings: [{ column: "A", name: "Invoice" }, { column: "B", name: "Con number" }] });
    expect(one("NameColumns", { action: "ROW_INDEX", row: "x3" })).toEqual({ action: "ROW_INDEX", row: "x3" });
    expect(one("EditValues", { action: "STRIP", column: "D", characters: "" })).toEqual({ action: "STRIP", column: "D" });
    expect(one("EditValues", { action: "COPY", from: "A", to: "B", "when.column": "C" })).toEqual({ action: "COPY", from: "A", to: "B", when: { column: "C", pattern: "" } });
    // an action the type does not have reads as its first
    expect(one("DeleteRows", { action: "NOPE", indexes: "4" })).toEqual({ action: "ROW_INDEXES", indexes: [4] });
  });

  it("round-trips a saved template", () => {
    const config = {
      id: 1,
      name: "T",
      carrier_id: 2,
      carrier_name: "C",
      parser: { format: "XLSX" as const, formats: ["XLSX" as const], sheets: ["S1"] },
      transformations: [
        { id: 5, sequence: 1, type: "NameColumns" as const, options: { action: "MAPPINGS" as const, mappings: [{ column: "A", name: "Inv" }] } },
        { id: 6, sequence: 2, type: "JoinRows" as const, options: { continuation: { column: "A", pattern: "^$" } } },
        { id: 7, sequence: 999999, type: "MapFields" as const, options: { mappings: [{ field: "invoice_number" as const, column: "Inv" }, { field: "consignment_number" as const, column: "B" }], costs: [{ category: "gst" as const, column: "G", description: "Tax" }] } },
      ],
    };
    const body = configBody(stateFromConfig(config));
    expect(body.transformations).toEqual(config.transformations.map(({ id, type, options }) => ({ id, type, options })));
    expect(body.parser).toEqual({ formats: ["XLSX"], sheets: ["S1"] });
  });

  it("a new template starts with an empty MapFields; a removed step is sent with _destroy", () => {
    const empty = stateFromConfig(null);
    expect(empty.steps.map((s) => s.type)).toEqual(["MapFields"]);
    const { state } = addStep(empty, "DeleteRows");
    expect(configBody(setRemoved(state, 0, true)).transformations[0]).toMatchObject({ type: "DeleteRows", _destroy: "1" });
    expect(setRemoved(state, 1, true)).toBe(state);
  });
});

describe("moving and numbering steps", () => {
  const three = (): EditorState => {
    let s = stateFromConfig(null);
    for (const t of ["DeleteRows", "EditValues", "GroupBy"]) s = addStep(s, t).state;
    return s;
  };
  it("moves past removed neighbours, never past MapFields, and says where the step went", () => {
    const s = setRemoved(three(), 1, true);
    const down = moveStep(s, 0, 1);
    expect(down.index).toBe(2);
    expect(down.state.steps.map((x) => x.type)).toEqual(["GroupBy", "EditValues", "DeleteRows", "MapFields"]);
    expect(moveStep(down.state, 2, 1).index).toBe(2);
    expect(moveStep(down.state, 3, -1).state).toBe(down.state);
    expect(moveStep(s, 0, -1).index).toBe(0);
    expect(stepNumbers(s)).toEqual([1, null, 2, 3]);
  });
});

describe("schema errors on the editor's controls", () => {
  const state = stateFromForm(posted);
  it.each([
    ["transformations.0.options.indexes.1", optionName(0, "indexes")],
    ["transformations.1.options.when.pattern", optionName(1, "when.pattern")],
    ["transformations.2.options.mappings", optionName(2, "mappings")],
    ["transformations.2.options.costs.1.description", optionName(2, "cost.1.description")],
    ["transformations.2.options.costs.0.when.value", optionName(2, "cost.0.when.value")],
    ["transformations.2.options.mappings.0.column", optionName(2, "map.invoice_number")],
    ["transformations.0.options", stepName(0, "options")],
    ["name", "name"],
  ])("%s goes on %s", (key, control) => {
    expect(formErrorKey(key, state)).toBe(control);
  });
});

describe("labels of the step actions and choices (issue 31 #6)", () => {
  it.each(EDITABLE_TYPES)("every action and choice of %s has a label, never its code", (type) => {
    for (const action of STEP_FORMS[type].actions) expect(ACTION_LABELS[action], action).toMatch(/^[A-Z][a-z ]+/);
    for (const f of STEP_FORMS[type].fields) for (const c of f.choices ?? []) expect(CHOICE_LABELS[c], c).toMatch(/^[A-Z][a-z ]+/);
  });
  it("names ROW_INDEXES and COLUMN_MATCH in words", () => {
    expect([ACTION_LABELS.ROW_INDEXES, ACTION_LABELS.COLUMN_MATCH]).toEqual(["Rows by number", "Rows whose column matches"]);
  });
});
