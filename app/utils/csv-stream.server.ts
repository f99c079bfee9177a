import { pipeline, Readable } from "node:stream";
import { parse } from "@fast-csv/parse";
import { AppError } from "./errors";
import { CsvTextCheck } from "./csv-text";
import type { CsvRow } from "./csv.server";

const csvError = (message: string) => new AppError("invalid", message, { file: [message] });

/** fast-csv's refusal of a header naming a column twice, in its words (parseCsv answers the same). */
function duplicateHeaders(headers: string[]): string | null {
  const named = headers.filter(Boolean);
  if (new Set(named).size === named.length) return null;
  const seen = named.reduce<Record<string, number>>((acc, h) => ({ ...acc, [h]: (acc[h] ?? 0) + 1 }), {});
  return `The header names a column twice: ${JSON.stringify(Object.keys(seen).filter((h) => seen[h]! > 1))}`;
}

/**
 * The records of CSV text read piece by piece (a file streamed from disk), read as parseCsv reads
 * a whole text: the header's names trimmed and lower-cased (given to `onHeaders` first), blank
 * lines skipped, cells trimmed, a short line read as blanks, line numbers kept. The parser is
 * pulled as the caller reads, so no more than a few pieces are held at once. A problem (not CSV
 * text, a line with more fields than the header, a record over `maxRecordChars`) is thrown as a
 * 422 naming it when the reading reaches it: a caller that must refuse a file whole reads it
 * through once before acting on it.
 */
export async function* csvRecords(pieces: AsyncIterable<string>, onHeaders: (headers: string[]) => void, maxRecordChars = Infinity): AsyncGenerator<CsvRow> {
  const check = new CsvTextCheck(maxRecordChars);
  async function* checked() {
    let first = true;
    for await (const piece of pieces) {
      const text = first ? piece.replace(/^\uFEFF/, "") : piece;
      first = false;
      const problem = check.feed(text);
      if (problem) throw csvError(problem);
      if (text) yield text;
    }
    const problem = check.end();
    if (problem) throw csvError(problem);
  }
  const parser = parse({ ignoreEmpty: true, trim: true, headers: false });
  // pipeline, not pipe: a problem thrown while reading ends the parser with it
  pipeline(Readable.from(checked()), parser, () => {});
  let headers: string[] | null = null;
  let line = 1;
  try {
    for await (const fields of parser as AsyncIterable<string[]>) {
      if (!headers) {
        headers = fields.map((h) => (h ?? "").trim().toLowerCase());
        const twice = duplicateHeaders(headers);
        if (twice) throw csvError(twice);
        onHeaders(headers);
        continue;
      }
      line += 1;
      if (fields.length > headers.length) throw csvError(`Line ${line} has ${fields.length} fields; the header has ${headers.length}.`);
      yield { line, values: Object.fromEntries(headers.map((h, i) => [h, String(fields[i] ?? "").trim()])) };
    }
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw csvError(`The file is not valid CSV: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    parser.destroy();
  }
}
