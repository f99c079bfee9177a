import { z } from "zod";
import type { Db, DbOrTx } from "../db/client.server";
import type { Mailer } from "../app/modules/mail/mailer.server";
import type { Renderer } from "../app/modules/printing/renderer.server";
import type { JobQueue } from "../app/modules/jobs/queue";
import { runCleanup, type CleanupResult } from "../app/modules/auth/cleanup.server";
import { compactReconciliationTallies } from "../app/modules/reconciliation/tallies.server";
import { despatchOutcome, despatchPayload, DESPATCHING, runDespatch, type DespatchResult } from "../app/modules/despatch/despatch.server";
import { emailReturnDocuments } from "../app/modules/despatch/return-email.server";
import { releaseDespatch } from "../app/modules/despatch/recovery.server";
import { fetchAndRecord, fetchMessage, MAX_FETCH, startTrackingAfterDespatch, type FetchResult } from "../app/modules/tracking/feed.server";
import { replayMessage, replayPayload, runReplay, type ReplayResult } from "../app/modules/tracking/replay.server";
import { EXPORT_JOB, exportMessage, exportPayload, type ExportResult } from "../app/modules/exports/run.server";
import { runExportJob } from "../app/modules/exports/thread.server";
import { deleteExpiredIdempotencyKeys } from "../app/modules/idempotency/store.server";
import { removeExpiredFiles } from "../app/modules/files/index.server";
import { DELETE_ALL_JOB, deleteAllMessage, deleteAllPayload, runDeleteAll, type DeleteAllResult } from "../app/modules/recipients/delete-all.server";
import { RECIPIENTS_IMPORT_JOB, READING, importedMessage, recipientsImportPayload, releaseRecipientsImport, runRecipientsImport, type RecipientsImportResult } from "../app/modules/recipients/import-job.server";
import { BOOK_JOB, bookOutcome, bookPayload, runBookings, type BookResult } from "../app/modules/bookings/book.server";
import { BOOKING } from "../app/modules/bookings/rules";
import { BULK_UPLOAD_JOB, bulkUploadPayload } from "../app/modules/bulk-upload/upload.server";
import { importMessage, runBulkImport, type ImportResult } from "../app/modules/bulk-upload/import.server";
import { ALLOCATE_JOB, allocateMessage, allocatePayload, runAllocation, type AllocateResult } from "../app/modules/allocation/allocate.server";
import { RECONCILE_JOB, reconcileMessage, reconcilePayload, type ReconcileResult } from "../app/modules/reconciliation/reconcile.server";
import { reconcileAndRerate } from "../app/modules/reconciliation/reconcile-job.server";
import { INVOICING_JOB, invoicingErrors, invoicingMessage, invoicingPayload, runInvoicing, type InvoicingResult } from "../app/modules/invoicing/invoice.server";
import { pruneIdleRunnerJobs, runDueSchedules, runnerMessage, SCHEDULES_JOB, schedulesPayload, type RunnerResult } from "../app/modules/invoicing/schedules.server";
import { importDoneMessage, importErrors, INVOICE_IMPORT_JOB, invoiceImportPayload, runInvoiceImport, type InvoiceImportResult } from "../app/modules/invoices/import.server";
import { RECOMPUTE_JOB, recomputeMessage, recomputePayload, runRecompute, type RecomputeResult } from "../app/modules/emissions/factors.server";
import { notificationsPayload, notifyDespatched, sendMessage, sendNotifications, type SendResult } from "../app/modules/notifications/send.server";

export type Progress = (pct: number, message: string) => Promise<void>;

interface JobDefinition<P extends z.ZodType, R> {
  payload: P;
  /** shown while working ("Working..." when absent) */
  startMessage?: string;
  doneMessage: (result: R) => string;
  /** what went wrong although the job ran (the job then ends failed, its info kept) */
  errorsOf?: (result: R) => string[];
  /** pg-boss cron expression for a recurring run */
  cron?: string;
  /** databaseUrl: PostgreSQL's, for a job that opens connections of its own (absent on PGlite) */
  run(services: { db: Db; databaseUrl?: string; mailer: Mailer; renderer: Renderer; queue: JobQueue | null }, payload: z.infer<P>, progress: Progress): Promise<R>;
  /**
   * Called, in the transaction that ends the job failed, when a run threw or its worker died and
   * it is not run again: puts what the job left half done where staff can act on it. Its errors
   * follow the job's own.
   */
  release?(tx: DbOrTx, payload: z.infer<P>): Promise<{ errors: string[]; info: object }>;
}

const define = <P extends z.ZodType, R>(d: JobDefinition<P, R>) => d;

/**
 * Every background job: a zod payload, and a call into a module service that does the work.
 * Each must be idempotent: pg-boss may deliver a job twice, and a job whose worker died is run
 * again from the start by another (docs/decisions/008).
 */
export const JOBS = {
  "maintenance.cleanup": define({
    payload: z.object({ now: z.iso.datetime().optional() }),
    startMessage: "Removing expired sessions...",
    doneMessage: (r: CleanupResult & { files: number }) =>
      `Removed ${r.sessions} expired session(s), ${r.resetTokens} reset link(s), ${r.signInAudits} old sign-in record(s) and ${r.files} expired file(s).`,
    cron: "17 3 * * *",
    run: async ({ db }, payload, progress) => {
      const now = payload.now ? new Date(payload.now) : new Date();
      const result = await runCleanup(db, now, progress);
      // stored files past their time (exports, uploads whose job never ran) go with the expired
      // sessions, on whichever host runs this: they are rows, not files on a disk
      const files = await removeExpiredFiles(db, now);
      // and the reconciliations list's tallies are folded up (a day's appends into a row each)
      await compactReconciliationTallies(db);
      // and the invoicing schedules runner's minutely records of runs that ran nothing
      await pruneIdleRunnerJobs(db, now);
      // and the /api answers kept for Idempotency-Key retries, past their 24 hours
      await deleteExpiredIdempotencyKeys(db, now);
      return { ...result, files };
    },
  }),
  "consignments.despatch": define({
    payload: despatchPayload,
    startMessage: DESPATCHING,
    doneMessage: (r: DespatchResult) => despatchOutcome(r).message,
    errorsOf: (r: DespatchResult) => despatchOutcome(r).errors,
    run: async ({ db, mailer, renderer, queue }, payload, progress) => {
      const result = await runDespatch(db, payload, progress);
      await startTrackingAfterDespatch(db, queue, result.despatched);
      await notifyDespatched(queue, result.despatched);
      // Despatch + email of a return: its labels and manifest go to the pickup contact
      if (!payload.sendEmail) return result;
      for (const id of result.despatched) await emailReturnDocuments({ db, mailer, renderer }, payload.userId, id);
      // the screen then says the e-mail went (spec 3: 'Labels and manifest emailed.')
      return { ...result, emailed: result.despatched.length > 0 };
    },
    release: releaseDespatch,
  }),
  "consignments.redespatch": define({
    payload: despatchPayload,
    startMessage: DESPATCHING,
    doneMessage: (r: DespatchResult) => despatchOutcome(r, true).message,
    errorsOf: (r: DespatchResult) => despatchOutcome(r, true).errors,
    run: async ({ db, queue }, payload, progress) => {
      const result = await runDespatch(db, payload, progress);
      await startTrackingAfterDespatch(db, queue, result.despatched);
      await notifyDespatched(queue, result.despatched);
      return result;
    },
    release: releaseDespatch,
  }),
  // a carrier's tracking news falls due: ask it for its events and record them (issue 14)
  "tracking.fetch": define({
    payload: z.object({ consignmentIds: z.array(z.number().int().positive()).min(1).max(MAX_FETCH) }),
    startMessage: "Fetching tracking events...",
    doneMessage: (r: FetchResult) => fetchMessage(r),
    run: ({ db, queue }, payload) => fetchAndRecord(db, payload.consignmentIds, { notify: queue }),
  }),
  // consignments entered a trigger state: their receivers' notifications (issue 14 item 7)
  "notifications.send": define({
    payload: notificationsPayload,
    startMessage: "Sending notifications...",
    doneMessage: (r: SendResult) => sendMessage(r),
    run: ({ db, mailer }, payload) => sendNotifications({ db, mailer }, payload),
  }),
  // /manage_tracking: ask carriers again and record what was missed (idempotent)
  "tracking.replay": define({
    payload: replayPayload,
    startMessage: "Replaying tracking events...",
    doneMessage: (r: ReplayResult) => replayMessage(r),
    run: ({ db, queue }, payload, progress) => runReplay(db, queue, payload, progress),
  }),
  // /export and POST /api/exports: the export report's file, streamed page by page (issue 15 item 4)
  [EXPORT_JOB]: define({
    payload: exportPayload,
    startMessage: "Exporting consignments...",
    doneMessage: (r: ExportResult) => exportMessage(r),
    // in a thread with a heap of its own on PostgreSQL (app/modules/exports/thread.server.ts)
    run: ({ db, databaseUrl }, payload, progress) => runExportJob(db, databaseUrl, payload, progress),
  }),
  // the recipients screen's Delete all and DELETE /api/customers/{id}/recipients (issue 16 item 5)
  [DELETE_ALL_JOB]: define({
    payload: deleteAllPayload,
    startMessage: "Deleting recipients...",
    doneMessage: (r: DeleteAllResult) => deleteAllMessage(r),
    run: ({ db }, payload, progress) => runDeleteAll(db, payload, progress),
  }),
  // the recipients screen's upload and POST /api/customers/{id}/recipients/import (issue 35 item 6)
  [RECIPIENTS_IMPORT_JOB]: define({
    payload: recipientsImportPayload,
    startMessage: READING,
    doneMessage: (r: RecipientsImportResult) => importedMessage(r),
    run: ({ db }, payload, progress) => runRecipientsImport(db, payload, progress),
    release: releaseRecipientsImport,
  }),
  // /new_bookings's Book, PUT /api/bookings/book_all and Rebook: pickups through the carriers' adapters (issue 17 item 5)
  [BOOK_JOB]: define({
    payload: bookPayload,
    startMessage: BOOKING,
    doneMessage: (r: BookResult) => bookOutcome(r).message,
    errorsOf: (r: BookResult) => bookOutcome(r).errors,
    run: ({ db, mailer }, payload, progress) => runBookings(db, mailer, payload, progress),
  }),
  // /bulk_upload and POST /api/bulk_upload/import: a consignment or quote file (issue 17 item 4)
  [BULK_UPLOAD_JOB]: define({
    payload: bulkUploadPayload,
    startMessage: "Reading the file...",
    doneMessage: (r: ImportResult) => importMessage(r),
    run: ({ db }, payload, progress) => runBulkImport(db, payload, progress),
  }),
  // Allocate on /invoices_payable and /invoice/{id}, PUT /api/invoices/allocate (issue 18 item 6)
  [ALLOCATE_JOB]: define({
    payload: allocatePayload,
    startMessage: "Allocating...",
    doneMessage: (r: AllocateResult) => allocateMessage(r),
    run: ({ db }, payload, progress) => runAllocation(db, payload, progress),
  }),
  // issue 18: one carrier invoice upload (one or more files, each in its own transaction)
  [INVOICE_IMPORT_JOB]: define({
    payload: invoiceImportPayload,
    startMessage: "Reading the invoice files...",
    doneMessage: (r: InvoiceImportResult) => importDoneMessage(r),
    errorsOf: (r: InvoiceImportResult) => importErrors(r),
    run: ({ db }, payload, progress) => runInvoiceImport(db, payload, progress),
  }),
  // issue 19: reconcile payable invoices' allocated lines against their consignments' ratings
  [RECONCILE_JOB]: define({
    payload: reconcilePayload,
    startMessage: "Reconciling...",
    doneMessage: (r: ReconcileResult) => reconcileMessage(r),
    run: ({ db }, payload, progress) => reconcileAndRerate(db, payload, progress),
  }),
  // issue 19: reconciled lines billed to their customers, each invoice's PDF rendered and e-mailed
  [INVOICING_JOB]: define({
    payload: invoicingPayload,
    startMessage: "Invoicing...",
    doneMessage: (r: InvoicingResult) => invoicingMessage(r),
    errorsOf: (r: InvoicingResult) => invoicingErrors(r),
    run: ({ db, mailer, renderer }, payload, progress) => runInvoicing({ db, mailer, renderer }, payload, progress),
  }),
  // issue 19: every minute, the invoicing schedules that are due queue their invoicing jobs
  [SCHEDULES_JOB]: define({
    payload: schedulesPayload,
    startMessage: "Running invoicing schedules...",
    doneMessage: (r: RunnerResult) => runnerMessage(r),
    cron: "* * * * *",
    run: ({ db, queue }, payload) => runDueSchedules(db, queue, payload.now ? new Date(payload.now) : new Date()),
  }),
  // issue 33: a carrier's emission factor changed (or a backfill): its consignments' figures again
  [RECOMPUTE_JOB]: define({
    payload: recomputePayload,
    startMessage: "Recomputing emissions...",
    doneMessage: (r: RecomputeResult) => recomputeMessage(r),
    run: ({ db }, payload, progress) => runRecompute(db, payload, progress),
  }),
};

export type JobName = keyof typeof JOBS;
export type JobPayload<N extends JobName> = z.input<(typeof JOBS)[N]["payload"]>;

type PayloadsByName = { [N in JobName]: JobPayload<N> };

// Fills in the queue interface's payloads (app/modules/jobs/queue.ts) from the schemas above, so
// the modules' enqueue calls are typed without the modules importing this table.
declare module "../app/modules/jobs/queue" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface JobPayloads extends PayloadsByName {}
}
