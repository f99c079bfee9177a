/**
 * Where export files live and how they are written. Files go to EXPORTS_DIR (default
 * <os tmpdir>/freightdesk-exports), named by a random id so no one guesses another's; the
 * maintenance cleanup removes those older than KEEP_DAYS. Both writers stream: a row is written
 * (and, for XLSX, committed) as it comes and waits while the file is slow, so memory stays flat.
 */
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdir, readdir, stat, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { finished } from "node:stream/promises";
import { format as csvFormat } from "@fast-csv/format";
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
      },
      async close() {
        sheet.commit();
        await workbook.commit();
      },
    };
  }
  const file = createWriteStream(path);
  // a byte-order mark so spreadsheets read names outside ASCII as UTF-8
  const csv = csvFormat<Cell[], Cell[]>({ writeBOM: true });
  csv.pipe(file);
  // written as a row: fast-csv's own headers wait for a first row, so an empty export had none
  csv.write(headers);
  return {
    async write(row) {
      if (!csv.write(row)) await once(csv, "drain");
    },
    async close() {
      csv.end();
      await finished(file);
    },
  };
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
