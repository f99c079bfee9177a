/**
 * Reading a carrier's file as rows for a template (docs/decisions/019 "Templates"), streaming:
 * CSV through @fast-csv/parse in this process; XLSX (exceljs's streaming WorkbookReader) and legacy
 * XLS (@e965/xlsx, SheetJS; DESIGN says never to parse CSV or XLSX with it) in a worker thread
 * with a heap of its own, with the zip's inflation bounded (sheet-reader.server.ts,
 * docs/decisions/024). A formula cell gives the value the spreadsheet last calculated, never
 * evaluated here; a date cell gives YYYY-MM-DD. Blank rows are skipped with their numbers kept.
 * The file's first bytes must fit its format, else 'Invalid file format'. A cell is capped at
 * 32,767 characters (Excel's own limit) and a CSV line at MAX_CSV_LINE_CHARS.
 */
import { createReadStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import { csvLineCount } from "./row-count.server";
import { parse as parseCsvStream } from "@fast-csv/parse";
import { EMPTY_FILE, FileReadError, INVALID_FILE_FORMAT, longCell, MAX_CELL_CHARS } from "./read-errors";
import { rowOf, type Rows } from "./rows";
import type { ParserFormat } from "./schema";
import { sheetRows } from "./sheet-reader.server";

export { EMPTY_FILE, FAILED_TO_READ, FileReadError, INVALID_FILE_FORMAT, TOO_LARGE_UNPACKED } from "./read-errors";
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
  return sheetRows(path, format, sheets, meter);
}

/**
 * A CSV line (a record, its quoted line breaks included) past this is refused: fast-csv parses the
 * open line again with every 64 KB chunk, so one 9 MB cell took 30.8 s of a web process.
 */
export const MAX_CSV_LINE_CHARS = 128 * 1024;
export const longLine = (n: number) => `Line ${n} is longer than ${MAX_CSV_LINE_CHARS.toLocaleString("en")} characters.`;

/** The parts of fast-csv's CsvParserStream (5.x) the line cap reads. */
type CsvParserInternals = { lines: string; parsedRowCount: number; parse: (data: string, hasMoreData: boolean) => unknown[] };

async function* csvRows(path: string, tick: () => void): Rows {
  const parser = parseCsvStream({ ignoreEmpty: false, trim: false, discardUnmappedColumns: false });
  const inner = parser as unknown as CsvParserInternals;
  const parse = inner.parse.bind(parser);
  // after each chunk, the text of the line still open must stay under the cap
  inner.parse = (data, hasMoreData) => {
    const rows = parse(data, hasMoreData);
    if (hasMoreData && inner.lines.length > MAX_CSV_LINE_CHARS) throw new FileReadError(longLine(inner.parsedRowCount + rows.length + 1));
    return rows;
  };
  const records = createReadStream(path).pipe(parser) as AsyncIterable<string[]>;
  let n = 0;
  try {
    for await (const cells of records) {
      n += 1;
      tick();
      if (n === 1 && cells[0]) cells[0] = cells[0].replace(/^\uFEFF/, "");
      for (const c of cells) if (c.length > MAX_CELL_CHARS) throw new FileReadError(longCell(`line ${n}`));
      const r = rowOf(n, cells);
      if (r) yield r;
    }
  } catch (e) {
    if (e instanceof FileReadError) throw e;
    throw new FileReadError(INVALID_FILE_FORMAT);
  }
}
