/**
 * Where export files live and how they are written. Files go to EXPORTS_DIR (default
 * <os tmpdir>/freightdesk-exports), named by a random id so no one guesses another's; the
 * maintenance cleanup removes those older than KEEP_DAYS. Both writers stream: a row is written
 * (CSV: into a 64 KB chunk that waits while the file is slow; XLSX: committed) as it comes, so
 * memory stays flat.
 */
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdir, readdir, stat, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { finished } from "node:stream/promises";
import ExcelJS from "exceljs";
import type { Cell } from "./columns";
import type { ExportFormat } from "./criteria";

/** How long a finished export can be downloaded. */
export const KEEP_DAYS = 2;

export const exportsDir = () => process.env.EXPORTS_DIR || join(tmpdir(), "freightdesk-exports");

/** The path of a stored export; only names this module made (uuid.ext) are accepted. */
export function exportPath(file: string): string | null {
  return /^[0-9a-f-]{36}\.(csv|xlsx)$/.test(file) ? join(exportsDir(), file) : null;
}

export interface RowWriter {
  write(row: Cell[]): Promise<void>;
  close(): Promise<void>;
}

export async function openWriter(path: string, format: ExportFormat, headers: string[]): Promise<RowWriter> {
  await mkdir(exportsDir(), { recursive: true });
  if (format === "xlsx") {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: false, useStyles: false });
    const sheet = workbook.addWorksheet("Consignments");
    sheet.addRow(headers).commit();
    return {
      async write(row) {
        sheet.addRow(row).commit();
        // exceljs hands the zip each 64 KB batch without waiting for it (stream-buf.js, batch
        // mode), so rows read faster than deflate writes them piled up in memory: wait for the
        // zip's entry stream to drain before taking more.
        const into = (sheet as unknown as { stream?: { pipes?: NodeJS.WritableStream[] } }).stream?.pipes?.[0] as (NodeJS.WritableStream & { writableNeedDrain?: boolean }) | undefined;
        if (into?.writableNeedDrain) await once(into, "drain");
      },
      async close() {
        sheet.commit();
        await workbook.commit();
      },
    };
  }
  // CSV lines are built here and written a chunk at a time: fast-csv's per-row stream formatted
  // about 67,000 rows a second alone on the bench machine, which with the database read left the
  // export at 14,000 rows a second against the 50,000 asked for (docs: bench/exports.ts)
  const file = createWriteStream(path);
  let chunk = `\uFEFF${csvLine(headers)}`;
  const flush = async () => {
    if (!file.write(chunk)) await once(file, "drain");
    chunk = "";
  };
  return {
    async write(row) {
      chunk += csvLine(row);
      if (chunk.length >= CHUNK) await flush();
    },
    async close() {
      file.end(chunk);
      await finished(file);
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

/** Removes export files older than KEEP_DAYS; answers how many. */
export async function removeOldExports(now: Date): Promise<number> {
  const dir = exportsDir();
  const names = await readdir(dir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const path = exportPath(name);
    if (!path) continue;
    const info = await stat(path).catch(() => null);
    if (info && now.getTime() - info.mtimeMs > KEEP_DAYS * 86_400_000) {
      await unlink(path).catch(() => {});
      removed += 1;
    }
  }
  return removed;
}
