/**
 * Carrier invoice files as uploaded (docs/decisions/019, 030): kept in the file store (the
 * database by default), the file's id on the invoices it made (original_file_path), so that
 * GET /api/invoices/{id}/original_file gives the file back from any web process.
 * A file whose import failed is removed; one that made invoices stays with them.
 */
import { and, eq, ne } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { invoices } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { canReadCarrierFile, FINANCE_ACCESS_MESSAGES } from "./access";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppError, notFound } from "../../utils/errors";
import { MAX_UPLOAD_BYTES } from "../../utils/upload-limits";
import { deleteFile, FILE_MISSING, fileResponse, keepFile, lockFile, putFile, requireFile, statFile, withLocalCopy, withScratchCopy, type FileSource } from "../files/index.server";
import type { ParserFormat } from "./templates/schema";
import { INVALID_FILE_FORMAT } from "./templates/readers.server";

/** Where these files lived before the file store: read once by the upgrade (files/upgrade.server.ts), never written. */
export const legacyInvoiceFilesDir = () => process.env.INVOICE_FILES_DIR || join(tmpdir(), "freightdesk-invoice-files");

export const EXTENSIONS: Record<ParserFormat, string> = { CSV: ".csv", XLSX: ".xlsx", XLS: ".xls" };
export const CONTENT_TYPES: Record<ParserFormat, string> = {
  CSV: "text/csv",
  XLSX: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  XLS: "application/vnd.ms-excel",
};
export const CHOOSE_FILE = "Choose a file.";
export const INVOICE_FILE_TOO_LARGE = "The file is larger than 10 MB.";

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

const uploadSource = (file: File): FileSource => file.stream() as unknown as AsyncIterable<Uint8Array>;

/** How long an upload waits on its import job before the nightly cleanup takes it (a job is minutes, a week is slack). */
const AWAITING_IMPORT_MS = 7 * 24 * 3_600_000;

/**
 * Stores an upload (refused while it streams past the limit); answers the file's id, kept on the
 * invoices it makes. It expires until the import's transaction keeps it (keepInvoiceFile): a file
 * is kept exactly when invoices came from it, and one whose job never ran goes with the cleanup.
 */
export async function storeInvoiceFile(db: DbOrTx, file: File, format: ParserFormat): Promise<string> {
  const meta = { kind: "carrier_invoice" as const, name: file.name.slice(0, 255), contentType: CONTENT_TYPES[format], expiresAt: new Date(Date.now() + AWAITING_IMPORT_MS), maxBytes: MAX_UPLOAD_BYTES, tooLarge: INVOICE_FILE_TOO_LARGE };
  return (await putFile(db, meta, uploadSource(file))).id;
}

/** In the transaction that writes a file's invoices: the file is kept for good when they commit, and is gone with them if they do not. */
export async function keepInvoiceFile(tx: DbOrTx, id: string): Promise<void> {
  if (!(await keepFile(tx, id))) throw new AppError("not_found", FILE_MISSING);
}

/** Runs `read` over a kept invoice file as a local scratch copy (the readers want a path). */
export async function withInvoiceFile<T>(db: DbOrTx, id: string, format: ParserFormat, read: (path: string) => Promise<T>): Promise<T> {
  const file = await requireFile(db, id, "carrier invoice file");
  return withLocalCopy(db, file, EXTENSIONS[format], read);
}

/** Runs `read` over an upload not kept (a saved template's test run) as a scratch copy. */
export const withUpload = <T>(file: File, format: ParserFormat, read: (path: string) => Promise<T>): Promise<T> => withScratchCopy(uploadSource(file), EXTENSIONS[format], read);

/**
 * The template editor's test-run sample (docs/decisions/019 "Template screens"): a stored file
 * that expires after an hour; its token (`<file id><ext>`) is what the editor's form carries so a
 * second run needs no new upload. Expired samples go with the nightly cleanup.
 */
const SAMPLE_TTL_MS = 60 * 60 * 1000;

export async function storeSample(db: DbOrTx, file: File, format: ParserFormat): Promise<string> {
  const meta = { kind: "invoice_sample" as const, name: file.name.slice(0, 255), contentType: CONTENT_TYPES[format], expiresAt: new Date(Date.now() + SAMPLE_TTL_MS), maxBytes: MAX_UPLOAD_BYTES, tooLarge: INVOICE_FILE_TOO_LARGE };
  const stored = await putFile(db, meta, uploadSource(file));
  return `${stored.id}${EXTENSIONS[format]}`;
}

/** Runs `read` over a sample when `token` is one of ours, for this format, and still kept; else null. */
export async function withSample<T>(db: DbOrTx, token: string, format: ParserFormat, read: (path: string) => Promise<T>): Promise<T | null> {
  const m = /^([0-9a-f-]{36})\.(csv|xlsx|xls)$/.exec(token);
  if (!m || !token.endsWith(EXTENSIONS[format])) return null;
  const file = await statFile(db, m[1]!);
  if (!file || file.kind !== "invoice_sample" || !file.expiresAt || file.expiresAt.getTime() < Date.now()) return null;
  return withLocalCopy(db, file, EXTENSIONS[format], read);
}

/** Removes a kept file unless another invoice still came from it (one file can make several invoices). */
export async function removeInvoiceFile(db: DbOrTx, id: string, unlessOnInvoiceOtherThan?: number[]): Promise<void> {
  // the file's row locked first: two deletes of the last two invoices of one file, each seeing
  // the other's invoice not yet gone, would otherwise both keep the file and leave it to no one
  if (!(await lockFile(db, id))) return;
  const users = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.originalFilePath, id), ...(unlessOnInvoiceOtherThan ?? []).map((n) => ne(invoices.id, n))))
    .limit(1);
  if (!users.length) await deleteFile(db, id);
}

/**
 * GET /api/invoices/{id}/original_file: the file a carrier invoice came from, for staff only: one
 * carrier file holds every customer's lines (canReadCarrierFile, decision 022). A customer's user
 * is refused alike whether or not the invoice exists or holds their lines, so nothing is learnt.
 * A file missing from the store is a 404, a damaged one a 409 (requireFile), never a 500.
 */
export async function originalFile(db: DbOrTx, user: CurrentUser, id: number): Promise<Response> {
  if (!canReadCarrierFile(user)) throw new AppError("forbidden", FINANCE_ACCESS_MESSAGES.carrierFileStaffOnly);
  const [row] = await db
    .select({ name: invoices.originalFileName, path: invoices.originalFilePath, type: invoices.originalFileType })
    .from(invoices)
    .where(eq(invoices.id, id));
  if (!row?.path) throw notFound("Invoice file");
  const file = await requireFile(db, row.path, `invoice ${id}'s original file`);
  return fileResponse(db, file, row.name ?? file.name);
}
