/**
 * exceljs's streaming WorkbookReader reads the zip in one forward pass (unzipper.Parse), and on
 * Node 18+ that pass sometimes loses an entry: a worksheet is then read before xl/workbook.xml and
 * the read throws "Cannot read properties of undefined (reading 'sheets')" (exceljs issue 3064).
 * A good file was refused at random: about 4 reads in 10 of a SheetJS-written XLSX here. This
 * reader keeps exceljs's parsing but opens the zip by its central directory and reads the parts
 * the sheets depend on (relationships, workbook, shared strings, styles) before any sheet; each
 * sheet is still streamed row by row, so memory stays flat however long the file.
 */
import type { Readable } from "node:stream";
import ExcelJS from "exceljs";
import unzipper from "unzipper";

type ParseEvent = { eventType: string; value: unknown };
/** The parts of exceljs's WorkbookReader this reader drives (present in exceljs 4.x). */
type ReaderInternals = {
  parse: () => AsyncGenerator<ParseEvent>;
  _parseRels: (entry: Readable) => Promise<void>;
  _parseWorkbook: (entry: Readable) => Promise<void>;
  _parseSharedStrings: (entry: Readable) => AsyncGenerator<ParseEvent>;
  _parseStyles: (entry: Readable) => Promise<void>;
  _parseWorksheet: (iterator: AsyncIterable<unknown>, sheetNo: string) => Generator<ParseEvent>;
};

const SHEET = /^xl\/worksheets\/sheet(\d+)\.xml$/;

/** A WorkbookReader over the XLSX at `path`: iterate it for its worksheets, in sheet order. */
export function openXlsxWorkbook(path: string, options: Partial<ExcelJS.stream.xlsx.WorkbookStreamReaderOptions>): ExcelJS.stream.xlsx.WorkbookReader {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, options);
  const self = reader as unknown as ReaderInternals;
  self.parse = async function* parse() {
    const directory = await unzipper.Open.file(path);
    const byPath = new Map(directory.files.map((f) => [f.path.replace(/^\//, ""), f]));
    const open = (name: string) => byPath.get(name)?.stream();
    const rels = open("xl/_rels/workbook.xml.rels");
    if (rels) await self._parseRels(rels);
    const workbook = open("xl/workbook.xml");
    if (!workbook) throw new Error("xl/workbook.xml is missing");
    await self._parseWorkbook(workbook);
    const strings = open("xl/sharedStrings.xml");
    if (strings) yield* self._parseSharedStrings(strings);
    const styles = open("xl/styles.xml");
    if (styles) await self._parseStyles(styles);
    const sheets = [...byPath.keys()]
      .map((name) => ({ name, no: SHEET.exec(name)?.[1] }))
      .filter((s): s is { name: string; no: string } => !!s.no)
      .sort((a, b) => Number(a.no) - Number(b.no));
    for (const sheet of sheets) yield* self._parseWorksheet(byPath.get(sheet.name)!.stream(), sheet.no);
  };
  return reader;
}
