/**
 * Untrusted spreadsheets (issue 35 finding 4, docs/decisions/024): an XLSX whose shared strings
 * inflate to 2 GB (2 to 6 MB on the wire, made here) through the template test run and through the
 * import. The test run answers 422 'The file is too large once unpacked' within seconds; the
 * import's job fails with that message and leaves no invoice and no stored file; the server's
 * memory stays bounded and it answers the next request. A 9 MB CSV cell (30.8 s of a web process
 * before) is refused quickly naming its line, through the test run and a bulk upload.
 */
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carriers, invoices, users } from "../../db/schema";
import { statFile } from "../../app/modules/files/index.server";
import type { Client, TestServer } from "../support/server";
import * as support from "../support/despatch";
import type { DespatchWorld } from "../support/despatch";
import { makeTemplate, postFiles } from "../support/invoice-import";
import { xlsxBomb } from "../support/xlsx-bomb";

let world: DespatchWorld;
let server: TestServer;
let admin: Client;
let csvTemplate = 0;
let xlsxTemplate = 0;

const steps = [
  { type: "NameColumns", options: { action: "ROW_INDEX", row: 1 } },
  { type: "MapFields", options: { mappings: [{ field: "invoice_number", column: "Inv" }, { field: "consignment_number", column: "Con" }], costs: [] } },
];
const TOO_LARGE = "The file is too large once unpacked";

beforeAll(async () => {
  world = await support.startDespatchWorld();
  server = world.server;
  admin = world.clients.admin;
  const [carrier] = await server.db.select({ id: carriers.id }).from(carriers).limit(1);
  csvTemplate = await makeTemplate(admin, { name: "Untrusted CSV", carrier_id: carrier!.id, format: "CSV", transformations: steps });
  xlsxTemplate = await makeTemplate(admin, { name: "Untrusted XLSX", carrier_id: carrier!.id, format: "XLSX", transformations: steps });
}, 120_000);
afterAll(() => server.close());

/** `work` with this process's RSS sampled every 20 ms: its result, its time and the RSS's largest growth in MB. */
async function measured<T>(work: () => Promise<T>) {
  const start = process.memoryUsage().rss;
  const started = Date.now();
  let peak = start;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  try {
    const result = await work();
    return { result, ms: Date.now() - started, growthMb: (Math.max(peak, process.memoryUsage().rss) - start) / 1024 / 1024 };
  } finally {
    clearInterval(sampler);
  }
}

const stillAnswers = async () => expect((await admin.json("/api/users/current")).status).toBe(200);

describe("an XLSX zip bomb", () => {
  it("through the template test run answers 422 quickly, with memory bounded, whether its directory states the size or lies about it", async () => {
    for (const [name, body] of [["stated.xlsx", xlsxBomb(2048)], ["lying.xlsx", xlsxBomb(2048, 65_536)]] as const) {
      expect(body.length).toBeLessThan(10 * 1024 * 1024);
      const { result: run, ms, growthMb } = await measured(() => postFiles(admin, "/api/carrier_invoice_configs/test_run", { id: String(xlsxTemplate) }, [{ field: "file", name, body }]));
      expect(run.status, JSON.stringify(run.body)).toBe(422);
      expect(run.body.errors.file).toEqual([TOO_LARGE]);
      expect(ms, name).toBeLessThan(15_000);
      // the bomb's 2 GB were never held: what grew is the upload itself and the request's own work
      expect(growthMb, name).toBeLessThan(200);
      await stillAnswers();
    }
  });

  it("through the import fails its job with that message, leaving no invoice and no stored file, and the server answers on", async () => {
    const res = await postFiles(admin, "/api/invoices/import", { config_id: String(xlsxTemplate) }, [{ name: "bomb.xlsx", body: xlsxBomb(2048, 65_536) }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { data } = await support.queuedJob(world, res.body.job_id);
    const [stored] = (data.files as { stored: string }[]).map((f) => f.stored);
    const { result: job, growthMb } = await measured(() => support.workJob(world, res.body.job_id, admin));
    expect(job.status, JSON.stringify(job)).toBe("failed");
    expect(job.errors).toEqual([`bomb.xlsx: ${TOO_LARGE}`]);
    expect(growthMb).toBeLessThan(200);
    expect(await statFile(server.db, stored!)).toBeNull();
    expect(await server.db.select().from(invoices).where(eq(invoices.originalFilePath, stored!))).toHaveLength(0);
    await stillAnswers();
  });
});

describe("a 9 MB CSV cell", () => {
  const huge = `Inv,Con\nI-1,"${"z".repeat(9 * 1024 * 1024)}"\nI-2,C2\n`;

  it("through the template test run is refused naming its line within seconds", async () => {
    const { result: run, ms } = await measured(() => postFiles(admin, "/api/carrier_invoice_configs/test_run", { id: String(csvTemplate) }, [{ field: "file", name: "huge.csv", body: huge }]));
    expect(run.status, JSON.stringify(run.body)).toBe(422);
    expect(run.body.errors.file).toEqual(["Line 2 is longer than 131,072 characters."]);
    expect(ms).toBeLessThan(10_000);
    await stillAnswers();
  });

  it("through a bulk upload is refused naming its line within seconds", async () => {
    await server.db.update(users).set({ canBulkupload: true }).where(inArray(users.email, ["despatcher@example.com"]));
    const despatcher = world.clients.despatcher;
    const started = Date.now();
    const res = await fetch(`${despatcher.base}/api/bulk_upload/import?type=consignment&filename=huge.csv`, {
      method: "POST",
      headers: { "content-type": "text/csv", Accept: "application/json", "X-Requested-With": "XMLHttpRequest", cookie: despatcher.cookie },
      body: `site_code,reference\nMEL,"${"z".repeat(9 * 1024 * 1024)}"\n`,
    });
    const body = (await res.json()) as { errors: { file: string[] } };
    expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(422);
    expect(body.errors.file).toEqual(["Line 2 has a cell longer than 32,767 characters."]);
    expect(Date.now() - started).toBeLessThan(10_000);
    await stillAnswers();
  });
});
