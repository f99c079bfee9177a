/**
 * @engines: PostgreSQL and PGlite in CI, because lines go in by COPY on PostgreSQL and by json_populate_recordset on PGlite.
 *
 * Carrier invoice templates and import (issue 18 part A): template CRUD validation and roles, the
 * test run's messages, a CSV import end to end, the duplicate invoice number refused, and a file
 * with a bad row leaving nothing behind.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carriers, invoiceCosts, invoiceDetails, invoices } from "../../db/schema";
import type { Client, TestServer } from "../support/server";
import * as support from "../support/despatch";
import type { DespatchWorld, Json } from "../support/despatch";
import { postFiles } from "../support/invoice-import";

let world: DespatchWorld;
let server: TestServer;
let admin: Client;
let despatcher: Client;
let configId = 0;

const template = (carrierId: number, name = "Test CSV") => ({
  name,
  carrier_id: carrierId,
  parser: { format: "CSV", sheets: [] },
  transformations: [
    { type: "NameColumns", options: { action: "ROW_INDEX", row: 1 } },
    { type: "DeleteRows", options: { action: "COLUMN_MATCH", column: "Con", pattern: "^total" } },
    { type: "MapFields", options: { mappings: [{ field: "invoice_number", column: "Inv" }, { field: "invoice_date", column: "Date" }, { field: "consignment_number", column: "Con" }], costs: [{ category: "freight_charge", column: "Freight" }, { category: "fuel_charge", column: "Fuel" }] } },
  ],
});

const post = (client: Client, path: string, fields: Record<string, string>, files: { field: string; name: string; text: string }[]) =>
  postFiles(client, path, fields, files.map((f) => ({ field: f.field, name: f.name, body: f.text })));

const CSV = "Inv,Date,Con,Freight,Fuel\nINV-100,03/02/2026,CN1,\"$1,000.00\",2.50\nINV-100,03/02/2026,CN2,5,\nINV-101,2026-02-04,CN3,7,1\n,,Total,1015.50,3.50\n";

beforeAll(async () => {
  world = await support.startDespatchWorld();
  server = world.server;
  ({ admin, despatcher } = world.clients);
  const [carrier] = await server.db.select({ id: carriers.id }).from(carriers).limit(1);
  const made = await admin.json<Json>("/api/carrier_invoice_configs", { method: "POST", json: template(carrier!.id) });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  configId = made.body.id;
}, 120_000);
afterAll(() => server.close());

describe("templates", () => {
  it("keeps MapFields last and refuses a bad template with the spec's message", async () => {
    const got = await admin.json<Json>(`/api/carrier_invoice_configs/${configId}`);
    expect(got.body.transformations.map((t: Json) => t.sequence)).toEqual([1, 2, 999999]);
    const bad = await admin.json<Json>("/api/carrier_invoice_configs", { method: "POST", json: { name: "", parser: { format: "PDF" }, transformations: [] } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.base).toEqual(["Carrier invoice import configuration failed to save."]);
    const denied = await despatcher.json<Json>("/api/carrier_invoice_configs", { method: "POST", json: template(1, "x") });
    expect(denied.status).toBe(403);
  });

  it("test runs a file: rows after each step, and the messages for a bad format and no rows", async () => {
    const run = await post(admin, "/api/carrier_invoice_configs/test_run", { id: String(configId) }, [{ field: "file", name: "a.csv", text: CSV }]);
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect(run.body.total_lines).toBe(3);
    expect(run.body.steps.map((s: Json) => s.rows.length)).toEqual([5, 4, 3]);
    const wrong = await post(admin, "/api/carrier_invoice_configs/test_run", { id: String(configId) }, [{ field: "file", name: "a.xlsx", text: CSV }]);
    expect(wrong.body.errors.file).toEqual(["Invalid file format"]);
    const none = await post(admin, "/api/carrier_invoice_configs/test_run", { id: String(configId) }, [{ field: "file", name: "a.csv", text: "Inv,Date,Con\n" }]);
    expect(none.body.errors.file).toEqual(["No rows present in import results."]);
    const broke = await post(admin, "/api/carrier_invoice_configs/test_run", { id: String(configId) }, [{ field: "file", name: "a.csv", text: "Inv,Date,Con,Freight\nI9,31/02/2026,CN1,1\n" }]);
    expect(broke.body.error).toMatch(/^Row 2: '31\/02\/2026' in column \S+ is not a date for the invoice date$/);
  });
});

describe("import", () => {
  it("imports invoices, lines and costs; refuses the same invoice number again; a bad file leaves nothing", async () => {
    const res = await post(admin, "/api/invoices/import", { config_id: String(configId) }, [{ field: "files[]", name: "inv.csv", text: CSV }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const job = await support.workJob(world, res.body.job_id, admin);
    expect(job.status, JSON.stringify(job)).toBe("complete");
    const made = await server.db.select().from(invoices).where(eq(invoices.configId, configId));
    expect(made.map((i) => [i.invoiceNumber, i.invoiceDate, i.total, i.state]).sort()).toEqual([
      ["INV-100", "2026-02-03", "1007.50", "unallocated"],
      ["INV-101", "2026-02-04", "8.00", "unallocated"],
    ]);
    const lines = await server.db.select().from(invoiceDetails).where(eq(invoiceDetails.invoiceId, made.find((i) => i.invoiceNumber === "INV-100")!.id));
    expect(lines.map((l) => [l.consignmentNumber, l.totalCost, l.state])).toEqual([
      ["CN1", "1002.50", "unallocated"],
      ["CN2", "5.00", "unallocated"],
    ]);
    expect(await server.db.select().from(invoiceCosts).where(eq(invoiceCosts.invoiceDetailId, lines[0]!.id))).toHaveLength(2);

    const file = await admin.request(`/api/invoices/${made[0]!.id}/original_file`);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe(CSV);
    // a customer's user sees only invoices holding their lines: none here
    expect((await despatcher.request(`/api/invoices/${made[0]!.id}/original_file`)).status).not.toBe(200);

    const again = await post(admin, "/api/invoices/import", { config_id: String(configId) }, [{ field: "files[]", name: "again.csv", text: CSV.replace("INV-101", "INV-102") }]);
    const refused = await support.workJob(world, again.body.job_id, admin);
    expect(refused.status).toBe("failed");
    expect(JSON.stringify(refused)).toContain("Invoice INV-100 from");
    expect(await server.db.select().from(invoices).where(eq(invoices.invoiceNumber, "INV-102"))).toHaveLength(0);

    const denied = await post(despatcher, "/api/invoices/import", { config_id: String(configId) }, [{ field: "files[]", name: "inv.csv", text: CSV }]);
    expect(denied.status).toBe(403);
  });
});
