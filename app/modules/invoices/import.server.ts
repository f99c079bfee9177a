/**
 * Importing carrier invoice files (POST /api/invoices/import and the Import dialog of
 * /invoices_payable; docs/decisions/019): the files are kept and one job per upload reads each
 * through its template and writes its invoices, lines and cost lines in bulk, one transaction per
 * file, so a file that fails leaves nothing behind. One file may hold several invoice numbers
 * (lines are grouped by invoice_number); an invoice number the carrier already billed is refused.
 */
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db, DbOrTx } from "../../../db/client.server";
import { carriers, invoices } from "../../../db/schema";
import type { JobQueue } from "../jobs/queue";
import { AppError, forbidden } from "../../utils/errors";
import { sqlState } from "../../utils/http.server";
import { UPLOAD_ERRORS_SHOWN } from "../../utils/upload-limits";
import type { CurrentUser } from "../auth/current-user.server";
import { jobStatusFor } from "../jobs/jobs.server";
import { throttled } from "../jobs/progress";
export { PROGRESS_EVERY_MS } from "../jobs/progress";
import { canAdministerInvoices } from "./access";
import { checkUploadOf, formatOfName, keepInvoiceFile, removeInvoiceFile, storeInvoiceFile, withInvoiceFile } from "./files.server";
import { getConfig, loadConfig, type ConfigJson } from "./templates/configs.server";
import { markDuplicates } from "./duplicates.server";
import { lineWriter, type PendingLine } from "./import-lines.server";
import { problemText, type MappedLine } from "./templates/map-fields";
import { runTemplate } from "./templates/pipeline";
import { PARSER_FORMATS } from "./templates/schema";
import { FAILED_TO_READ, FileReadError, readRows, type ReadMeter } from "./templates/readers.server";

export const INVOICE_IMPORT_JOB = "invoices.import";
export const MAX_FILES = 20;

export const invoiceImportPayload = z.object({
  configId: z.number().int().positive(),
  userId: z.number().int().positive(),
  /** stored: the file's id in the file store; format: what its name gave at upload (absent in jobs queued before the store) */
  files: z.array(z.object({ stored: z.string(), name: z.string(), format: z.enum(PARSER_FORMATS).optional() })).min(1),
});
export type InvoiceImportPayload = z.infer<typeof invoiceImportPayload>;

export interface FileOutcome {
  name: string;
  invoices: string[];
  lines: number;
  errors: string[];
}
export interface InvoiceImportResult {
  files: FileOutcome[];
  invoice_ids: number[];
}

export const duplicateMessage = (number: string, carrier: string) => `Invoice ${number} from ${carrier} has already been imported.`;
export const importDoneMessage = (r: InvoiceImportResult) => {
  const ok = r.files.filter((f) => !f.errors.length);
  const lines = ok.reduce((s, f) => s + f.lines, 0);
  return `Imported ${ok.length} of ${r.files.length} file${r.files.length === 1 ? "" : "s"}: ${r.invoice_ids.length} invoice${r.invoice_ids.length === 1 ? "" : "s"}, ${lines} line${lines === 1 ? "" : "s"}.`;
};
export const importErrors = (r: InvoiceImportResult) => r.files.flatMap((f) => f.errors.map((e) => `${f.name}: ${e}`));

/**
 * The invoices an import job made, once it has ended, for the payable list to show right after it
 * whatever their dates (issue 29 #7); null while it works, or for a job the user may not read.
 */
export async function importedInvoiceIds(db: DbOrTx, user: CurrentUser, jobId: string): Promise<number[] | null> {
  const job = await jobStatusFor(db, user, jobId).catch((e: unknown) => {
    if (e instanceof AppError && e.code === "not_found") return null;
    throw e;
  });
  if (!job || (job.status !== "complete" && job.status !== "failed")) return null;
  const ids = (job.info as { invoice_ids?: unknown }).invoice_ids;
  return Array.isArray(ids) && ids.every((id) => Number.isInteger(id)) ? (ids as number[]) : null;
}

/** Checks the template and files, keeps the files and queues one job; answers its id. */
export async function startInvoiceImport(db: DbOrTx, queue: JobQueue, user: CurrentUser, fields: { config_id?: unknown }, files: FormDataEntryValue[]): Promise<{ job_id: string }> {
  if (!canAdministerInvoices(user)) throw forbidden("You may not import invoices.");
  const configId = Number(fields.config_id);
  if (!Number.isInteger(configId) || configId <= 0) throw new AppError("invalid", "Choose a template.", { config_id: ["Choose a template."] });
  const config = await getConfig(db, user, configId).catch(() => {
    throw new AppError("invalid", "Choose a template.", { config_id: ["Choose a template."] });
  });
  if (!files.length) throw new AppError("invalid", "Choose at least one file.", { files: ["Choose at least one file."] });
  if (files.length > MAX_FILES) throw new AppError("invalid", `Choose at most ${MAX_FILES} files.`, { files: [`Choose at most ${MAX_FILES} files.`] });
  // each file is read as the format its name gives, of the template's formats
  const checked = files.map((f) => checkUploadOf(f, config.parser.formats, "files"));
  const stored: InvoiceImportPayload["files"] = [];
  for (const f of checked) stored.push({ stored: await storeInvoiceFile(db, f.file, f.format), name: f.file.name.slice(0, 255), format: f.format });
  const { jobId } = await queue.enqueue(INVOICE_IMPORT_JOB, { configId, userId: user.id, files: stored }, { userId: user.id, customerId: user.customer.id, siteIds: user.siteIds });
  return { job_id: jobId };
}

/**
 * The job: each file in its own transaction. The message counts the files done; within a file
 * pct_complete follows the rows read of the rows counted first, at most every PROGRESS_EVERY_MS.
 */
export async function runInvoiceImport(db: Db, payload: InvoiceImportPayload, progress: (pct: number, message: string) => Promise<void>): Promise<InvoiceImportResult> {
  // the template as it is now, without a user check: an invoice admin queued the job
  const config = await loadConfig(db, payload.configId);
  const [carrier] = await db.select({ name: carriers.name }).from(carriers).where(eq(carriers.id, config.carrier_id));
  const result: InvoiceImportResult = { files: [], invoice_ids: [] };
  const total = payload.files.length;
  await progress(0, `Processed 0 of ${total} file${total === 1 ? "" : "s"}`);
  for (const [i, f] of payload.files.entries()) {
    const message = `Processed ${i} of ${total} file${total === 1 ? "" : "s"}`;
    const within = throttled((fraction) => progress(((i + fraction) / total) * 100, message));
    const outcome = await importFile(db, config, carrier?.name ?? "the carrier", f, payload.userId, within.report);
    // a progress write still under way must not land after the file's own
    await within.settled();
    result.files.push(outcome.file);
    result.invoice_ids.push(...outcome.ids);
    if (outcome.file.errors.length) await removeInvoiceFile(db, f.stored);
    await progress(Math.round(((i + 1) / total) * 100), `Processed ${i + 1} of ${total} file${total === 1 ? "" : "s"}`);
  }
  return result;
}

class FileRefused extends Error {
  constructor(readonly errors: string[]) {
    super(errors[0]);
  }
}

async function importFile(db: Db, config: ConfigJson, carrierName: string, f: InvoiceImportPayload["files"][number], userId: number, report: (fraction: number) => void): Promise<{ file: FileOutcome; ids: number[] }> {
  const file: FileOutcome = { name: f.name, invoices: [], lines: 0, errors: [] };
  // a job run again (its worker died after the commit) finds its invoices: nothing is made twice
  // and counts the lines stored, not none (issue 35 #10: a resumed import said half the lines)
  const done = await db
    .select({ id: invoices.id, number: invoices.invoiceNumber, lines: sql<number>`(select count(*)::int from invoice_details d where d.invoice_id = "invoices"."id")` })
    .from(invoices)
    .where(eq(invoices.originalFilePath, f.stored));
  if (done.length) return { file: { ...file, invoices: done.map((d) => d.number ?? ""), lines: done.reduce((s, d) => s + Number(d.lines), 0) }, ids: done.map((d) => d.id) };
  try {
    // read from a scratch copy taken before the transaction (PGlite runs one statement at a time:
    // the store must not be read from outside a transaction that is open)
    const ids = await withInvoiceFile(db, f.stored, storedFormat(f), (path) =>
      db.transaction(async (tx) => {
        const made = await writeFile(tx, config, carrierName, f, path, userId, file, report);
        // the file is kept with the invoices it made, in their transaction: neither without the other
        await keepInvoiceFile(tx, f.stored);
        return made;
      }),
    );
    return { file, ids };
  } catch (e) {
    if (e instanceof FileRefused) file.errors = e.errors;
    else if (e instanceof AppError) file.errors = [e.message];
    else if (e instanceof FileReadError) file.errors = [e.message];
    else if (sqlState(e) === "23505") file.errors = ["An invoice in this file was imported by another upload at the same time."];
    else {
      console.error("invoice import failed", e);
      file.errors = [FAILED_TO_READ];
    }
    return { file: { ...file, invoices: [], lines: 0 }, ids: [] };
  }
}

interface OpenInvoice {
  /** made in the file's order of statements, not waited for while reading (import-lines.server.ts) */
  id: Promise<number>;
  number: string;
  date: string | null;
  total: number | null;
  lineTotal: number;
}

/**
 * Streams the file through the template into bulk inserts inside `tx`. Any problem (a row the
 * template cannot read, an invoice number already billed) throws FileRefused: the transaction
 * rolls back, so the file leaves nothing behind.
 */
async function writeFile(tx: DbOrTx, config: ConfigJson, carrierName: string, f: InvoiceImportPayload["files"][number], path: string, userId: number, out: FileOutcome, report: (fraction: number) => void): Promise<number[]> {
  const meter: ReadMeter = { fraction: 0 };
  const rows = await readRows(path, storedFormat(f), config.parser.sheets, meter);
  const { results } = runTemplate(rows, config.transformations);
  const open = new Map<string, OpenInvoice>();
  const problems: string[] = [];
  const writer = lineWriter(tx, config.carrier_id, meter.rows);
  // everything sent so far has settled: the rollback must not be sent while a COPY is open
  const settled = () => writer.exclusive(async () => {}).catch(() => {});
  let chunk: PendingLine[] = [];
  let n = 0;
  // chunks are written while the next are read and mapped: the database and the parsing each
  // have a core (bench/invoice-import.ts); a write's failure is thrown at a later flush
  let writing: Promise<void> = Promise.resolve();
  const flush = async (last: boolean) => {
    await writing;
    if (chunk.length) {
      writing = writer.write(chunk, last);
      writing.catch(() => {});
    }
    chunk = [];
  };
  let seen = 0;
  try {
    for await (const m of results) {
      report(meter.fraction);
      // reading runs on microtasks through a whole read of the file, while each COPY waits on its
      // answer being taken: let the socket's events in every few hundred rows
      if (++seen % 256 === 0) await new Promise((go) => setImmediate(go));
      if (!m.ok) {
        problems.push(problemText(m));
        if (problems.length >= UPLOAD_ERRORS_SHOWN) break;
        continue;
      }
      if (problems.length) continue;
      const key = m.line.invoice.invoiceNumber.toLowerCase();
      let inv = open.get(key);
      if (!inv) {
        const line = m.line;
        const id = writer.exclusive(() => openInvoice(tx, config, carrierName, f, userId, line));
        id.catch(() => {});
        inv = { id, number: line.invoice.invoiceNumber, date: line.invoice.invoiceDate, total: line.invoice.total, lineTotal: 0 };
        open.set(key, inv);
      }
      inv.date ??= m.line.invoice.invoiceDate;
      inv.total ??= m.line.invoice.total;
      inv.lineTotal += Number(m.line.detail.total_cost ?? 0);
      n += 1;
      chunk.push({ invoiceId: inv.id, line: m.line, n });
      if (chunk.length >= writer.chunk) await flush(false);
    }
    // an invoice already billed is the file's first problem, as it was met before any bad row
    for (const inv of open.values()) await inv.id;
  } catch (e) {
    await settled();
    throw e;
  }
  if (problems.length) {
    await settled();
    throw new FileRefused(problems);
  }
  await flush(true);
  await writing;
  if (!open.size) throw new FileRefused(["No rows present in import results."]);
  const made = await Promise.all([...open.values()].map((inv) => inv.id));
  // one statement for the file's lines, after its COPYs (decision 021)
  await writer.exclusive(() => markDuplicates(tx, made));
  const ids: number[] = [];
  for (const inv of open.values()) {
    const id = await inv.id;
    const total = inv.total ?? Math.round(inv.lineTotal * 100) / 100;
    await writer.exclusive(() => tx.update(invoices).set({ invoiceDate: inv.date, total: total.toFixed(2) }).where(eq(invoices.id, id)));
    ids.push(id);
  }
  out.invoices = [...open.values()].map((i) => i.number);
  out.lines = n;
  return ids;
}

/** The format a kept file was stored as (its name's extension at upload), whatever formats the template reads now. */
const storedFormat = (f: InvoiceImportPayload["files"][number]) => f.format ?? formatOfName(f.stored, PARSER_FORMATS) ?? formatOfName(f.name, PARSER_FORMATS) ?? "CSV";

/** Refuses an invoice number the carrier already billed; answers the new invoice's id. */
async function openInvoice(tx: DbOrTx, config: ConfigJson, carrierName: string, f: InvoiceImportPayload["files"][number], userId: number, line: MappedLine): Promise<number> {
  const number = line.invoice.invoiceNumber;
  const [taken] = await tx
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.accountingType, "payable"), eq(invoices.carrierId, config.carrier_id), sql`lower(${invoices.invoiceNumber}) = lower(${number})`));
  if (taken) throw new FileRefused([duplicateMessage(number, carrierName)]);
  const [made] = await tx
    .insert(invoices)
    .values({
      accountingType: "payable",
      state: "unallocated",
      invoiceNumber: number,
      carrierId: config.carrier_id,
      configId: config.id,
      originalFileName: f.name,
      originalFilePath: f.stored,
      originalFileType: storedFormat(f),
      createdById: userId,
    })
    .returning({ id: invoices.id });
  return made!.id;
}
