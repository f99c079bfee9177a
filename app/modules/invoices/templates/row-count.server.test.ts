import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import { INVALID_FILE_FORMAT, readRows, type ReadMeter } from "./readers.server";
import { csvLineCount } from "./row-count.server";

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "invoice-row-count-"));
});

/** The meter's fraction after every row read. */
async function fractions(path: string, format: "CSV" | "XLSX", sheets: string[] = []) {
  const meter: ReadMeter = { fraction: 0 };
  const seen: number[] = [];
  for await (const _ of await readRows(path, format, sheets, meter)) seen.push(meter.fraction);
  return seen;
}

/** The rows counted before an XLSX is read (by the spreadsheet worker). */
async function counted(path: string) {
  const meter: ReadMeter = { fraction: 0 };
  for await (const _ of await readRows(path, "XLSX", [], meter));
  return meter.rows;
}

describe("row counts for progress within a file", () => {
  it("counts a CSV's lines with or without a last line break", async () => {
    await writeFile(join(dir, "a.csv"), "h\n1\n2\n");
    await writeFile(join(dir, "b.csv"), "h\n1\n2");
    expect(await csvLineCount(join(dir, "a.csv"))).toBe(3);
    expect(await csvLineCount(join(dir, "b.csv"))).toBe(3);
    expect(await fractions(join(dir, "a.csv"), "CSV")).toEqual([1 / 3, 2 / 3, 1]);
  });

  it("counts the rows of every worksheet of an XLSX, written in memory or streamed, and the meter follows the rows read", async () => {
    const book = new ExcelJS.Workbook();
    const one = book.addWorksheet("One");
    for (let i = 0; i < 300; i++) one.addRow([`r${i}`, i]);
    book.addWorksheet("Two").addRow(["x"]);
    await book.xlsx.writeFile(join(dir, "a.xlsx"));
    expect(await counted(join(dir, "a.xlsx"))).toBe(301);
    const seen = await fractions(join(dir, "a.xlsx"), "XLSX", ["Two"]);
    // the sheet not read is counted through: the one row of Two is the last of 301
    expect(seen).toEqual([1]);
    const all = await fractions(join(dir, "a.xlsx"), "XLSX");
    expect(all[149]).toBeCloseTo(150 / 301);

    const streamed = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: join(dir, "b.xlsx") });
    const s = streamed.addWorksheet("S");
    for (let i = 0; i < 1000; i++) s.addRow([i]).commit();
    s.commit();
    await streamed.commit();
    expect(await counted(join(dir, "b.xlsx"))).toBe(1000);
  });

  it("refuses a file that starts as a zip but is none as an invalid format", async () => {
    await writeFile(join(dir, "c.xlsx"), "PK\u0003\u0004 not really");
    await expect(counted(join(dir, "c.xlsx"))).rejects.toThrow(INVALID_FILE_FORMAT);
  });
});
