/**
 * Reading a carrier's file as rows for a template (docs/decisions/019 "Templates"), streaming:
 * CSV through @fast-csv/parse, XLSX through exceljs's streaming WorkbookReader, and legacy XLS
 * through @e965/xlsx (SheetJS; it reads the whole file, which the size limit keeps small; DESIGN
 * says never to parse CSV or XLSX with it). A formula cell gives the value the spreadsheet last
 * calculated, never evaluated here; a date cell gives YYYY-MM-DD. Blank rows are skipped with
 * their numbers kept. The file's first bytes must fit its format, else 'Invalid file format'.
 */
import { createReadStream } from "node:fs";
import { open, readFile, stat } from "node:fs/promises";
import { csvLineCount, xlsxRowCount } from "./row-count.server";
import { parse as parseCsvStream } from "@fast-csv/parse";
import type ExcelJS from "exceljs";
import * as XLSX from "@e965/xlsx";
import { brandedError } from "../../../utils/errors";
import { rowOf, type Row, type Rows } from "./rows";
import type { ParserFormat } from "./schema";
import { openXlsxWorkbook } from "./xlsx-workbook.server";

export const INVALID_FILE_FORMAT = "Invalid file format";
export const FAILED_TO_READ = "Failed to read in file.";
export const EMPTY_FILE = "The file is empty.";

/** A file that cannot be read as its template says: its message is shown as it is. */
export class FileReadError extends brandedError("FileReadError") {}

/** What a file's first bytes say it is: an XLSX is a zip, an XLS an OLE2 compound document. */
export async function formatProblem(path: string, format: ParserFormat): Promise<string | null> {
  const size = (await stat(path)).size;
  if (size === 0) return EMPTY_FILE;
  const fh = await open(path, "r");
  try {
    const head = Buffer.alloc(Math.min(size, 8192));
    await fh.read(head, 0, head.length, 0);
    const zip = head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    const ole = head.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]));
    if (format === "XLSX") return zip ? null : INVALID_FILE_FORMAT;
    if (format === "XLS") return ole ? null : INVALID_FILE_FORMAT;
    // CSV: text, so no NUL byte and not a spreadsheet in disguise
    return zip || ole || head.includes(0) ? INVALID_FILE_FORMAT : null;
  } finally {
    await fh.close();
  }
}

/** How far a reader is through its file (0 to 1): rows read of the rows counted first (row-count.server.ts). */
export interface ReadMeter {
  fraction: number;
  /** the rows counted first (CSV: physical lines), an upper bound on the lines the file gives; unset when not counted */
  rows?: number;
}

/** Rows read of `total` (0: unknown, the meter stays). */
const rowMeter = (meter: ReadMeter, total: number) => {
  if (total > 0) meter.rows = total;
  let read = 0;
  return () => {
    read += 1;
    if (total > 0) meter.fraction = Math.min(1, read / total);
  };
};

/**
 * The rows of the file at `path`; `sheets` picks worksheets by name (none: every sheet). `meter`,
 * when given, is kept up to date as the file is read (an import's progress within a file; the
 * rows are then counted first).
 */
export async function readRows(path: string, format: ParserFormat, sheets: string[] = [], meter?: ReadMeter): Promise<Rows> {
  const problem = await formatProblem(path, format);
  if (problem) throw new FileReadError(problem);
  const m = meter ?? { fraction: 0 };
  if (format === "CSV") return csvRows(path, rowMeter(m, meter ? await csvLineCount(path) : 0));
  if (format === "XLSX") return xlsxRows(path, sheets, rowMeter(m, meter ? await xlsxRowCount(path) : 0));
  return xlsRows(path, sheets, m);
}

async function* csvRows(path: string, tick: () => void): Rows {
  const records = createReadStream(path).pipe(parseCsvStream({ ignoreEmpty: false, trim: false, discardUnmappedColumns: false })) as AsyncIterable<string[]>;
  let n = 0;
  try {
    for await (const cells of records) {
      n += 1;
      tick();
      if (n === 1 && cells[0]) cells[0] = cells[0].replace(/^\uFEFF/, "");
      const r = rowOf(n, cells);
      if (r) yield r;
    }
  } catch {
    throw new FileReadError(INVALID_FILE_FORMAT);
  }
}

const wantedSheet = (sheets: string[], name: string) => sheets.length === 0 || sheets.some((s) => s.trim().toLowerCase() === name.trim().toLowerCase());

/** An exceljs cell value as text: a formula's cached result, a date's day, rich text's words. */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? "" : v.toISOString().slice(0, 10);
  if (typeof v === "number") return String(Math.round(v * 1e9) / 1e9);
  if (typeof v === "string" || typeof v === "boolean") return String(v);
  if (typeof v === "object") {
    const o = v as Record<string, unknown>;
    if ("result" in o) return cellText(o.result);
    if ("formula" in o || "sharedFormula" in o) return "";
    if (Array.isArray(o.richText)) return (o.richText as { text: string }[]).map((t) => t.text).join("");
    if ("text" in o) return cellText(o.text);
    if ("error" in o) return String(o.error);
  }
  return String(v);
}

async function* xlsxRows(path: string, sheets: string[], tick: () => void): Rows {
  const reader = openXlsxWorkbook(path, { worksheets: "emit", sharedStrings: "cache", styles: "cache", hyperlinks: "ignore", entries: "ignore" });
  let read = false;
  try {
    for await (const ws of reader as unknown as AsyncIterable<AsyncIterable<ExcelJS.Row> & { name: string }>) {
      const name = ws.name;
      if (!wantedSheet(sheets, name)) {
        // the sheet's entry must still be read through for the zip to go on
        for await (const _ of ws) tick();
        continue;
      }
      read = true;
      for await (const row of ws) {
        tick();
        const values = Array.isArray(row.values) ? (row.values as unknown[]).slice(1) : [];
        const r = rowOf(row.number, values.map(cellText), name);
        if (r) yield r;
      }
    }
  } catch (e) {
    if (e instanceof FileReadError) throw e;
    throw new FileReadError(INVALID_FILE_FORMAT);
  }
  if (!read && sheets.length) throw new FileReadError(`The file has no sheet named ${sheets.join(", ")}.`);
}

async function* xlsRows(path: string, sheets: string[], meter: ReadMeter): Rows {
  let book: XLSX.WorkBook;
  try {
    book = XLSX.read(await readFile(path), { type: "buffer", cellDates: true, cellFormula: false, cellHTML: false, dense: true });
  } catch {
    throw new FileReadError(INVALID_FILE_FORMAT);
  }
  const names = book.SheetNames.filter((n) => wantedSheet(sheets, n));
  if (!names.length) throw new FileReadError(sheets.length ? `The file has no sheet named ${sheets.join(", ")}.` : FAILED_TO_READ);
  for (const [s, name] of names.entries()) {
    const sheet = book.Sheets[name]!;
    if (!sheet["!ref"]) continue;
    const range = XLSX.utils.decode_range(sheet["!ref"]);
    const grid = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, blankrows: true, defval: "" });
    for (let i = 0; i < grid.length; i++) {
      meter.fraction = (s + i / grid.length) / names.length;
      const cells = (grid[i] ?? []).map(cellText);
      const r: Row | null = rowOf(range.s.r + i + 1, Array(range.s.c).fill("").concat(cells), name);
      if (r) yield r;
    }
  }
}
