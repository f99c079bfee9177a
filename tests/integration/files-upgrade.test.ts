/**
 * Upgrade without loss (issue 30 item 3, docs/decisions/030): at start, the documents the old code
 * kept under INVOICE_FILES_DIR move into the file store, linked to the rows that named them, and
 * leave the disk; a row naming a file that is gone is reported (log and a job record) and kept.
 * A second start does nothing. The test makes the old layout itself, in a temp directory.
 */
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "../../db/client.server";
import { carriers, files, invoices, jobs, reconciliationReports } from "../../db/schema";
import { createCustomer, createUser } from "../../db/seed/factories";
import { readWholeFile, statFile } from "../../app/modules/files/index.server";
import { FILE_UPGRADE_JOB, upgradeLegacyFiles } from "../../app/modules/files/upgrade.server";
import { loadBuild } from "../../server/build";
import { createTestDatabase, type TestDatabase } from "../support/database";

const legacy = (ext: string) => `${randomUUID()}.${ext}`;

/** The old layout: what `dir` held and the rows that named it. */
async function oldWorld(db: Db, dir: string) {
  const customer = await createCustomer(db);
  const user = await createUser(db, customer.id);
  const [carrier] = await db.insert(carriers).values({ name: `Old ${randomUUID().slice(0, 6)}`, code: `O${randomUUID().slice(0, 6)}` }).returning({ id: carriers.id });
  const names = { carrier: legacy("csv"), xlsx: legacy("xlsx"), pdf: legacy("pdf"), result: legacy("csv"), gone: legacy("csv"), gonePdf: legacy("pdf"), stray: legacy("csv"), sample: legacy("csv") };
  await mkdir(join(dir, "receivable"), { recursive: true });
  await mkdir(join(dir, "reconciliation-reports"), { recursive: true });
  await mkdir(join(dir, "samples"), { recursive: true });
  await writeFile(join(dir, names.carrier), "consignment,amount\nC1,10.00\n");
  await writeFile(join(dir, names.xlsx), Buffer.from([0x50, 0x4b, 3, 4, 1, 2, 3]));
  await writeFile(join(dir, "receivable", names.pdf), "%PDF-1.7 old invoice");
  await writeFile(join(dir, "reconciliation-reports", names.result), "line,result\n1,within\n");
  await writeFile(join(dir, names.stray), "no row names me");
  await writeFile(join(dir, "samples", names.sample), "a,b\n");
  const base = { accountingType: "payable" as const, invoiceDate: "2026-01-05", carrierId: carrier!.id, total: "10.00", state: "unallocated" as const };
  const rows = await db
    .insert(invoices)
    .values([
      // one carrier file made two invoices
      { ...base, invoiceNumber: `OLD-${names.carrier.slice(0, 6)}-1`, originalFileName: "march.csv", originalFilePath: names.carrier, originalFileType: "CSV" },
      { ...base, invoiceNumber: `OLD-${names.carrier.slice(0, 6)}-2`, originalFileName: "march.csv", originalFilePath: names.carrier, originalFileType: "CSV" },
      { ...base, invoiceNumber: `OLD-${names.xlsx.slice(0, 6)}`, originalFileName: "april.xlsx", originalFilePath: names.xlsx, originalFileType: "XLSX" },
      { ...base, invoiceNumber: `OLD-${names.gone.slice(0, 6)}`, originalFileName: "lost.csv", originalFilePath: names.gone, originalFileType: "CSV" },
      { ...base, accountingType: "receivable" as const, customerId: customer.id, carrierId: null, invoiceNumber: `R${names.pdf.slice(0, 6)}`, pdfPath: names.pdf, originalFileName: "x.pdf", originalFileType: "PDF" },
      { ...base, accountingType: "receivable" as const, customerId: customer.id, carrierId: null, invoiceNumber: `R${names.gonePdf.slice(0, 6)}`, pdfPath: names.gonePdf },
    ])
    .returning({ id: invoices.id, number: invoices.invoiceNumber });
  const [report] = await db
    .insert(reconciliationReports)
    .values({ userId: user.id, fileName: "june costs.csv", rerate: false, summary: { lines: 1 }, resultPath: names.result })
    .returning({ id: reconciliationReports.id });
  return { names, customer, ids: rows.map((r) => r.id), report: report!.id };
}

let t: TestDatabase;
let db: Db;
beforeAll(async () => {
  t = await createTestDatabase();
  db = t.database.db;
}, 120_000);
afterAll(() => t.drop());

describe("moving the old directory's documents into the file store at start", () => {
  it("moves each file once, linked to every row that named it, reports the rows whose file is gone and keeps them; a second start does nothing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "fd-old-invoice-files-"));
    try {
      const world = await oldWorld(db, dir);
      const [twoA, twoB, xlsx, lost, pdf, lostPdf] = world.ids;
      const logged: string[] = [];
      const errors = vi.spyOn(console, "error").mockImplementation(() => {});
      const first = await upgradeLegacyFiles(db, { dir, log: (l) => logged.push(l) });
      const errorLines = errors.mock.calls.map((c) => c.join(" "));
      errors.mockRestore();

      expect(first.moved).toBe(4);
      const rows = await db.select().from(invoices).where(inArray(invoices.id, world.ids));
      const row = (id: number) => rows.find((r) => r.id === id)!;
      // both invoices of one carrier file point at one stored file, named as uploaded
      expect(row(twoA!).originalFilePath).toBe(row(twoB!).originalFilePath);
      const carrierFile = (await statFile(db, row(twoA!).originalFilePath!))!;
      expect(carrierFile).toMatchObject({ kind: "carrier_invoice", name: "march.csv", contentType: "text/csv", customerId: null, expiresAt: null });
      expect((await readWholeFile(db, carrierFile)).toString()).toBe("consignment,amount\nC1,10.00\n");
      const xlsxFile = (await statFile(db, row(xlsx!).originalFilePath!))!;
      expect(xlsxFile.name).toBe("april.xlsx");
      expect([...(await readWholeFile(db, xlsxFile))]).toEqual([0x50, 0x4b, 3, 4, 1, 2, 3]);
      // the PDF is its customer's, as one made now is
      const pdfFile = (await statFile(db, row(pdf!).pdfPath!))!;
      expect(pdfFile).toMatchObject({ kind: "customer_invoice_pdf", contentType: "application/pdf", customerId: world.customer.id, name: `invoice-${row(pdf!).invoiceNumber}.pdf` });
      expect((await readWholeFile(db, pdfFile)).toString()).toBe("%PDF-1.7 old invoice");
      const [report] = await db.select().from(reconciliationReports).where(eq(reconciliationReports.id, world.report));
      const resultFile = (await statFile(db, report!.resultPath!))!;
      expect(resultFile).toMatchObject({ kind: "reconciliation_result", name: "june_costs_result.csv", customerId: world.customer.id });
      expect((await readWholeFile(db, resultFile)).toString()).toBe("line,result\n1,within\n");

      // the rows whose file is gone stay as they were, reported in the log and the admin's job record
      expect(row(lost!).originalFilePath).toBe(world.names.gone);
      expect(row(lostPdf!).pdfPath).toBe(world.names.gonePdf);
      expect(first.missing).toHaveLength(2);
      expect(first.missing.join("\n")).toContain(world.names.gone);
      expect(first.missing.join("\n")).toContain(`receivable/${world.names.gonePdf}`);
      expect(errorLines.join("\n")).toContain(world.names.gone);
      const reports = await db.select().from(jobs).where(eq(jobs.name, FILE_UPGRADE_JOB));
      expect(reports).toHaveLength(1);
      expect(reports[0]).toMatchObject({ status: "failed", errors: first.missing });
      expect(reports[0]!.message).toBe("File upgrade: 4 files moved into the file store; 2 referenced but missing (the rows are kept).");
      expect(logged.join("\n")).toContain("moved 4 files");

      // the moved files and the hour's samples left the disk; a file no row names is left where it was
      expect(first.unclaimed).toEqual([world.names.stray]);
      expect(logged.join("\n")).toContain(world.names.stray);
      expect(await readdir(dir)).toEqual([world.names.stray]);
      expect(existsSync(join(dir, "receivable"))).toBe(false);

      // a second start: nothing moved, nothing stored, no second record
      const filesBefore = (await db.select({ id: files.id }).from(files)).length;
      const again = await upgradeLegacyFiles(db, { dir, log: () => {} });
      expect(again).toMatchObject({ moved: 0, missing: first.missing, unclaimed: first.unclaimed });
      expect((await db.select({ id: files.id }).from(files)).length).toBe(filesBefore);
      expect(await db.select().from(jobs).where(eq(jobs.name, FILE_UPGRADE_JOB))).toHaveLength(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it.skipIf(!process.env.DATABASE_URL)("is part of the start's preparation, from INVOICE_FILES_DIR", async () => {
    const dir = await mkdtemp(join(tmpdir(), "fd-old-invoice-files-"));
    const before = process.env.INVOICE_FILES_DIR;
    try {
      const pdf = legacy("pdf");
      await mkdir(join(dir, "receivable"), { recursive: true });
      await writeFile(join(dir, "receivable", pdf), "%PDF-1.7 prepared");
      const customer = await createCustomer(db);
      const [inv] = await db
        .insert(invoices)
        .values({ accountingType: "receivable", customerId: customer.id, invoiceNumber: `P${pdf.slice(0, 6)}`, invoiceDate: "2026-01-05", total: "1.00", state: "unallocated", pdfPath: pdf })
        .returning({ id: invoices.id });
      process.env.INVOICE_FILES_DIR = dir;
      const { entry } = await loadBuild(join(import.meta.dirname, "../.."));
      const prepared = await entry.prepareDatabase({ DATABASE_URL: t.database.url, SEED_DEMO: "0" }, () => {});
      await prepared.close();
      const [row] = await db.select({ pdfPath: invoices.pdfPath }).from(invoices).where(eq(invoices.id, inv!.id));
      expect((await readWholeFile(db, (await statFile(db, row!.pdfPath!))!)).toString()).toBe("%PDF-1.7 prepared");
      expect(existsSync(join(dir, "receivable", pdf))).toBe(false);
    } finally {
      if (before === undefined) delete process.env.INVOICE_FILES_DIR;
      else process.env.INVOICE_FILES_DIR = before;
      await rm(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
