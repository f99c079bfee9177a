/**
 * Upgrade without loss (issue 30 item 3, docs/decisions/030): the documents the app kept on disk
 * before the file store (INVOICE_FILES_DIR: carrier invoice files at its top, customer invoice
 * PDFs under receivable/, reconciliation results under reconciliation-reports/) are moved into the
 * store at start, each linked to the rows that named it, then removed from the disk. A row naming
 * a file that is not there is reported (log and a job record), never dropped: the row stays.
 * Runs in the prepare step, under its advisory lock, so two processes never move the same file.
 */
import { createReadStream } from "node:fs";
import { readdir, rmdir, unlink } from "node:fs/promises";
import { join } from "node:path";
import { desc, eq, inArray, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../../db/client.server";
import { invoices, jobs, reconciliationReports, users, type FileKind } from "../../../db/schema";
import { CONTENT_TYPES, legacyInvoiceFilesDir } from "../invoices/files.server";
import type { ParserFormat } from "../invoices/templates/schema";
import { putFile } from "./index.server";

/** The job record an admin finds the upgrade's report in. */
export const FILE_UPGRADE_JOB = "files.upgrade";
/** Only names the old code made (a uuid and its extension) are ever opened or matched. */
const LEGACY_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(csv|xlsx|xls|pdf)$/;

interface Place {
  sub: string;
  kind: FileKind;
  /** the rows naming `name`, what the stored file is called and whose it is */
  rows(db: DbOrTx, name: string): Promise<{ ids: number[]; fileName: string; contentType: string; customerId: number | null }>;
  link(tx: DbOrTx, ids: number[], id: string): Promise<unknown>;
  /** every legacy name a row holds (those not moved yet), with what the report says of its row */
  named(db: DbOrTx): Promise<{ name: string; what: string }[]>;
}

const legacy = (column: typeof invoices.originalFilePath | typeof invoices.pdfPath | typeof reconciliationReports.resultPath) => sql`${column} ~ '^[0-9a-f-]{36}\\.[a-z]+$'`;

const PLACES: Place[] = [
  {
    sub: "",
    kind: "carrier_invoice",
    async rows(db, name) {
      const rows = await db.select({ id: invoices.id, fileName: invoices.originalFileName, type: invoices.originalFileType }).from(invoices).where(eq(invoices.originalFilePath, name));
      const type = (rows[0]?.type ?? "CSV") as ParserFormat;
      return { ids: rows.map((r) => r.id), fileName: rows[0]?.fileName ?? name, contentType: CONTENT_TYPES[type] ?? "application/octet-stream", customerId: null };
    },
    link: (tx, ids, id) => tx.update(invoices).set({ originalFilePath: id }).where(inArray(invoices.id, ids)),
    async named(db) {
      const rows = await db.select({ id: invoices.id, name: invoices.originalFilePath, number: invoices.invoiceNumber }).from(invoices).where(legacy(invoices.originalFilePath));
      return rows.map((r) => ({ name: r.name!, what: `invoice ${r.number ?? r.id} (id ${r.id}): its original file ${r.name}` }));
    },
  },
  {
    sub: "receivable",
    kind: "customer_invoice_pdf",
    async rows(db, name) {
      const rows = await db.select({ id: invoices.id, number: invoices.invoiceNumber, customerId: invoices.customerId }).from(invoices).where(eq(invoices.pdfPath, name));
      return { ids: rows.map((r) => r.id), fileName: `invoice-${rows[0]?.number ?? rows[0]?.id}.pdf`, contentType: "application/pdf", customerId: rows[0]?.customerId ?? null };
    },
    link: (tx, ids, id) => tx.update(invoices).set({ pdfPath: id }).where(inArray(invoices.id, ids)),
    async named(db) {
      const rows = await db.select({ id: invoices.id, name: invoices.pdfPath, number: invoices.invoiceNumber }).from(invoices).where(legacy(invoices.pdfPath));
      return rows.map((r) => ({ name: r.name!, what: `invoice ${r.number ?? r.id} (id ${r.id}): its PDF receivable/${r.name}` }));
    },
  },
  {
    sub: "reconciliation-reports",
    kind: "reconciliation_result",
    async rows(db, name) {
      const rows = await db
        .select({ id: reconciliationReports.id, fileName: reconciliationReports.fileName, customerId: users.customerId })
        .from(reconciliationReports)
        .leftJoin(users, eq(users.id, reconciliationReports.userId))
        .where(eq(reconciliationReports.resultPath, name));
      const base = (rows[0]?.fileName ?? "").replace(/\.csv$/i, "").replace(/[^\w.-]+/g, "_") || "reconciliation";
      return { ids: rows.map((r) => r.id), fileName: `${base}_result.csv`, contentType: "text/csv; charset=utf-8", customerId: rows[0]?.customerId ?? null };
    },
    link: (tx, ids, id) => tx.update(reconciliationReports).set({ resultPath: id }).where(inArray(reconciliationReports.id, ids)),
    async named(db) {
      const rows = await db.select({ id: reconciliationReports.id, name: reconciliationReports.resultPath }).from(reconciliationReports).where(legacy(reconciliationReports.resultPath));
      return rows.map((r) => ({ name: r.name!, what: `reconciliation report ${r.id}: its result reconciliation-reports/${r.name}` }));
    },
  },
];

export interface UpgradeOutcome {
  moved: number;
  /** files on disk no row names (left where they are, logged) */
  unclaimed: string[];
  /** rows naming a file that is not there (reported, rows kept) */
  missing: string[];
}

const list = (dir: string) => readdir(dir, { withFileTypes: true }).catch(() => []);

/**
 * Moves what the old directory holds into the store; answers what it did. Each file is stored and
 * its rows relinked in one transaction (a crash leaves either the old name on the rows and the
 * file on disk, or the new id and a file on disk no row names), and only then unlinked.
 */
export async function upgradeLegacyFiles(db: Db, options: { dir?: string; log?: (line: string) => void } = {}): Promise<UpgradeOutcome> {
  const dir = options.dir ?? legacyInvoiceFilesDir();
  const log = options.log ?? console.log;
  const out: UpgradeOutcome = { moved: 0, unclaimed: [], missing: [] };
  for (const place of PLACES) {
    const at = join(dir, place.sub);
    for (const entry of await list(at)) {
      if (!entry.isFile() || !LEGACY_NAME.test(entry.name)) continue;
      const path = join(at, entry.name);
      const rows = await place.rows(db, entry.name);
      if (!rows.ids.length) {
        out.unclaimed.push(join(place.sub, entry.name));
        continue;
      }
      try {
        await db.transaction(async (tx) => {
          const file = await putFile(tx, { kind: place.kind, name: rows.fileName.slice(0, 255), contentType: rows.contentType, customerId: rows.customerId }, createReadStream(path));
          await place.link(tx, rows.ids, file.id);
        });
      } catch (e) {
        // left on disk and named in the report; the next start tries again
        console.error(`[files] could not move ${path} into the file store:`, e instanceof Error ? e.message : e);
        continue;
      }
      await unlink(path);
      out.moved++;
    }
  }
  // the samples were for an hour's test runs: nothing keeps them, nothing is moved
  const samples = join(dir, "samples");
  for (const entry of await list(samples)) if (entry.isFile()) await unlink(join(samples, entry.name)).catch(() => {});
  for (const sub of ["samples", "receivable", "reconciliation-reports", ""]) await rmdir(join(dir, sub)).catch(() => {});

  for (const place of PLACES) out.missing.push(...(await place.named(db)).map((n) => n.what));
  out.missing.sort();
  if (out.moved) log(`[files] moved ${out.moved} file${out.moved === 1 ? "" : "s"} from ${dir} into the file store`);
  if (out.unclaimed.length) log(`[files] left in ${dir}, named by no row: ${out.unclaimed.length} file${out.unclaimed.length === 1 ? "" : "s"} (${out.unclaimed.slice(0, 10).join(", ")}${out.unclaimed.length > 10 ? ", …" : ""})`);
  // the log names the first few; the job record lists them all
  if (out.missing.length) console.error(`[files] ${out.missing.length} missing from ${dir}, their rows kept: ${out.missing.slice(0, 20).join("; ")}${out.missing.length > 20 ? "; …" : ""}`);
  await report(db, out);
  return out;
}

/** A job record for the admin when something moved or is missing; none when this start found what the last reported. */
async function report(db: Db, out: UpgradeOutcome): Promise<void> {
  if (!out.moved && !out.missing.length) return;
  const [last] = await db.select({ errors: jobs.errors }).from(jobs).where(eq(jobs.name, FILE_UPGRADE_JOB)).orderBy(desc(jobs.createdAt)).limit(1);
  if (!out.moved && last && JSON.stringify(last.errors) === JSON.stringify(out.missing)) return;
  const message = out.missing.length
    ? `File upgrade: ${out.moved} file${out.moved === 1 ? "" : "s"} moved into the file store; ${out.missing.length} referenced but missing (the rows are kept).`
    : `File upgrade: ${out.moved} file${out.moved === 1 ? "" : "s"} moved into the file store.`;
  await db.insert(jobs).values({ name: FILE_UPGRADE_JOB, status: out.missing.length ? "failed" : "complete", pctComplete: 100, message, errors: out.missing, info: { moved: out.moved, unclaimed: out.unclaimed } });
}
