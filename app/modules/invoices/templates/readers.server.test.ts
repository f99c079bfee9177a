import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import * as XLSX from "@e965/xlsx";
import { beforeAll, describe, expect, it } from "vitest";
import { FileReadError, readRows } from "./readers.server";
import type { Row } from "./rows";

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "invoice-readers-"));
});
const all = async (rows: AsyncIterable<Row>) => {
  const out: Row[] = [];
  for await (const r of rows) out.push(r);
  return out;
};
const refused = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(FileReadError);
    return (e as Error).message;
  }
  return "read";
};

describe("readRows", () => {
  it("reads CSV rows by column letter, skipping blank lines but keeping row numbers", async () => {
    const path = join(dir, "a.csv");
    await writeFile(path, '\uFEFFCon,Amount\n\nCN1,"$1,000.00"\n,,\nCN2,=1+1\n');
    const rows = await all(await readRows(path, "CSV"));
    expect(rows).toEqual([
      { row: 1, values: { A: "Con", B: "Amount" } },
      { row: 3, values: { A: "CN1", B: "$1,000.00" } },
      { row: 5, values: { A: "CN2", B: "=1+1" } },
    ]);
  });

  it("reads XLSX sheets by name, a formula's cached result and a date as YYYY-MM-DD", async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet("Cover").addRow(["ignore me"]);
    const ws = wb.addWorksheet("Charges");
    ws.addRow(["Con", "Date", "Amount"]);
    ws.addRow(["CN1", new Date(Date.UTC(2026, 1, 3)), { formula: "2*5", result: 10 }]);
    const path = join(dir, "a.xlsx");
    await wb.xlsx.writeFile(path);
    const rows = await all(await readRows(path, "XLSX", ["charges"]));
    expect(rows).toEqual([
      { row: 1, sheet: "Charges", values: { A: "Con", B: "Date", C: "Amount" } },
      { row: 2, sheet: "Charges", values: { A: "CN1", B: "2026-02-03", C: "10" } },
    ]);
    expect(await refused(all(await readRows(path, "XLSX", ["Nope"])))).toBe("The file has no sheet named Nope.");
  });

  it("reads legacy XLS", async () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([["Con", "Amount"], [], ["CN1", 12.5]]), "Inv");
    const path = join(dir, "a.xls");
    await writeFile(path, XLSX.write(wb, { type: "buffer", bookType: "biff8" }) as Buffer);
    const rows = await all(await readRows(path, "XLS"));
    expect(rows).toEqual([
      { row: 1, sheet: "Inv", values: { A: "Con", B: "Amount" } },
      { row: 3, sheet: "Inv", values: { A: "CN1", B: "12.5" } },
    ]);
  });

  it("refuses a file whose bytes do not fit its format, and an empty file", async () => {
    const csv = join(dir, "b.csv");
    await writeFile(csv, "a,b\n");
    const empty = join(dir, "empty.csv");
    await writeFile(empty, "");
    const xlsx = join(dir, "a.xlsx");
    expect(await refused(readRows(csv, "XLSX"))).toBe("Invalid file format");
    expect(await refused(readRows(csv, "XLS"))).toBe("Invalid file format");
    expect(await refused(readRows(xlsx, "CSV"))).toBe("Invalid file format");
    expect(await refused(readRows(empty, "CSV"))).toBe("The file is empty.");
  });

  it("reads an XLSX written with its sheet before xl/workbook.xml, every time (exceljs issue 3064)", async () => {
    // SheetJS stores the sheet ahead of the workbook part: exceljs's one-pass reader lost the
    // workbook about 4 reads in 10 and the file was refused as 'Invalid file format'
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([["Con", "Amount"], ["CN1", 12.5], ["CN2", 7]]), "Charges");
    const path = join(dir, "sheetjs.xlsx");
    await writeFile(path, XLSX.write(book, { type: "buffer", bookType: "xlsx" }) as Buffer);
    for (let i = 0; i < 25; i++) {
      const rows = await all(await readRows(path, "XLSX", ["Charges"]));
      expect(rows.map((r) => r.values)).toEqual([{ A: "Con", B: "Amount" }, { A: "CN1", B: "12.5" }, { A: "CN2", B: "7" }]);
    }
  });
});
