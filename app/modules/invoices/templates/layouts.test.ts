/**
 * The template language's steps for common layouts (issue 29 item 6): HeaderCells, EditValues
 * CALCULATE, conditional costs and costs of one category added up, a template of several formats,
 * and the editor's text forms of them both ways.
 */
import { describe, expect, it } from "vitest";
import { COST_CATEGORIES } from "../../../../db/schema/finance";
import { costCategoryLabel } from "../schemas";
import { conditionSchema, conditionTest } from "./conditions";
import { editValues, editValuesOptions } from "./edit-values";
import { cellsOf, cellsText, compactCosts, costsOf, costValues, operandsOf, operandsText } from "./editor-text";
import { configBody, stateFromConfig, stateFromForm, type EditorState } from "./editor-form";
import { headerCells, headerCellsOptions } from "./header-cells";
import { mapFieldsOptions, mapRow, type Mapped } from "./map-fields";
import { runTemplate } from "./pipeline";
import { rowOf, type Row, type Rows } from "./rows";
import { configInput, parserSchema } from "./schema";
import { EVERY_STEP } from "../../../../tests/support/every-step";

const place = { step: 1, stepName: "Test" };
async function* from(rows: Row[]): Rows {
  for (const r of rows) yield r;
}
const grid = (cells: string[][]): Row[] => cells.map((c, i) => rowOf(i + 1, c)).filter((r): r is Row => r !== null);
const all = async <T>(it: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
};

// a carrier's header block above its column header (row 6), a credit line among the charges
const invoiceFile = () =>
  grid([
    ["Northline Logistics", "", "", "Tax invoice"],
    ["Invoice No:", "", "NL-7001", ""],
    ["Invoice Date", "05/11/2026", "", "Account: ACC-9"],
    ["Billing period", "", "", ""],
    ["1-31 Oct 2026", "", "", ""],
    ["Con Note", "Freight", "Fuel", "Total"],
    ["CN1", "$100.00", "$12.50", "$112.50"],
    ["CN2", "-$40.00", "-$5.00", "-$45.00"],
  ]);

describe("HeaderCells", () => {
  const options = headerCellsOptions.parse({
    header_row: 6,
    cells: [
      { name: "Invoice", label: "Invoice No" },
      { name: "Date", column: "B", row: 3 },
      { name: "Account", label: "account" },
      { name: "Period", label: "Billing period", beside: "BELOW" },
    ],
  });
  it("reads cells by row and column, right of a label, in the label's own cell and below it, into every line; the header row names the new columns", async () => {
    const out = await all(headerCells(from(invoiceFile()), options, place));
    expect(out.slice(0, 5).map((r) => r.values.Invoice)).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(out[5]!.values).toMatchObject({ A: "Con Note", Invoice: "Invoice", Date: "Date", Account: "Account", Period: "Period" });
    for (const line of out.slice(6)) expect(line.values).toMatchObject({ Invoice: "NL-7001", Date: "05/11/2026", Account: "ACC-9", Period: "1-31 Oct 2026" });
    expect(out.every((r) => !r.problem)).toBe(true);
  });
  it("marks every line when a label is nowhere in the block, naming it", async () => {
    const o = headerCellsOptions.parse({ header_row: 6, cells: [{ name: "Invoice", label: "Statement number" }] });
    const out = await all(headerCells(from(invoiceFile()), o, place));
    expect(out[6]!.problem).toEqual({ step: 1, stepName: "Test", message: "No cell above row 6 reads 'Statement number' (Invoice)" });
    expect(out[5]!.problem).toBeUndefined();
  });
  it("refuses a cell at or below the header row, a column that is not a letter and a name given twice", () => {
    expect(headerCellsOptions.safeParse({ header_row: 6, cells: [{ name: "X", column: "B", row: 6 }] }).success).toBe(false);
    expect(headerCellsOptions.safeParse({ header_row: 6, cells: [{ name: "X", column: "Total", row: 2 }] }).success).toBe(false);
    expect(headerCellsOptions.safeParse({ header_row: 6, cells: [{ name: "X", column: "B", row: 2 }, { name: "x", label: "Y" }] }).success).toBe(false);
    expect(headerCellsOptions.safeParse({ header_row: 1, cells: [{ name: "X", label: "Y" }] }).success).toBe(false);
  });
});

describe("EditValues CALCULATE", () => {
  const calc = async (values: Record<string, string>, o: object) => (await all(editValues(from([{ row: 1, values }]), editValuesOptions.parse({ action: "CALCULATE", to: "R", ...o }), place)))[0]!;
  it("sums, subtracts and multiplies columns and numbers, rounding once at the end", async () => {
    expect((await calc({ A: "$1,000.10", B: "(0.10)" }, { operation: "SUM", operands: [{ column: "A" }, { column: "B" }, { number: 5 }] })).values.R).toBe("1005.00");
    expect((await calc({ A: "112.50", B: "12.50" }, { operation: "DIFFERENCE", operands: [{ column: "A" }, { column: "B" }] })).values.R).toBe("100.00");
    expect((await calc({ A: "10.05" }, { operation: "PRODUCT", operands: [{ column: "A" }, { number: 0.1 }] })).values.R).toBe("1.01");
    expect((await calc({ A: "3" }, { operation: "PRODUCT", operands: [{ column: "A" }, { number: 0.3333 }], decimals: 4 })).values.R).toBe("0.9999");
  });
  it("counts a blank as 0 in a sum, leaves a product or an all-blank sum blank, and marks text that is not an amount", async () => {
    expect((await calc({ A: "4", B: "" }, { operation: "SUM", operands: [{ column: "A" }, { column: "B" }] })).values.R).toBe("4.00");
    expect((await calc({ A: "4", B: "" }, { operation: "PRODUCT", operands: [{ column: "A" }, { column: "B" }] })).values.R).toBe("");
    expect((await calc({ A: "", B: "" }, { operation: "SUM", operands: [{ column: "A" }, { column: "B" }] })).values.R).toBe("");
    const bad = await calc({ A: "n/a", B: "1" }, { operation: "SUM", operands: [{ column: "A" }, { column: "B" }] });
    expect(bad.problem?.message).toBe("'n/a' in column A is not an amount");
  });
  it("needs two operands, each a column or a number, and a column to write", () => {
    expect(editValuesOptions.safeParse({ action: "CALCULATE", operation: "SUM", operands: [{ column: "A" }], to: "R" }).success).toBe(false);
    expect(editValuesOptions.safeParse({ action: "CALCULATE", operation: "SUM", operands: [{ column: "A" }, { number: "x" }], to: "R" }).success).toBe(false);
    expect(editValuesOptions.safeParse({ action: "CALCULATE", operation: "SUM", operands: [{ column: "A" }, { number: 1 }] }).success).toBe(false);
  });
});

describe("conditions", () => {
  const test = (c: object) => conditionTest(conditionSchema.parse(c));
  it("compares a column's amount with a number (in cents), or matches its text; a blank cell holds no number", () => {
    expect(test({ column: "T", compare: "LT", value: 0 })({ T: "-$45.00" })).toBe(true);
    expect(test({ column: "T", compare: "LT", value: 0 })({ T: "0" })).toBe(false);
    expect(test({ column: "T", compare: "GE", value: 0 })({ T: "0" })).toBe(true);
    expect(test({ column: "T", compare: "GE", value: 0 })({ T: "" })).toBe(false);
    expect(test({ column: "T", compare: "EQ", value: 0.3 })({ T: "0.30" })).toBe(true);
    expect(test({ column: "T", compare: "MATCHES", value: "^cr" })({ T: "CREDIT" })).toBe(true);
    expect(test({ column: "T", compare: "GT", value: 1 })({ T: "abc" })).toBe("'abc' in column T is not an amount");
  });
  it("needs a number to compare with and a pattern to match", () => {
    expect(conditionSchema.safeParse({ column: "T", compare: "LT", value: "0" }).success).toBe(false);
    expect(conditionSchema.safeParse({ column: "T", compare: "MATCHES", value: "" }).success).toBe(false);
  });
});

describe("MapFields costs", () => {
  const o = mapFieldsOptions.parse({
    mappings: [
      { field: "invoice_number", column: "Inv" },
      { field: "consignment_number", column: "Con" },
    ],
    costs: [
      { category: "freight_charge", column: "Freight" },
      { category: "freight_charge", column: "Linehaul", description: "Freight and linehaul" },
      { category: "fuel_charge", column: "Fuel", when: { column: "Total", compare: "GE", value: 0 } },
      { category: "credit_adjustment", column: "Fuel", when: { column: "Total", compare: "LT", value: 0 } },
      { category: "credit_adjustment", column: "Freight", when: { column: "Total", compare: "LT", value: 0 } },
    ],
  });
  const line = (values: Record<string, string>) => {
    const m: Mapped = mapRow({ row: 2, values: { Inv: "I1", Con: "C1", ...values } }, o, place);
    if (!m.ok) throw new Error(m.problem.message);
    return m.line.costs;
  };
  it("adds up the columns of one category into one cost line, described as the first", () => {
    expect(line({ Freight: "10.10", Linehaul: "5.20", Fuel: "1.50", Total: "16.80" })).toEqual([
      { category: "freight_charge", description: "Freight charge", amount: 15.3 },
      { category: "fuel_charge", description: "Fuel levy", amount: 1.5 },
    ]);
  });
  it("sends a credit line's fuel part to credit_adjustment when the total is negative, never a negative fuel levy", () => {
    const costs = line({ Freight: "", Linehaul: "", Fuel: "-5.00", Total: "-45.00" });
    expect(costs).toEqual([{ category: "credit_adjustment", description: "Credit adjustment", amount: -5 }]);
    expect(costs.some((c) => c.category === "fuel_charge")).toBe(false);
  });
  it("reports a condition's column that holds text", () => {
    const m = mapRow({ row: 4, values: { Inv: "I1", Con: "C1", Fuel: "1", Total: "oops" } }, o, place);
    expect(m.ok ? null : m.problem.message).toBe("'oops' in column Total is not an amount (in the condition of the Fuel levy cost)");
  });
  it("knows tail lift and security charges, labelled from the one list", () => {
    expect(COST_CATEGORIES).toEqual(expect.arrayContaining(["tail_lift_surcharge", "security_surcharge"]));
    expect(mapFieldsOptions.safeParse({ mappings: o.mappings, costs: [{ category: "tail_lift_surcharge", column: "TL" }, { category: "security_surcharge", column: "SEC" }] }).success).toBe(true);
    expect(costCategoryLabel("tail_lift_surcharge")).toBe("Tail lift surcharge");
  });
});

describe("formats", () => {
  it("reads `formats` or one `format`, answering both in one order", () => {
    expect(parserSchema.parse({ formats: ["XLSX", "CSV", "XLSX"], sheets: [] })).toEqual({ format: "CSV", formats: ["CSV", "XLSX"], sheets: [] });
    expect(parserSchema.parse({ format: "XLS" })).toEqual({ format: "XLS", formats: ["XLS"], sheets: [] });
    expect(parserSchema.safeParse({ format: "XLS", formats: ["CSV"] }).success).toBe(false);
    expect(parserSchema.safeParse({ formats: [] }).success).toBe(false);
    expect(parserSchema.safeParse({ sheets: [] }).success).toBe(false);
  });
});

describe("the editor's text forms", () => {
  it("operands: numbers, columns, and a column named like a number quoted, both ways", () => {
    const operands = [{ column: "Freight" }, { number: -1.5 }, { column: "10" }];
    expect(operandsText(operands)).toBe('Freight\n-1.5\n"10"');
    expect(operandsOf(operandsText(operands))).toEqual(operands);
  });
  it("cells: a cell, right of a label and below a label, both ways", () => {
    const cells = [
      { name: "Invoice", column: "C", row: 2 },
      { name: "Date", label: "Invoice Date", beside: "RIGHT" },
      { name: "Period", label: "Billing period", beside: "BELOW" },
    ];
    expect(cellsText(cells)).toBe("Invoice = C2\nDate = right of Invoice Date\nPeriod = below Billing period");
    expect(cellsOf(cellsText(cells))).toEqual(cells);
    expect(cellsOf("Account = b4\nRef = Ref:")).toEqual([{ name: "Account", column: "B", row: 4 }, { name: "Ref", label: "Ref:", beside: "RIGHT" }]);
  });
  it("cost rows: several per category with conditions both ways; blank rows dropped and the rest numbered again", () => {
    const costs = [
      { category: "fuel_charge", column: "Fuel", when: { column: "Total", compare: "GE", value: 0 } },
      { category: "credit_adjustment", column: "Fuel", description: "Credit", when: { column: "Total", compare: "LT", value: 0 } },
      { category: "freight_charge", column: "Freight" },
      { category: "freight_charge", column: "Linehaul" },
    ];
    expect(costsOf(costValues(costs)).costs).toEqual(costs);
    const posted = { "cost.0.category": "", "cost.0.column": "", "cost.0.when.compare": "LT", "cost.3.category": "gst", "cost.3.column": "GST", "map.invoice_number": "I" };
    expect(compactCosts(posted)).toEqual({ "map.invoice_number": "I", "cost.0.category": "gst", "cost.0.column": "GST" });
  });
  it("a template with every step and action comes back from the editor's form as it went in", () => {
    const config = {
      id: 1,
      name: "All",
      carrier_id: 2,
      carrier_name: "C",
      parser: { format: "CSV" as const, formats: ["CSV" as const, "XLSX" as const], sheets: ["Charges"] },
      transformations: EVERY_STEP.map((t, i) => ({ id: i + 1, sequence: i + 1, ...t })),
    };
    const again = configInput.parse(configBody(stateFromForm(formOf(stateFromConfig(config as never)))));
    expect(again.parser).toEqual(config.parser);
    expect(again.transformations.map(({ type, options }) => ({ type, options }))).toEqual(configInput.parse({ name: "All", carrier_id: 2, parser: config.parser, transformations: EVERY_STEP }).transformations.map(({ type, options }) => ({ type, options })));
  });
});

/** The editor's state as the form the screen posts (every value a control). */
function formOf(state: EditorState): FormData {
  const f = new FormData();
  f.append("name", state.name);
  f.append("carrier_id", state.carrier_id);
  f.append("formats_shown", "1");
  for (const x of state.formats) f.append("formats", x);
  f.append("sheets", state.sheets);
  state.steps.forEach((s, i) => {
    f.append(`transformations.${i}.type`, s.type);
    for (const [k, v] of Object.entries(s.values)) f.append(`transformations.${i}.options.${k}`, v);
  });
  return f;
}

describe("a layout with a header block and a credit line, end to end", () => {
  it("gives each line the header block's invoice number and date, and the credit's fuel part as credit_adjustment", async () => {
    const steps = configInput.parse({
      name: "x",
      carrier_id: 1,
      parser: { formats: ["CSV"] },
      transformations: [
        { type: "HeaderCells", options: { header_row: 6, cells: [{ name: "Invoice", label: "Invoice No" }, { name: "Date", label: "Invoice Date" }] } },
        { type: "NameColumns", options: { action: "ROW_INDEX", row: 6 } },
        {
          type: "MapFields",
          options: {
            mappings: [
              { field: "invoice_number", column: "Invoice" },
              { field: "invoice_date", column: "Date" },
              { field: "consignment_number", column: "Con Note" },
              { field: "total_cost", column: "Total" },
            ],
            costs: [
              { category: "freight_charge", column: "Freight" },
              { category: "fuel_charge", column: "Fuel", when: { column: "Total", compare: "GE", value: 0 } },
              { category: "credit_adjustment", column: "Fuel", when: { column: "Total", compare: "LT", value: 0 } },
            ],
          },
        },
      ],
    }).transformations;
    const { results } = runTemplate(from(invoiceFile()), steps);
    const lines = (await all(results)).map((m) => (m.ok ? m.line : m.problem.message));
    expect(lines).toMatchObject([
      { invoice: { invoiceNumber: "NL-7001", invoiceDate: "2026-11-05" }, costs: [{ category: "freight_charge", amount: 100 }, { category: "fuel_charge", amount: 12.5 }] },
      { invoice: { invoiceNumber: "NL-7001" }, costs: [{ category: "freight_charge", amount: -40 }, { category: "credit_adjustment", amount: -5 }] },
    ]);
  });
});
