import { writeToString } from "@fast-csv/format";
import { parseString } from "@fast-csv/parse";
import { AppError } from "./errors";
import { readForm } from "./http.server";
import { csvTextProblem } from "./csv-text";

import { FILE_TOO_LARGE, MAX_UPLOAD_BYTES } from "./upload-limits";

export { MAX_UPLOAD_BYTES };
export { csvTextProblem };

export interface CsvRow {
  /** 1-based line number in the file (the header is line 1) */
  line: number;
  values: Record<string, string>;
}

/**
 * Parses CSV text with a header row into rows keyed by lower-cased, trimmed header names.
 * Blank lines are skipped; line numbers are kept for error reports. A file that is not CSV text
 * (binary, a NUL character, an unclosed quote, a line with more fields than the header)
 * is refused whole with a 422 naming the line, before any import stores a thing of it.
 */
export async function parseCsv(text: string): Promise<{ headers: string[]; rows: CsvRow[] }> {
  const body = text.replace(/^\uFEFF/, "");
  const problem = csvTextProblem(body);
  if (problem) throw csvError(problem);
  return new Promise((resolve, reject) => {
    const rows: CsvRow[] = [];
    let headers: string[] = [];
    let line = 1;
    let failed = false;
    const fail = (message: string) => {
      if (!failed) reject(csvError(message));
      failed = true;
    };
    parseString(body, {
      headers: (h) => {
        headers = h.map((x) => (x ?? "").trim().toLowerCase());
        return headers;
      },
      ignoreEmpty: true,
      trim: true,
      // a row whose field count differs from the header's comes to data-invalid, not an error
      strictColumnHandling: true,
    })
      .on("error", (e: Error) => fail(e.message.startsWith("Duplicate headers") ? `The header names a column twice: ${e.message.replace(/^Duplicate headers found /, "")}` : `The file is not valid CSV: ${e.message}`))
      .on("data", (values: Record<string, string>) => {
        line += 1;
        rows.push({ line, values });
      })
      .on("data-invalid", (row: unknown) => {
        line += 1;
        const fields = Array.isArray(row) ? (row as unknown[]) : [];
        if (fields.length > headers.length) return fail(`Line ${line} has ${fields.length} fields; the header has ${headers.length}.`);
        // a short line (trailing empty cells left out) reads as blanks, as before
        rows.push({ line, values: Object.fromEntries(headers.map((h, i) => [h, String(fields[i] ?? "").trim()])) });
      })
      .on("end", () => {
        if (!failed) resolve({ headers, rows });
      });
  });
}

const csvError = (message: string) => new AppError("invalid", message, { file: [message] });

/** A cell that a spreadsheet would run as a formula gets a leading apostrophe. */
export function neutraliseFormula(value: unknown): string {
  const text = value == null ? "" : String(value);
  return /^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
}

/** CSV text of rows under the given headers, with formulas neutralised. */
export function toCsv(headers: string[], rows: Array<Record<string, unknown>>): Promise<string> {
  return writeToString(
    rows.map((r) => headers.map((h) => neutraliseFormula(r[h]))),
    { headers, writeHeaders: true },
  ).then((s) => `${s}\n`);
}

/**
 * Reads an uploaded CSV: a multipart `file` field (other fields come back in `fields`) or a
 * text/csv body (fields from the query string); refuses other types and files over 10 MB.
 */
export async function readCsvUpload(request: Request): Promise<{ text: string; filename: string | null; fields: Record<string, string> }> {
  const fields = Object.fromEntries(new URL(request.url).searchParams);
  const type = request.headers.get("content-type") ?? "";
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > MAX_UPLOAD_BYTES) throw new AppError("invalid", FILE_TOO_LARGE, { file: [FILE_TOO_LARGE] });
  if (type.includes("multipart/form-data")) {
    const form = await readForm(request);
    for (const [k, v] of form) if (typeof v === "string") fields[k] = v;
    const file = form.get("file");
    if (!(file instanceof File) || file.size === 0) throw new AppError("invalid", "Choose a file to import.", { file: ["Choose a file to import."] });
    if (!/\.csv$/i.test(file.name)) throw new AppError("invalid", "Only csv files can be imported.", { file: ["Only csv files can be imported."] });
    if (file.size > MAX_UPLOAD_BYTES) throw new AppError("invalid", FILE_TOO_LARGE, { file: [FILE_TOO_LARGE] });
    return { text: await file.text(), filename: file.name, fields };
  }
  if (type.includes("text/csv") || type.includes("text/plain")) {
    const text = await request.text();
    if (text.length > MAX_UPLOAD_BYTES) throw new AppError("invalid", FILE_TOO_LARGE, { file: [FILE_TOO_LARGE] });
    return { text, filename: fields.filename ?? null, fields };
  }
  throw new AppError("invalid", "Only csv files can be imported.", { file: ["Only csv files can be imported."] });
}
