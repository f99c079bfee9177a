/**
 * Recipients imports as background jobs (issue 35 item 6; docs/decisions/026): the request checks
 * what it can quickly (type, size, gzip within its unpacked size, the header), keeps the file as
 * sent and queues the job; the job reads the file twice as a stream, never whole: once to count
 * its lines (over MAX_RECIPIENT_ROWS, or not CSV anywhere, it is refused before a line is stored),
 * then to validate and insert it chunk by chunk in one transaction, its progress on the job row.
 */
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db, DbOrTx } from "../../../db/client.server";
import { jobs } from "../../../db/schema";
import type { JobQueue } from "../jobs/queue";
import type { CurrentUser } from "../auth/current-user.server";
import { throttled } from "../jobs/progress";
import { csvRecords } from "../../utils/csv-stream.server";
import type { CsvRow } from "../../utils/csv.server";
import { openRecipientsFile, removeRecipientsFile, storeRecipientsFile } from "./files.server";
import { CHUNK, emptyReport, headerProblem, importChunk, newPlaces, type ImportReport } from "./import.server";
import { MAX_RECIPIENT_LINE_CHARS, MAX_RECIPIENT_ROWS, RECIPIENTS_TOO_MANY_ROWS } from "./limits";
import { recipientsCustomerToEdit } from "./recipients.server";
import { checkRecipientsFile, readRecipientsUpload, refuse, unpackedText } from "./upload.server";

export const RECIPIENTS_IMPORT_JOB = "recipients.import";
export const recipientsImportPayload = z.object({
  customerId: z.number().int().positive(),
  /** the file's id in the file store (files.server.ts) */
  fileId: z.uuid(),
  gz: z.boolean(),
  fileName: z.string().max(255),
});
export type RecipientsImportPayload = z.infer<typeof recipientsImportPayload>;

/** The job's info: the report the import answered before it was a job, and the file's lines. */
export type RecipientsImportResult = ImportReport & { total: number; file_name: string };

export const importedMessage = (r: Pick<ImportReport, "created" | "skipped_total">) => `Recipients imported: ${r.created} added, ${r.skipped_total} skipped.`;
export const READING = "Reading the file...";
export const progressMessage = (read: number, total: number) => `Imported ${read.toLocaleString("en-AU")} of ${total.toLocaleString("en-AU")} lines...`;

/**
 * POST /api/customers/{id}/recipients/import and the recipients screen's upload: who may import is
 * settled before the upload is read; a file refused by the quick checks answers 422 here.
 */
export async function startRecipientsImport(db: DbOrTx, queue: JobQueue, user: CurrentUser, customerId: number, request: Request): Promise<{ job_id: string }> {
  const customer = await recipientsCustomerToEdit(db, user, customerId);
  const upload = await readRecipientsUpload(request);
  await checkRecipientsFile(upload.bytes, upload.gz);
  // one transaction: the stored file and its job exist together (no file left without a job)
  return db.transaction(async (tx) => {
    const fileId = await storeRecipientsFile(tx, customer.id, upload);
    const payload: RecipientsImportPayload = { customerId: customer.id, fileId, gz: upload.gz, fileName: upload.fileName };
    const { jobId } = await queue.enqueue(RECIPIENTS_IMPORT_JOB, payload, { tx, userId: user.id, customerId: customer.id });
    return { job_id: jobId };
  });
}

/**
 * The stored file's records, read as a stream through `db` (inside the import's transaction, its
 * transaction: PGlite's one connection is the transaction's while it is open); the header refused
 * as the request refuses it.
 */
async function* records(db: DbOrTx, payload: RecipientsImportPayload): AsyncGenerator<CsvRow> {
  const checkHeader = (headers: string[]) => {
    const problem = headerProblem(headers);
    if (problem) throw refuse(problem);
  };
  const source = await openRecipientsFile(db, payload.fileId, payload.customerId);
  yield* csvRecords(unpackedText(source, payload.gz), checkHeader, MAX_RECIPIENT_LINE_CHARS);
}

/** The first reading: the file's lines counted and every one read as CSV, nothing stored. */
async function countLines(db: DbOrTx, payload: RecipientsImportPayload): Promise<number> {
  let total = 0;
  for await (const _ of records(db, payload)) {
    if (++total > MAX_RECIPIENT_ROWS) throw refuse(RECIPIENTS_TOO_MANY_ROWS);
  }
  // a file of no line at all has no header either
  if (total === 0) {
    const problem = headerProblem([]);
    if (problem) throw refuse(problem);
  }
  return total;
}

/** This job's row, found by its file (unique to it): where the import says it is done, in its own transaction. */
const thisJob = (payload: RecipientsImportPayload) =>
  and(eq(jobs.name, RECIPIENTS_IMPORT_JOB), eq(jobs.customerId, payload.customerId), sql`${jobs.payload}->>'fileId' = ${payload.fileId}`);

async function alreadyImported(db: DbOrTx, payload: RecipientsImportPayload): Promise<RecipientsImportResult | null> {
  const [row] = await db.select({ info: jobs.info }).from(jobs).where(and(thisJob(payload), sql`${jobs.info} ? 'created'`));
  return (row?.info as RecipientsImportResult | undefined) ?? null;
}

/**
 * The job. Run again (its worker died), it finds what a committed run wrote on the job row and
 * answers that: the file is never added twice. The stored file is removed when the run ends.
 */
export async function runRecipientsImport(db: Db, payload: RecipientsImportPayload, progress: (pct: number, message: string) => Promise<void>): Promise<RecipientsImportResult> {
  try {
    const done = await alreadyImported(db, payload);
    if (done) return done;
    await progress(0, READING);
    const total = await countLines(db, payload);
    const result: RecipientsImportResult = { ...emptyReport(), total, file_name: payload.fileName };
    const places = newPlaces();
    let read = 0;
    const within = throttled((fraction) => progress(Math.min(99, fraction * 100), progressMessage(read, total)));
    // one transaction: an import that fails part way (the database gone, its worker stopped)
    // leaves no half of the file behind, and a run again starts from nothing
    await db.transaction(async (tx) => {
      let chunk: CsvRow[] = [];
      const write = async () => {
        await importChunk(tx, payload.customerId, chunk, places, result);
        read += chunk.length;
        chunk = [];
        within.report(read / Math.max(1, total));
      };
      for await (const row of records(tx, payload)) {
        chunk.push(row);
        if (chunk.length === CHUNK) await write();
      }
      if (chunk.length) await write();
      await tx.update(jobs).set({ info: result as unknown as Record<string, unknown> }).where(thisJob(payload));
    });
    // a progress write still under way must not land after the job's own last word
    await within.settled();
    return result;
  } finally {
    await removeRecipientsFile(db, payload.fileId);
  }
}

/** A job given up (its worker kept dying): its file goes; nothing was stored but what committed. */
export async function releaseRecipientsImport(tx: DbOrTx, payload: RecipientsImportPayload) {
  await removeRecipientsFile(tx, payload.fileId);
  return { errors: [], info: {} };
}
