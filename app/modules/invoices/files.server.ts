/**
 * Carrier invoice files as uploaded (docs/decisions/019): kept under INVOICE_FILES_DIR (default
 * <os tmpdir>/freightdesk-invoice-files, shared by the web process and the worker as bulk uploads
 * are) under a random name, so that GET /api/invoices/{id}/original_file gives the file back.
 * A file whose import failed is removed; one that made invoices stays with them.
 */
import { randomUUID } from "node:crypto";
import { mkdir, readdir, readFile, stat, unlink, writeFile } from "node:fs/promises";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { invoices } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { canReadCarrierFile, FINANCE_ACCESS_MESSAGES } from "./access";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppError, notFound } from "../../utils/errors";
import { MAX_UPLOAD_BYTES } from "../../utils/upload-limits";
import type { ParserFormat } from "./templates/schema";
import { INVALID_FILE_FORMAT } from "./templates/readers.server";

export const invoiceFilesDir = () => process.env.INVOICE_FILES_DIR || join(tmpdir(), "freightdesk-invoice-files");

const EXTENSIONS: Record<ParserFormat, string> = { CSV: ".csv", XLSX: ".xlsx", XLS: ".xls" };
export const CONTENT_TYPES: Record<ParserFormat, string> = {
  CSV: "text/csv",
  XLSX: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  XLS: "application/vnd.ms-excel",
};
export const CHOOSE_FILE = "Choose a file.";
export const INVOICE_FILE_TOO_LARGE = "The file is larger than 10 MB.";

/** A stored name is ours (uuid and extension): nothing else is ever opened from the directory. */
export function storedPath(name: string): string {
  if (!/^[0-9a-f-]{36}\.(csv|xlsx|xls)$/.test(name)) throw new Error("Not a stored invoice file");
  return join(invoiceFilesDir(), name);
}

/** Refuses an upload that is missing, empty, too large or named for another format than the template's. */
export function checkUpload(file: FormDataEntryValue | null, format: ParserFormat, field = "file"): File {
  return checkUploadOf(file, [format], field).file;
}

/** The format (of a template's formats) a file's name gives: .csv, .xlsx, .xls; null for none of them. */
export const formatOfName = (name: string, formats: readonly ParserFormat[]): ParserFormat | null => formats.find((f) => name.toLowerCase().endsWith(EXTENSIONS[f])) ?? null;

/** checkUpload for a template of several formats (issue 29 item 6): answers the file and the format its name gives. */
export function checkUploadOf(file: FormDataEntryValue | null, formats: readonly ParserFormat[], field = "file"): { file: File; format: ParserFormat } {
  if (!(file instanceof File) || file.name === "") throw new AppError("invalid", CHOOSE_FILE, { [field]: [CHOOSE_FILE] });
  if (file.size === 0) throw new AppError("invalid", "The file is empty.", { [field]: ["The file is empty."] });
  if (file.size > MAX_UPLOAD_BYTES) throw new AppError("invalid", INVOICE_FILE_TOO_LARGE, { [field]: [INVOICE_FILE_TOO_LARGE] });
  const format = formatOfName(file.name, formats);
  if (!format) throw new AppError("invalid", INVALID_FILE_FORMAT, { [field]: [INVALID_FILE_FORMAT] });
  return { file, format };
}

/** Writes an upload under a new name; answers the name (kept on the invoice) and its path. */
export async function storeInvoiceFile(file: File, format: ParserFormat): Promise<{ name: string; path: string }> {
  await mkdir(invoiceFilesDir(), { recursive: true });
  const name = `${randomUUID()}${EXTENSIONS[format]}`;
  const path = storedPath(name);
  await writeFile(path, Buffer.from(await file.arrayBuffer()));
  return { name, path };
}

/**
 * The template editor's test-run sample (docs/decisions/019 "Template screens"): kept under
 * <invoice files>/samples with a random name, the token the editor's form carries so a second
 * run needs no new upload; samples older than an hour are removed whenever one is stored.
 */
const SAMPLE_TTL_MS = 60 * 60 * 1000;
const samplesDir = () => join(invoiceFilesDir(), "samples");

export async function storeSample(file: File, format: ParserFormat): Promise<string> {
  await mkdir(samplesDir(), { recursive: true });
  const now = Date.now();
  for (const old of await readdir(samplesDir()).catch(() => [] as string[])) {
    const path = join(samplesDir(), old);
    const info = await stat(path).catch(() => null);
    if (info && now - info.mtimeMs > SAMPLE_TTL_MS) await unlink(path).catch(() => {});
  }
  const name = `${randomUUID()}${EXTENSIONS[format]}`;
  await writeFile(join(samplesDir(), name), Buffer.from(await file.arrayBuffer()));
  return name;
}

/** A sample's path when `token` is one of ours, for this format, and still kept; else null. */
export async function samplePath(token: string, format: ParserFormat): Promise<string | null> {
  if (!/^[0-9a-f-]{36}\.(csv|xlsx|xls)$/.test(token) || !token.endsWith(EXTENSIONS[format])) return null;
  const path = join(samplesDir(), token);
  return (await stat(path).catch(() => null)) ? path : null;
}

export async function removeInvoiceFile(name: string): Promise<void> {
  await unlink(storedPath(name)).catch(() => {});
}

/**
 * GET /api/invoices/{id}/original_file: the file a carrier invoice came from, for staff only: one
 * carrier file holds every customer's lines (canReadCarrierFile, decision 022). A customer's user
 * is refused alike whether or not the invoice exists or holds their lines, so nothing is learnt.
 */
export async function originalFile(db: DbOrTx, user: CurrentUser, id: number): Promise<Response> {
  if (!canReadCarrierFile(user)) throw new AppError("forbidden", FINANCE_ACCESS_MESSAGES.carrierFileStaffOnly);
  const [row] = await db
    .select({ name: invoices.originalFileName, path: invoices.originalFilePath, type: invoices.originalFileType })
    .from(invoices)
    .where(eq(invoices.id, id));
  if (!row?.path) throw notFound("Invoice file");
  const body = await readFile(storedPath(row.path)).catch(() => null);
  if (!body) throw notFound("Invoice file");
  const type = CONTENT_TYPES[(row.type ?? "CSV") as ParserFormat] ?? "application/octet-stream";
  const filename = (row.name ?? row.path).replace(/["\\\r\n]/g, "_");
  return new Response(body, { headers: { "content-type": type, "content-disposition": `attachment; filename="${filename}"` } });
}
