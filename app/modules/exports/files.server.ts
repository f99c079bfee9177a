/**
 * How export files are written: into the file store (docs/decisions/030) as they are made, never
 * onto a disk, so a worker on one host writes what a web process on another serves. A file
 * expires KEEP_DAYS after it is made and the nightly cleanup removes it (removeExpiredFiles).
 * Both writers stream: a row is written (CSV: into a 64 KB chunk; XLSX: committed) as it comes,
 * through a stream the store reads a chunk at a time, so memory stays flat on both sides.
 */
import { once } from "node:events";
import { PassThrough, type Writable } from "node:stream";
import type { DbOrTx } from "../../../db/client.server";
import { putFile, type StoredFile } from "../files/index.server";
import type { Cell } from "./columns";
import type { ExportFormat } from "./criteria";

/** How long a finished export can be downloaded. */
export const KEEP_DAYS = 2;

export const CONTENT_TYPES = { csv: "text/csv; charset=utf-8", xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" } as const;

/** When an export made at `now` expires. */
export const exportExpiry = (now: Date) => new Date(now.getTime() + KEEP_DAYS * 86_400_000);

export interface RowWriter {
  write(row: Cell[]): Promise<void>;
}

interface Writer extends RowWriter {
  close(): Promise<void>;
}

export interface ExportFile {
  format: ExportFormat;
  /** the stored file's name, the download's */
  name: string;
  /** the owner's scope; null for a staff-only export (invoices) */
  customerId: number | null;
}

/**
 * Stores an export while `fill` writes its rows: they pass through a stream the store reads as
 * they come. A failing `fill` leaves no file (the store removes what it had written); given a
 * transaction, the file is part of it.
 */
export async function writeExportFile(db: DbOrTx, meta: ExportFile, headers: string[], fill: (writer: RowWriter) => Promise<void>): Promise<StoredFile> {
  const out = new PassThrough();
  const stored = putFile(db, { kind: "export", name: meta.name, contentType: CONTENT_TYPES[meta.format], customerId: meta.customerId, expiresAt: exportExpiry(new Date()) }, out);
  // the store failing (the database gone) ends the stream, and with it the writer's next wait
  stored.catch((e: unknown) => out.destroy(e instanceof Error ? e : new Error(String(e))));
  try {
    const writer = await formatWriter(meta.format, out, headers);
    await fill(writer);
    await writer.close();
  } catch (error) {
    out.destroy(error instanceof Error ? error : new Error(String(error)));
    await stored.catch(() => {});
    throw error;
  }
  return stored;
}

/**
 * The rows of one format written into `out`, each write waiting while `out` is not being read.
 * exceljs is loaded when an XLSX is first asked for: it took 300 ms of the export thread's start,
 * which every CSV export paid for nothing.
 */
export async function formatWriter(format: ExportFormat, out: PassThrough, headers: string[]): Promise<Writer> {
  if (format === "csv") return csvWriter(out, headers);
  const { default: ExcelJS } = await import("exceljs");
  return xlsxWriter(ExcelJS, out, headers);
}

const closedEarly = (out: Writable) => out.errored ?? new Error("The export's file was closed before it was written.");

/** Settles when `out` has closed before its end was written (the store failed): never otherwise. */
function brokenOff(out: Writable): Promise<never> {
  const broken = new Promise<never>((_, reject) => out.once("close", () => out.writableFinished || reject(closedEarly(out))));
  broken.catch(() => {});
  return broken;
}

/** A writable as Node's streams and readable-stream 2 both have it. */
type NeedsDrain = NodeJS.WritableStream & { _writableState?: { needDrain?: boolean } };

function xlsxWriter(ExcelJS: typeof import("exceljs"), out: PassThrough, headers: string[]): Writer {
  const broken = brokenOff(out);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: false });
  const sheet = workbook.addWorksheet("Consignments");
  sheet.addRow(headers).commit();
  return {
    async write(row) {
      if (out.destroyed) throw closedEarly(out);
      sheet.addRow(row).commit();
      // exceljs hands the zip each 64 KB batch without waiting for it (stream-buf.js, batch
      // mode), so rows read faster than deflate writes them piled up in memory: wait for the
      // zip's entry stream to drain before taking more. That stream is archiver's readable-stream
      // 2 PassThrough, which has no writableNeedDrain: its state says (57 MB held for 96,000 rows
      // while this read the missing getter).
      const into = (sheet as unknown as { stream?: { pipes?: NeedsDrain[] } }).stream?.pipes?.[0];
      if (into?._writableState?.needDrain) await Promise.race([once(into, "drain"), broken]);
    },
    async close() {
      sheet.commit();
      await Promise.race([workbook.commit(), broken]);
    },
  };
}

// CSV lines are built here and written a chunk at a time: fast-csv's per-row stream formatted
// about 67,000 rows a second alone on the bench machine, which with the database read left the
// export at 14,000 rows a second against the 50,000 asked for (docs: bench/exports.ts)
function csvWriter(out: PassThrough, headers: string[]): Writer {
  const broken = brokenOff(out);
  let chunk = `\uFEFF${csvLine(headers)}`;
  const flush = async () => {
    if (out.destroyed) throw closedEarly(out);
    const room = out.write(chunk);
    chunk = "";
    if (!room) await Promise.race([once(out, "drain"), broken]);
  };
  return {
    async write(row) {
      chunk += csvLine(row);
      if (chunk.length >= CHUNK) await flush();
    },
    async close() {
      if (out.destroyed) throw closedEarly(out);
      out.end(chunk);
    },
  };
}

/** Characters that make RFC 4180 quote a field. */
const QUOTED = /[",\r\n]/;
const CHUNK = 64 * 1024;

/** One CSV line (RFC 4180, CRLF): numbers as they are, text quoted when it holds a quote, comma or line break. */
export function csvLine(cells: readonly Cell[] | readonly string[]): string {
  let line = "";
  for (let i = 0; i < cells.length; i++) {
    const v = cells[i];
    if (i > 0) line += ",";
    if (v == null) continue;
    if (typeof v === "number") line += String(v);
    else line += QUOTED.test(v) ? `"${v.replaceAll('"', '""')}"` : v;
  }
  return `${line}\r\n`;
}
