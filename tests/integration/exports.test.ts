import { eq, inArray } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consignments, customers, files, jobs, sites, userSites, users } from "../../db/schema";
import { createAddress } from "../../db/seed/factories";
import { COST_HEADERS, exportHeaders } from "../../app/modules/exports/columns";
import { MESSAGES } from "../../app/modules/exports/criteria";
import { KEEP_DAYS, writeExportFile } from "../../app/modules/exports/files.server";
import { OUT_OF_MEMORY, runExportJob } from "../../app/modules/exports/thread.server";
import { FILE_MISSING, readWholeFile, type StoredFile } from "../../app/modules/files/index.server";
import { Client, type TestServer } from "../support/server";
import * as support from "../support/despatch";
import type { DespatchWorld, Json } from "../support/despatch";

/** The export report (issue 15 item 4): criteria, scope, both formats through the job, downloads. */
let world: DespatchWorld;
let server: TestServer;
let tester: Client;
let acmeId = 0;
let testId = 0;

const EVIL = '=HYPERLINK("http://evil.example","x")';
const RANGE = { from_date: "01/08/2026", to_date: "31/10/2026" };

/** One consignment straight into the table, despatched on `date` from `site` (a code). */
async function consignment(customerId: number, site: string, number: string, date: string, over: Partial<typeof consignments.$inferInsert> = {}) {
  const [s] = await server.db.select().from(sites).where(eq(sites.code, site));
  const receiver = await createAddress(server.db, customerId, { name: number === "MELX1" ? EVIL : `Receiver of ${number}`, locality: "SYDNEY", region: "NSW", postcode: "2000" });
  await server.db.insert(consignments).values({
    customerId,
    siteId: s!.id,
    state: "despatched",
    consignmentNumber: number,
    reference: number === "MELX1" ? "@SUM(A1)" : `PO-${number}`,
    despatchDate: date,
    receiverAddressId: receiver.id,
    itemCount: 2,
    totalWeight: "12.500",
    totalVolume: "0.2500",
    serviceRate: "110.00",
    serviceRateExclGst: "100.00",
    ...over,
  });
}

/** Asks for an export as `client`, plays the worker, and downloads the file. */
async function exportFile(client: Client, query: string, body: Record<string, unknown>) {
  const queued = await client.json<Json>(`/api/exports?${query}`, { json: body });
  expect(queued.status, JSON.stringify(queued.body)).toBe(202);
  const status = await support.workJob(world, queued.body.job_id, client);
  expect(status.status, JSON.stringify(status)).toBe("complete");
  const res = await client.request(`/api/exports/${queued.body.job_id}/download`);
  expect(res.status).toBe(200);
  return { jobId: queued.body.job_id as string, res, bytes: Buffer.from(await res.arrayBuffer()) };
}

const csvLines = (bytes: Buffer) => bytes.toString("utf8").replace(/^\uFEFF/, "").trim().split(/\r?\n/);
const numbersIn = (lines: string[]) => lines.slice(1).map((l) => l.split(",")[0]);

async function sheetOf(bytes: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  return workbook.worksheets[0]!;
}

beforeAll(async () => {
  world = await support.startDespatchWorld();
  server = world.server;
  await server.db.update(users).set({ canExport: true }).where(inArray(users.email, ["despatcher@example.com", "admin@example.com", "customerservice@example.com", "tester@example.com"]));
  const ids = async (code: string) => (await server.db.select({ id: customers.id }).from(customers).where(eq(customers.code, code)))[0]!.id;
  acmeId = await ids("ACME");
  testId = await ids("TESTCO");
  const detail = {
    sell: [
      { category: "freight_charge", description: "Freight", amount: 70 },
      { category: "fuel_charge", description: "Fuel", amount: 20 },
      { category: "remote_surcharge", description: "Remote", amount: 10 },
      { category: "gst", description: "GST 10%", amount: 10 },
    ],
    buy: [
      { category: "freight_charge", description: "Freight", amount: 50 },
      { category: "fuel_charge", description: "Fuel", amount: 15 },
    ],
    total_sell: 100,
    total_buy: 65,
    total_sell_incl_gst: 110,
  };
  // made half an hour before midnight UTC: the created date is the UTC day, whatever the session's zone
  await consignment(acmeId, "MEL", "MELX1", "2026-08-10", { createdAt: new Date("2026-08-09T23:30:00Z") });
  await consignment(acmeId, "SYD", "SYDX1", "2026-09-15", { ratingDetail: detail });
  await consignment(acmeId, "LAX", "LAXX1", "2026-09-16");
  await consignment(acmeId, "MEL", "QUOTE1", "2026-08-11", { isQuote: true, state: "quote" });
  await consignment(acmeId, "MEL", "DEL1", "2026-08-12", { active: false, state: "deleted" });
  await consignment(acmeId, "MEL", "OLD1", "2026-01-05");
  await consignment(testId, "TST", "TSTX1", "2026-08-10");
  // the other customer's user works at its site
  const [testerRow] = await server.db.select({ id: users.id }).from(users).where(eq(users.email, "tester@example.com"));
  const [tst] = await server.db.select({ id: sites.id }).from(sites).where(eq(sites.code, "TST"));
  await server.db.insert(userSites).values({ userId: testerRow!.id, siteId: tst!.id });
  tester = world.clients.tester;
}, 300_000);
afterAll(() => server.close());

describe("export report", () => {
  it("CSV: the user's customer and sites only, in date order, with the documented columns and formulas neutralised", async () => {
    const { res, bytes } = await exportFile(world.clients.despatcher, "format=csv", RANGE);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="consignments-2026-08-01-to-2026-10-31.csv"');
    const lines = csvLines(bytes);
    expect(lines[0]).toBe(exportHeaders(false).join(","));
    // LAX is not the despatcher's site; quotes, deleted, out of range and another customer's never appear
    expect(numbersIn(lines)).toEqual(["MELX1", "SYDX1"]);
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(lines[1]).toContain(",'@SUM(A1),");
    expect(lines[1]).toContain(",10/08/2026,");
    const created = exportHeaders(false).indexOf("Created date");
    // no quoted comma comes before it (the receiver's is later)
    expect(lines[1]!.split(",")[created]).toBe("09/08/2026");
    // the last column is kg CO2e: empty for a consignment inserted without a stored figure
    expect(lines[1]).toMatch(/,2,12\.5,0\.25,100,10,110,$/);
  });

  it("an export with nothing in range still has its header line", async () => {
    const { bytes } = await exportFile(world.clients.despatcher, "format=csv", { from_date: "01/01/2025", to_date: "31/01/2025" });
    expect(csvLines(bytes)).toEqual([exportHeaders(false).join(",")]);
  });

  it("one site of theirs narrows the export; another site is a field error", async () => {
    const { bytes } = await exportFile(world.clients.despatcher, "format=csv", { ...RANGE, site_code: "syd" });
    expect(numbersIn(csvLines(bytes))).toEqual(["SYDX1"]);
    const refused = await world.clients.despatcher.json<Json>("/api/exports?format=csv", { json: { ...RANGE, site_code: "LAX" } });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.site_code).toEqual([MESSAGES.unknownSite]);
  });

  it("another customer's user sees only their own customer's consignments", async () => {
    const { bytes } = await exportFile(tester, "format=csv", RANGE);
    expect(numbersIn(csvLines(bytes))).toEqual(["TSTX1"]);
  });

  it("XLSX new export (admin): every site, numbers as numbers, cost lines by category, formulas neutralised", async () => {
    const { res, bytes } = await exportFile(world.clients.admin, "format=xlsx&new_export=true", RANGE);
    expect(res.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(res.headers.get("content-disposition")).toContain("consignments-costs-2026-08-01-to-2026-10-31.xlsx");
    const sheet = await sheetOf(bytes);
    const headers = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(headers).toEqual(exportHeaders(true));
    expect(headers.slice(-COST_HEADERS.length)).toEqual(COST_HEADERS);
    const col = (name: string) => headers.indexOf(name) + 1;
    const numbers = [2, 3, 4].map((r) => sheet.getRow(r).getCell(1).value);
    expect(numbers).toEqual(["MELX1", "SYDX1", "LAXX1"]);
    expect(sheet.rowCount).toBe(4);
    expect(sheet.getRow(2).getCell(col("Receiver")).value).toBe(`'${EVIL}`);
    expect(sheet.getRow(2).getCell(col("Reference")).value).toBe("'@SUM(A1)");
    expect(sheet.getRow(2).getCell(col("Weight (kg)")).value).toBe(12.5);
    expect(sheet.getRow(2).getCell(col("Price incl GST")).value).toBe(110);
    const syd = sheet.getRow(3);
    expect(syd.getCell(col("Sell Freight charge")).value).toBe(70);
    expect(syd.getCell(col("Sell Fuel charge")).value).toBe(20);
    expect(syd.getCell(col("Sell Remote surcharge")).value).toBe(10);
    expect(syd.getCell(col("Sell total excl GST")).value).toBe(100);
    expect(syd.getCell(col("Buy Freight charge")).value).toBe(50);
    expect(syd.getCell(col("Buy total")).value).toBe(65);
  });

  it("XLSX plain export has no cost columns", async () => {
    const { bytes } = await exportFile(world.clients.despatcher, "format=xlsx", RANGE);
    const sheet = await sheetOf(bytes);
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(exportHeaders(false));
    expect(sheet.getRow(2).getCell(exportHeaders(false).indexOf("Receiver") + 1).value).toBe(`'${EVIL}`);
  });

  it("from and to are required, and well formed", async () => {
    const res = await world.clients.despatcher.json<Json>("/api/exports?format=csv", { json: {} });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ from_date: [MESSAGES.fromRequired], to_date: [MESSAGES.toRequired] });
    const bad = await world.clients.despatcher.json<Json>("/api/exports?format=pdf", { json: { from_date: "31/02/2026", to_date: "x" } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.format).toEqual([MESSAGES.format]);
  });

  it("non-admins are limited to 3 months; admins are not", async () => {
    const wide = { from_date: "01/06/2026", to_date: "02/09/2026" };
    const res = await world.clients.despatcher.json<Json>("/api/exports", { json: wide });
    expect(res.status).toBe(422);
    expect(res.body.errors.to_date).toEqual(["Date range can not be greater than 3 months"]);
    expect((await world.clients.despatcher.json<Json>("/api/exports", { json: { from_date: "01/06/2026", to_date: "01/09/2026" } })).status).toBe(202);
    expect((await world.clients.admin.json<Json>("/api/exports", { json: wide })).status).toBe(202);
  });

  it("refuses users without can_export, and New Export to all but admins and super admins", async () => {
    expect((await world.clients.superDespatcher.json<Json>("/api/exports", { json: RANGE })).status).toBe(403);
    expect((await world.clients.despatcher.json<Json>("/api/exports?new_export=true", { json: RANGE })).status).toBe(403);
    expect((await world.clients.customerService.json<Json>("/api/exports?new_export=true", { json: RANGE })).status).toBe(403);
    expect((await world.clients.superDespatcher.request("/export")).status).toBe(302);
  });

  it("only the user who ran an export downloads it", async () => {
    const { jobId } = await exportFile(world.clients.despatcher, "format=csv", RANGE);
    expect((await world.clients.admin.json(`/api/exports/${jobId}/download`)).status).toBe(404);
    expect((await tester.json(`/api/exports/${jobId}/download`)).status).toBe(404);
    expect((await world.clients.despatcher.json("/api/exports/not-a-job/download")).status).toBe(404);
  });

  it("stores the file in the file store (a row, not a disk), expiring after KEEP_DAYS; the download reads it from there", async () => {
    const { jobId, bytes } = await exportFile(world.clients.despatcher, "format=csv", RANGE);
    const [job] = await server.db.select({ info: jobs.info }).from(jobs).where(eq(jobs.id, jobId));
    const fileId = (job!.info as { file: string }).file;
    const [file] = await server.db.select().from(files).where(eq(files.id, fileId));
    expect(file).toMatchObject({ kind: "export", customerId: acmeId, name: "consignments-2026-08-01-to-2026-10-31.csv", size: bytes.length });
    expect(Math.abs(file!.expiresAt!.getTime() - file!.createdAt.getTime() - KEEP_DAYS * 86_400_000)).toBeLessThan(60_000);
    expect(await readWholeFile(server.db, file as StoredFile)).toEqual(bytes);
    // gone from the store (the nightly cleanup removed it): the download says so, whatever any disk holds
    await server.db.delete(files).where(eq(files.id, fileId));
    const gone = await world.clients.despatcher.json<Json>(`/api/exports/${jobId}/download`);
    expect(gone.status).toBe(404);
    expect(gone.body.errors.base).toEqual([FILE_MISSING]);
  });

  it("an export that fails part way leaves no file in the store, in either format", async () => {
    const exportsStored = async () => (await server.db.select({ id: files.id }).from(files).where(eq(files.kind, "export"))).map((f) => f.id).sort();
    const before = await exportsStored();
    for (const format of ["csv", "xlsx"] as const) {
      const failing = writeExportFile(server.db, { format, name: `failing.${format}`, customerId: acmeId }, ["Consignment"], async (writer) => {
        // more than one of the store's chunks, so some were written before the failure
        for (let i = 0; i < 40_000; i++) await writer.write([`CN${i}`.padEnd(40, "x")]);
        throw new Error("the database went away");
      });
      await expect(failing).rejects.toThrow("the database went away");
    }
    expect(await exportsStored()).toEqual(before);
  }, 120_000);

  it.skipIf(!process.env.DATABASE_URL)("on PostgreSQL the job runs in a thread with its own heap: the same file as in process, and one out of memory fails cleanly, leaving no file", async () => {
    const url = server.test.database.url!;
    const acmeSites = (await server.db.select({ id: sites.id }).from(sites).where(eq(sites.customerId, acmeId))).map((s) => s.id);
    const payload = { customerId: acmeId, siteIds: acmeSites, from: "2026-08-01", to: "2026-10-31", format: "csv" as const, newExport: true };
    const noProgress = async () => {};
    const threaded = await runExportJob(server.db, url, payload, noProgress);
    const inProcess = await runExportJob(server.db, undefined, payload, noProgress);
    expect(threaded.rows).toBe(3);
    const bytes = async (id: string) => readWholeFile(server.db, (await server.db.select().from(files).where(eq(files.id, id)))[0] as StoredFile);
    expect((await bytes(threaded.file)).equals(await bytes(inProcess.file))).toBe(true);

    const exportsStored = async () => (await server.db.select({ id: files.id }).from(files).where(eq(files.kind, "export"))).length;
    const before = await exportsStored();
    await expect(runExportJob(server.db, url, payload, noProgress, { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 })).rejects.toThrow(OUT_OF_MEMORY);
    expect(await exportsStored()).toBe(before);
  }, 120_000);

  it("an export is read in the scope it was made in: its maker working for another customer gets a 404", async () => {
    const { jobId } = await exportFile(world.clients.admin, "format=csv", RANGE);
    const [admin] = await server.db.select({ id: users.id }).from(users).where(eq(users.email, "admin@example.com"));
    try {
      // staff switched to another customer: the Acme file is not theirs to read there
      await server.db.update(users).set({ currentCustomerId: testId }).where(eq(users.id, admin!.id));
      expect((await world.clients.admin.json(`/api/exports/${jobId}/download`)).status).toBe(404);
    } finally {
      await server.db.update(users).set({ currentCustomerId: null }).where(eq(users.id, admin!.id));
    }
    expect((await world.clients.admin.request(`/api/exports/${jobId}/download`)).status).toBe(200);
  });

  it("the screen: the form posts without JavaScript and the job's page shows the download link; New Export only for admins", async () => {
    const page = await (await world.clients.despatcher.request("/export")).text();
    expect(page).toContain('name="from_date"');
    expect(page).not.toContain("New Export");
    expect(await (await world.clients.admin.request("/export")).text()).toContain("New Export");
    const posted = await world.clients.despatcher.request("/export", { form: { site_code: "ALL", ...RANGE, format: "csv" }, headers: { "X-Requested-With": "" } });
    expect(posted.status).toBe(302);
    const location = posted.headers.get("location")!;
    expect(location).toMatch(/^\/export\?job=[0-9a-f-]{36}$/);
    const jobId = location.split("=")[1]!;
    expect(await (await world.clients.despatcher.request(location)).text()).toContain("Refresh");
    await support.workJob(world, jobId);
    expect(await (await world.clients.despatcher.request(location)).text()).toContain(`/api/exports/${jobId}/download`);
    const refused = await world.clients.despatcher.request("/export", { form: { site_code: "ALL", from_date: "", to_date: "01/09/2026" }, headers: { "X-Requested-With": "" } });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain(MESSAGES.fromRequired);
  });
});
