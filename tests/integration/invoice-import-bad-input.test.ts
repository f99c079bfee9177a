/**
 * Carrier invoice import of files that are wrong (issue 18, docs/decisions/019 "Import (part A)"):
 * a bad row refuses its whole file by row and step and leaves nothing, while the other file of
 * the same upload is imported (each file is its own transaction); a file over the size limit, of
 * the wrong type, empty or with no line, refused with a JSON message and never a 500.
 */
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carriers, invoiceDetails, invoices, jobs } from "../../db/schema";
import { statFile } from "../../app/modules/files/index.server";
import type { Client, TestServer } from "../support/server";
import * as support from "../support/despatch";
import type { DespatchWorld } from "../support/despatch";
import { makeTemplate, postFiles, xlsxOf, type Upload } from "../support/invoice-import";

let world: DespatchWorld;
let server: TestServer;
let admin: Client;
let csvTemplate = 0;
let xlsxTemplate = 0;

const steps = [
  { type: "NameColumns", options: { action: "ROW_INDEX", row: 1 } },
  { type: "EditValues", options: { action: "WEEKS_TO_DATE", column: "Week", to: "Sent" } },
  { type: "MapFields", options: { mappings: [{ field: "invoice_number", column: "Inv" }, { field: "consignment_number", column: "Con" }, { field: "despatch_date", column: "Sent" }], costs: [{ category: "freight_charge", column: "Freight" }] } },
];

const upload = (config: number, files: Upload[]) => postFiles(admin, "/api/invoices/import", { config_id: String(config) }, files);
const invoicesNumbered = (numbers: string[]) => server.db.select().from(invoices).where(inArray(invoices.invoiceNumber, numbers));

beforeAll(async () => {
  world = await support.startDespatchWorld();
  server = world.server;
  admin = world.clients.admin;
  const [carrier] = await server.db.select({ id: carriers.id }).from(carriers).limit(1);
  csvTemplate = await makeTemplate(admin, { name: "Bad input CSV", carrier_id: carrier!.id, format: "CSV", transformations: steps });
  xlsxTemplate = await makeTemplate(admin, { name: "Bad input XLSX", carrier_id: carrier!.id, format: "XLSX", transformations: steps });
}, 120_000);
afterAll(() => server.close());

describe("a file with a bad row", () => {
  it("is refused whole, naming the row, the column and what is wrong, and leaves no invoice and no stored file; the other file of the upload is imported", async () => {
    const bad = "Inv,Con,Week,Freight\nB-1,BC1,2026-W07,10\nB-1,BC2,2026-W99,11\nB-2,BC3,2026-W08,12\n";
    const good = "Inv,Con,Week,Freight\nG-1,GC1,2026-W07,10\nG-1,GC2,2026-W08,11\n";
    const res = await upload(csvTemplate, [{ name: "bad.csv", body: bad }, { name: "good.csv", body: good }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { data } = await support.queuedJob(world, res.body.job_id);
    const [badFile, goodFile] = (data.files as { stored: string }[]).map((f) => f.stored);
    const job = await support.workJob(world, res.body.job_id, admin);
    // the job ends failed, its error a sentence about the file's row (issue 31 #6: no step or field name); the good file counted
    expect(job.status).toBe("failed");
    expect(job.errors).toHaveLength(1);
    expect(job.errors[0]).toBe("bad.csv: Row 3: '2026-W99' in column Week is not a week (such as 2026-W07)");
    expect(job.message).toBe("Imported 1 of 2 files: 1 invoice, 2 lines.");
    expect(job.info.files.map((f: { name: string; lines: number }) => [f.name, f.lines])).toEqual([["bad.csv", 0], ["good.csv", 2]]);

    expect(await invoicesNumbered(["B-1", "B-2"])).toHaveLength(0);
    expect(await server.db.select().from(invoiceDetails).where(inArray(invoiceDetails.consignmentNumber, ["BC1", "BC2", "BC3"]))).toHaveLength(0);
    expect(await statFile(server.db, badFile!)).toBeNull();

    const [g] = await invoicesNumbered(["G-1"]);
    expect(g?.originalFilePath).toBe(goodFile);
    // kept for good by the transaction that made its invoices (it expired until then)
    expect(await statFile(server.db, goodFile!)).toMatchObject({ name: "good.csv", expiresAt: null });
    const lines = await server.db.select().from(invoiceDetails).where(eq(invoiceDetails.invoiceId, g!.id)).orderBy(invoiceDetails.lineNumber);
    expect(lines.map((l) => [l.consignmentNumber, l.despatchDate])).toEqual([["GC1", "2026-02-09"], ["GC2", "2026-02-16"]]);
  });

  it("names a bad amount by row and the MapFields step in an XLSX, after 2,000 good lines had been written", async () => {
    const rows: unknown[][] = [["Inv", "Con", "Week", "Freight"]];
    for (let i = 0; i < 2_500; i++) rows.push(["X-9", `XB${i}`, "2026-W07", i === 2_400 ? "ten dollars" : 5]);
    const res = await upload(xlsxTemplate, [{ name: "late.xlsx", body: await xlsxOf(rows) }]);
    const job = await support.workJob(world, res.body.job_id, admin);
    expect(job.status).toBe("failed");
    expect(job.errors[0]).toMatch(/^late\.xlsx: Row 2402 of sheet Invoice: /);
    // the first chunk of lines was written before the bad row was met: the rollback took it
    expect(await invoicesNumbered(["X-9"])).toHaveLength(0);
    expect(await server.db.select().from(invoiceDetails).where(eq(invoiceDetails.consignmentNumber, "XB0"))).toHaveLength(0);
  });
});

describe("files refused", () => {
  const jobCount = async () => (await server.db.select({ id: jobs.id }).from(jobs)).length;

  it("refuses a file over the size limit with the JSON message, both when the body says so and when the file itself is just over", async () => {
    const before = await jobCount();
    const huge = await upload(csvTemplate, [{ name: "huge.csv", body: "x".repeat(11 * 1024 * 1024) }]);
    expect(huge.status).toBe(413);
    expect(huge.body.errors.file).toEqual(["The file is larger than 10 MB."]);
    const over = await upload(csvTemplate, [{ name: "over.csv", body: "x".repeat(10 * 1024 * 1024 + 1) }]);
    expect(over.status).toBe(422);
    expect(over.body.errors.files).toEqual(["The file is larger than 10 MB."]);
    expect(await jobCount()).toBe(before);
  });

  it("refuses a file named for another format at upload, and one whose bytes are another format when the job reads it", async () => {
    const named = await upload(csvTemplate, [{ name: "invoice.pdf", body: "%PDF-1.4", type: "application/pdf" }]);
    expect(named.status).toBe(422);
    expect(named.body.errors.files).toEqual(["Invalid file format"]);
    const xlsxAsCsv = await upload(csvTemplate, [{ name: "renamed.csv", body: await xlsxOf([["Inv"], ["Z-1"]]) }]);
    expect(xlsxAsCsv.status).toBe(200);
    const job = await support.workJob(world, xlsxAsCsv.body.job_id, admin);
    expect(job.status).toBe("failed");
    expect(job.errors).toEqual(["renamed.csv: Invalid file format"]);
    expect(await invoicesNumbered(["Z-1"])).toHaveLength(0);
  });

  it("refuses an empty file at upload, and a file with a header and no line when the job reads it", async () => {
    const empty = await upload(csvTemplate, [{ name: "empty.csv", body: "" }]);
    expect(empty.status).toBe(422);
    expect(empty.body.errors.files).toEqual(["The file is empty."]);
    const headerOnly = await upload(csvTemplate, [{ name: "header.csv", body: "Inv,Con,Week,Freight\n" }]);
    const job = await support.workJob(world, headerOnly.body.job_id, admin);
    expect(job.status).toBe("failed");
    expect(job.errors).toEqual(["header.csv: No rows present in import results."]);
    expect(job.message).toBe("Imported 0 of 1 file: 0 invoices, 0 lines.");
  });
});
