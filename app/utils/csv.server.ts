import { writeToString } from "@fast-csv/format";
import { parseString } from "@fast-csv/parse";
import { AppError } from "./errors";

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

export interface CsvRow {
  /** 1-based line number in the file (the header is line 1) */
  line: number;
  values: Record<string, string>;
}

/**
 * Parses CSV text with a header row into rows keyed by lower-cased, trimmed header names.
 * Blank lines are skipped; line numbers are kept for error reports.
 */
export function parseCsv(text: string): Promise<{ headers: string[]; rows: CsvRow[] }> {
  return new Promise((resolve, reject) => {
    const rows: CsvRow[] = [];
    let headers: string[] = [];
    let line = 1;
    parseString(text.replace(/^\uFEFF/, ""), {
      headers: (h) => {
        headers = h.map((x) => (x ?? "").trim().toLowerCase());
        return headers;
      },
      ignoreEmpty: true,
      trim: true,
    })
      .on("error", reject)
      .on("data", (values: Record<string, string>) => {
        line += 1;
        rows.push({ line, values });
      })
      .on("end", () => resolve({ headers, rows }));
  });
}

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
  if (length > MAX_UPLOAD_BYTES) throw new AppError("invalid", "The file is larger than 10 MB.", { file: ["The file is larger than 10 MB."] });
  if (type.includes("multipart/form-data")) {
    const form = await request.formData();
    for (const [k, v] of form) if (typeof v === "string") fields[k] = v;
    const file = form.get("file");
    if (!(file instanceof File) || file.size === 0) throw new AppError("invalid", "Choose a file to import.", { file: ["Choose a file to import."] });
    if (!/\.csv$/i.test(file.name)) throw new AppError("invalid", "Only csv files can be imported.", { file: ["Only csv files can be imported."] });
    if (file.size > MAX_UPLOAD_BYTES) throw new AppError("invalid", "The file is larger than 10 MB.", { file: ["The file is larger than 10 MB."] });
    return { text: await file.text(), filename: file.name, fields };
  }
  if (type.includes("text/csv") || type.includes("text/plain")) {
    const text = await request.text();
    if (text.length > MAX_UPLOAD_BYTES) throw new AppError("invalid", "The file is larger than 10 MB.", { file: ["The file is larger than 10 MB."] });
    return { text, filename: fields.filename ?? null, fields };
  }
  throw new AppError("invalid", "Only csv files can be imported.", { file: ["Only csv files can be imported."] });
}
