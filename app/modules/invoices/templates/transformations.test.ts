import { describe, expect, it } from "vitest";
import { deleteRows, deleteRowsOptions } from "./delete-rows";
import { editValues, editValuesOptions } from "./edit-values";
import { groupBy, groupByOptions } from "./group-by";
import { joinRows, joinRowsOptions } from "./join-rows";
import { MAPPABLE_FIELD_LABELS, MAPPABLE_FIELDS, mapFieldsOptions, mapRow, problemText, unmappedMessage } from "./map-fields";
import { nameColumns, nameColumnsOptions } from "./name-columns";
import { runTemplate } from "./pipeline";
import { rowOf, type Row, type Rows } from "./rows";
import { configInput } from "./schema";

const place = { step: 2, stepName: "Test" };
async function* from(rows: Row[]): Rows {
  for (const r of rows) yield r;
}
const grid = (cells: string[][]): Row[] => cells.map((c, i) => rowOf(i + 1, c)).filter((r): r is Row => r !== null);
const all = async <T>(it: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
};

describe("rowOf", () => {
  it("keys cells by column letter and drops blank rows", () => {
    expect(rowOf(3, ["a", " b ", ""])).toEqual({ row: 3, values: { A: "a", B: "b", C: "" } });
    expect(rowOf(4, ["", "  "])).toBeNull();
  });
});

describe("DeleteRows", () => {
  const rows = grid([["h"], ["1"], ["2"], ["3"], ["total"]]);
  it("ROW_INDEXES drops rows by number from the start and, negative, from the end", async () => {
    const out = await all(deleteRows(from(rows), deleteRowsOptions.parse({ action: "ROW_INDEXES", indexes: [1, -1] })));
    expect(out.map((r) => r.values.A)).toEqual(["1", "2", "3"]);
  });
  it("COLUMN_MATCH drops rows whose column matches the pattern, a blank cell with ^$", async () => {
    const out = await all(deleteRows(from(rows), deleteRowsOptions.parse({ action: "COLUMN_MATCH", column: "A", pattern: "^(h|TOTAL)$" })));
    expect(out.map((r) => r.values.A)).toEqual(["1", "2", "3"]);
    const blanks = await all(deleteRows(from(grid([["1", ""], ["2", "x"]])), deleteRowsOptions.parse({ action: "COLUMN_MATCH", column: "B", pattern: "^$" })));
    expect(blanks.map((r) => r.values.A)).toEqual(["2"]);
  });
  it("refuses row index 0", () => {
    expect(deleteRowsOptions.safeParse({ action: "ROW_INDEXES", indexes: [0] }).success).toBe(false);
  });
});

describe("EditValues", () => {
  const run = async (options: unknown, rows: Row[]) => all(editValues(from(rows), editValuesOptions.parse(options), place));
  it("COPY copies a column, and with when only on matching rows", async () => {
    const rows = grid([["Freight", "10"], ["Fuel levy", "2"]]);
    expect((await run({ action: "COPY", from: "B", to: "C" }, rows)).map((r) => r.values.C)).toEqual(["10", "2"]);
    const fuel = await run({ action: "COPY", from: "B", to: "fuel", when: { column: "A", pattern: "fuel" } }, rows);
    expect(fuel.map((r) => r.values.fuel)).toEqual(["", "2"]);
  });
  it("REPLACE replaces every match, with groups", async () => {
    const out = await run({ action: "REPLACE", column: "A", pattern: "^CN-(\\d+)$", replacement: "$1" }, grid([["CN-123"], ["x"]]));
    expect(out.map((r) => r.values.A)).toEqual(["123", "x"]);
  });
  it("STRIP removes currency signs and thousands commas, or the characters given", async () => {
    expect((await run({ action: "STRIP", column: "A" }, grid([["$1,234.50 "]])))[0]!.values.A).toBe("1234.50");
    expect((await run({ action: "STRIP", column: "A", characters: "*#" }, grid([["*AB#1"]])))[0]!.values.A).toBe("AB1");
  });
  it("WEEKS_TO_DATE turns a week into its Monday and marks a row that is not a week", async () => {
    const out = await run({ action: "WEEKS_TO_DATE", column: "A", to: "date" }, grid([["2026-W07"], ["soon"], ["x", "y"].map((v, i) => (i ? v : ""))]));
    expect(out[0]!.values.date).toBe("2026-02-09");
    expect(out[1]!.problem).toMatchObject({ step: 2, message: expect.stringContaining("'soon'") });
    expect(out[2]!.values.date).toBe("");
  });
});

describe("GroupBy", () => {
  const rows = grid([
    ["CN1", "Freight", "$10.00"],
    ["CN1", "Fuel", "1,000.50"],
    ["CN2", "Freight", "5"],
    ["CN1", "Late", "1"],
  ]);
  it("SUM adds the amounts of consecutive rows with the same key", async () => {
    const out = await all(groupBy(from(rows), groupByOptions.parse({ action: "SUM", by: ["A"], columns: ["C"] }), place));
    expect(out.map((r) => [r.row, r.values.A, r.values.C])).toEqual([
      [1, "CN1", "1010.50"],
      [3, "CN2", "5.00"],
      [4, "CN1", "1.00"],
    ]);
  });
  it("JOIN joins the distinct texts", async () => {
    const out = await all(groupBy(from(rows), groupByOptions.parse({ action: "JOIN", by: ["A"], columns: ["B"], separator: "; " }), place));
    expect(out[0]!.values.B).toBe("Freight; Fuel");
  });
  it("SUM marks a group holding text that is not an amount", async () => {
    const out = await all(groupBy(from(grid([["CN1", "ten"]])), groupByOptions.parse({ action: "SUM", by: ["A"], columns: ["B"] }), place));
    expect(out[0]!.problem?.message).toContain("'ten'");
  });
});

describe("JoinRows", () => {
  it("joins every n rows, later rows' cells suffixed", async () => {
    const out = await all(joinRows(from(grid([["a", "1"], ["b"], ["c", "3"], ["d"]])), joinRowsOptions.parse({ size: 2 })));
    expect(out).toEqual([
      { row: 1, values: { A: "a", B: "1", A_2: "b" } },
      { row: 3, values: { A: "c", B: "3", A_2: "d" } },
    ]);
  });
  it("joins continuation rows onto the row before", async () => {
    const out = await all(joinRows(from(grid([["CN1", "x"], ["", "more"], ["", "again"], ["CN2", "y"]])), joinRowsOptions.parse({ continuation: { column: "A", pattern: "^$" } })));
    expect(out.map((r) => [r.values.A, r.values.B_2, r.values.B_3])).toEqual([
      ["CN1", "more", "again"],
      ["CN2", undefined, undefined],
    ]);
  });
  it("needs exactly one of size and continuation", () => {
    expect(joinRowsOptions.safeParse({}).success).toBe(false);
  });
});

describe("NameColumns", () => {
  it("ROW_INDEX takes names from a row and drops it and the rows before", async () => {
    const out = await all(nameColumns(from(grid([["Invoice 1"], ["Con", "Cost", ""], ["CN1", "3", "z"]])), nameColumnsOptions.parse({ action: "ROW_INDEX", row: 2 })));
    expect(out).toEqual([{ row: 3, values: { Con: "CN1", Cost: "3", C: "z" } }]);
  });
  it("MAPPINGS renames the columns given", async () => {
    const out = await all(nameColumns(from(grid([["CN1", "3"]])), nameColumnsOptions.parse({ action: "MAPPINGS", mappings: [{ column: "A", name: "con" }] })));
    expect(out[0]!.values).toEqual({ con: "CN1", B: "3" });
  });
});

describe("MapFields", () => {
  const options = mapFieldsOptions.parse({
    mappings: [
      { field: "invoice_number", column: "inv" },
      { field: "invoice_date", column: "date" },
      { field: "consignment_number", column: "con" },
      { field: "total_weight_in_uom", column: "kg" },
      { field: "dangerous_goods", column: "dg" },
      { field: "total_quantity", column: "qty" },
    ],
    costs: [
      { category: "freight_charge", column: "freight" },
      { category: "fuel_charge", column: "fuel" },
    ],
  });
  const row = (values: Record<string, string>): Row => ({ row: 7, values: { inv: "INV1", date: "1-Mar-2026", con: "CN1", kg: "1,200.5", dg: "N", qty: "2", freight: "$10", fuel: "0", ...values } });
  it("maps invoice, detail and cost fields, summing costs when the line has no total", () => {
    const m = mapRow(row({}), options, place);
    expect(m).toEqual({
      ok: true,
      line: {
        row: 7,
        invoice: { invoiceNumber: "INV1", invoiceDate: "2026-03-01", total: null },
        detail: { consignment_number: "CN1", total_weight_in_uom: 1200.5, dangerous_goods: false, total_quantity: 2, total_cost: 10 },
        costs: [{ category: "freight_charge", description: "Freight charge", amount: 10 }],
      },
    });
  });
  it("reports the row and step for a value it cannot read or a blank number", () => {
    expect(mapRow(row({ date: "31/02/2026" }), options, place)).toMatchObject({ ok: false, row: 7, problem: { step: 2, message: expect.stringContaining("not a date") } });
    expect(mapRow(row({ con: "" }), options, place)).toMatchObject({ ok: false, problem: { message: "The consignment number is blank" } });
    expect(mapRow(row({ fuel: "lots" }), options, place)).toMatchObject({ ok: false, problem: { message: "'lots' in column fuel is not an amount for the Fuel levy cost" } });
  });
  it("says a problem as a sentence about the row and its cell, in the field's words, with no step or internal name (issue 31 #6)", () => {
    const m = mapRow({ ...row({ kg: "heavy" }), row: 11 }, options, { step: 3, stepName: "MapFields" });
    expect(m.ok).toBe(false);
    if (m.ok) return;
    expect(problemText(m)).toBe("Row 11: 'heavy' in column kg is not an amount for the weight");
    expect(problemText({ ...m, sheet: "Charges" })).toBe("Row 11 of sheet Charges: 'heavy' in column kg is not an amount for the weight");
  });
  it("has a label for every field a template can fill", () => {
    for (const f of MAPPABLE_FIELDS) expect(MAPPABLE_FIELD_LABELS[f]).toMatch(/^[A-Z][a-z ]+$/);
    expect(unmappedMessage("consignment_number")).toBe("Map a column to Consignment number");
  });
  it("passes on the problem a step before marked", () => {
    const problem = { step: 1, stepName: "EditValues WEEKS_TO_DATE", message: "bad" };
    expect(mapRow({ ...row({}), problem }, options, place)).toEqual({ ok: false, row: 7, problem });
  });
  it("needs invoice and consignment numbers mapped, each field once", () => {
    expect(mapFieldsOptions.safeParse({ mappings: [{ field: "invoice_number", column: "A" }] }).success).toBe(false);
    expect(mapFieldsOptions.safeParse({ mappings: [{ field: "invoice_number", column: "A" }, { field: "consignment_number", column: "B" }, { field: "consignment_number", column: "C" }] }).success).toBe(false);
  });
});

describe("a whole template", () => {
  it("keeps MapFields last at 999999, drops _destroy steps, and streams a file to lines", async () => {
    const config = configInput.parse({
      name: "T",
      carrier_id: 1,
      parser: { format: "CSV" },
      transformations: [
        { type: "MapFields", options: { mappings: [{ field: "invoice_number", column: "Inv" }, { field: "consignment_number", column: "Con" }], costs: [{ category: "freight_charge", column: "Amt" }] } },
        { type: "NameColumns", sequence: 1, options: { action: "ROW_INDEX", row: 1 } },
        { type: "DeleteRows", sequence: 2, options: { action: "COLUMN_MATCH", column: "Con", pattern: "^total" } },
        { type: "GroupBy", sequence: 3, options: { action: "SUM", by: ["Inv", "Con"], columns: ["Amt"] } },
        { type: "JoinRows", sequence: 4, _destroy: "1", options: {} },
      ],
    });
    expect(config.transformations.map((t) => [t.type, t.sequence])).toEqual([
      ["NameColumns", 1],
      ["DeleteRows", 2],
      ["GroupBy", 3],
      ["MapFields", 999999],
    ]);
    const rows = grid([["Inv", "Con", "Amt"], ["I1", "C1", "1"], ["I1", "C1", "2"], ["I1", "C2", "3"], ["", "Total", "6"]]);
    const { results, taps } = runTemplate(from(rows), config.transformations, { taps: { rowNumbers: [], limit: 10 } });
    const out = await all(results);
    expect(out.map((m) => (m.ok ? [m.line.detail.consignment_number, m.line.costs[0]!.amount] : m))).toEqual([
      ["C1", 3],
      ["C2", 3],
    ]);
    expect(taps.map((t) => [t.step, t.rows.length])).toEqual([
      [0, 5],
      [1, 4],
      [2, 3],
      [3, 2],
    ]);
  });
  it("names the step and option that is wrong", () => {
    const r = configInput.safeParse({ name: "T", carrier_id: 1, parser: { format: "CSV" }, transformations: [{ type: "EditValues", options: { action: "STRIP" } }] });
    expect(r.success).toBe(false);
    const paths = r.success ? [] : r.error.issues.map((i) => i.path.join("."));
    expect(paths).toContain("transformations.0.options.column");
    expect(paths).toContain("transformations");
  });
});
