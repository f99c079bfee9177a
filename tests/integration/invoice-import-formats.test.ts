/**
 * @engines: PostgreSQL and PGlite in CI, because PGlite's one connection holds progress writes until the file's transaction ends.
 *
 * Carrier invoice import over HTTP in every format (issue 18): XLSX and XLS files made here, a
 * formula's cached value, dates in three formats and amounts with currency signs and thousands
 * separators in one CSV, progress within a large file, and who may fetch an imported file back.
 */
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carriers, customers, invoiceCosts, invoiceDetails, invoices } from "../../db/schema";
import { importDoneMessage, runInvoiceImport, PROGRESS_EVERY_MS } from "../../app/modules/invoices/import.server";
import { runJob } from "../../queues/queue.server";
import { rowsOf } from "../../app/utils/sql-rows";
import { FINANCE_ACCESS_MESSAGES } from "../../app/modules/invoices/access";
import { Client, type TestServer } from "../support/server";
import * as support from "../support/despatch";
import type { DespatchWorld } from "../support/despatch";
import { makeTemplate, postFiles, xlsOf, xlsxOf } from "../support/invoice-import";

let world: DespatchWorld;
let server: TestServer;
let admin: Client;
let finance: Client;
let carrierId = 0;
const templates = {} as Record<"CSV" | "XLSX" | "XLS", number>;

const HEADER = ["Inv", "Date", "Con", "Sent", "Freight", "Fuel"];
const steps = [
  { type: "NameColumns", options: { action: "ROW_INDEX", row: 1 } },
  {
    type: "MapFields",
    options: {
      mappings: [{ field: "invoice_number", column: "Inv" }, { field: "invoice_date", column: "Date" }, { field: "consignment_number", column: "Con" }, { field: "despatch_date", column: "Sent" }],
      costs: [{ category: "freight_charge", column: "Freight" }, { category: "fuel_charge", column: "Fuel" }],
    },
  },
];

/** An import through POST /api/invoices/import and its job; answers the job status. */
async function importFiles(format: keyof typeof templates, files: { name: string; body: string | Uint8Array }[]) {
  const res = await postFiles(admin, "/api/invoices/import", { config_id: String(templates[format]) }, files);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return support.workJob(world, res.body.job_id, admin);
}

/** Each line of the invoice numbered `number`: consignment, despatch date, total and its costs. */
async function linesOf(number: string) {
  const [inv] = await server.db.select().from(invoices).where(eq(invoices.invoiceNumber, number));
  expect(inv, `invoice ${number}`).toBeTruthy();
  const lines = await server.db.select().from(invoiceDetails).where(eq(invoiceDetails.invoiceId, inv!.id)).orderBy(invoiceDetails.lineNumber);
  const costs = lines.length ? await server.db.select().from(invoiceCosts).where(inArray(invoiceCosts.invoiceDetailId, lines.map((l) => l.id))) : [];
  return {
    invoice: { date: inv!.invoiceDate, total: inv!.total, type: inv!.originalFileType },
    lines: lines.map((l) => [l.consignmentNumber, l.despatchDate, l.totalCost, costs.filter((c) => c.invoiceDetailId === l.id).map((c) => `${c.category} ${c.amount}`).sort()]),
  };
}

beforeAll(async () => {
  world = await support.startDespatchWorld();
  server = world.server;
  admin = world.clients.admin;
  finance = new Client(server.url);
  expect((await finance.signIn("finance@example.com")).status).toBe(200);
  const [carrier] = await server.db.select({ id: carriers.id }).from(carriers).limit(1);
  carrierId = carrier!.id;
  for (const format of ["CSV", "XLSX", "XLS"] as const) templates[format] = await makeTemplate(admin, { name: `Formats ${format}`, carrier_id: carrierId, format, transformations: steps });
}, 120_000);
afterAll(() => server.close());

describe("spreadsheets over HTTP", () => {
  it("imports an XLSX: invoices, lines and cost lines, a formula's cached value and a date cell", async () => {
    const file = await xlsxOf([
      HEADER,
      ["X-1", new Date(Date.UTC(2026, 1, 3)), "XC1", new Date(Date.UTC(2026, 1, 2)), 10.5, { formula: "E2*0.1", result: 1.05 }],
      ["X-1", new Date(Date.UTC(2026, 1, 3)), "XC2", "2026-02-01", { formula: "E2+2", result: 12.5 }, ""],
      ["X-2", "04/02/2026", "XC3", "01/02/2026", 7, 0],
    ]);
    const job = await importFiles("XLSX", [{ name: "carrier.xlsx", body: file }]);
    expect(job.status, JSON.stringify(job)).toBe("complete");
    expect(job.message).toBe("Imported 1 of 1 file: 2 invoices, 3 lines.");
    expect(await linesOf("X-1")).toEqual({
      invoice: { date: "2026-02-03", total: "24.05", type: "XLSX" },
      lines: [
        ["XC1", "2026-02-02", "11.55", ["freight_charge 10.50", "fuel_charge 1.05"]],
        // the formula's value as the spreadsheet last calculated it
        ["XC2", "2026-02-01", "12.50", ["freight_charge 12.50"]],
      ],
    });
    expect(await linesOf("X-2")).toEqual({ invoice: { date: "2026-02-04", total: "7.00", type: "XLSX" }, lines: [["XC3", "2026-02-01", "7.00", ["freight_charge 7.00"]]] });
  });

  it("imports a legacy XLS", async () => {
    const file = xlsOf([HEADER, ["L-1", new Date(Date.UTC(2026, 2, 9)), "LC1", "9-Mar-2026", 20, 2.2], ["L-1", "09/03/2026", "LC2", "2026-03-08", "$1,000.00", ""]]);
    const job = await importFiles("XLS", [{ name: "legacy.xls", body: file }]);
    expect(job.status, JSON.stringify(job)).toBe("complete");
    expect(await linesOf("L-1")).toEqual({
      invoice: { date: "2026-03-09", total: "1022.20", type: "XLS" },
      lines: [
        ["LC1", "2026-03-09", "22.20", ["freight_charge 20.00", "fuel_charge 2.20"]],
        ["LC2", "2026-03-08", "1000.00", ["freight_charge 1000.00"]],
      ],
    });
  });

  it("reads dates in three formats and amounts with currency signs and thousands separators in one file", async () => {
    const csv = [
      HEADER.join(","),
      `D-1,03/02/2026,DC1,02/02/2026,"$1,234.50",AUD 2.00`,
      `D-1,03/02/2026,DC2,2026-02-01,"AUD 2,000.00",€1.25`,
      `D-1,03/02/2026,DC3,5-Feb-2026,"£12,345.60",(1.00)`,
    ].join("\n");
    const job = await importFiles("CSV", [{ name: "mixed.csv", body: csv }]);
    expect(job.status, JSON.stringify(job)).toBe("complete");
    expect(await linesOf("D-1")).toEqual({
      invoice: { date: "2026-02-03", total: "15582.35", type: "CSV" },
      lines: [
        ["DC1", "2026-02-02", "1236.50", ["freight_charge 1234.50", "fuel_charge 2.00"]],
        ["DC2", "2026-02-01", "2001.25", ["freight_charge 2000.00", "fuel_charge 1.25"]],
        ["DC3", "2026-02-05", "12344.60", ["freight_charge 12345.60", "fuel_charge -1.00"]],
      ],
    });
  });
});

describe("progress within a file", () => {
  const bigCsv = (tag: string, n: number) => [HEADER.join(","), ...Array.from({ length: n }, (_, i) => `${tag},03/02/2026,${tag}C${i},02/02/2026,"$1,${String(i % 1000).padStart(3, "0")}.50",1.10`)].join("\n");

  it("moves pct_complete while a 20,000-line file is read, at most every PROGRESS_EVERY_MS, the message still per file", async () => {
    const res = await postFiles(admin, "/api/invoices/import", { config_id: String(templates.CSV) }, [{ name: "big.csv", body: bigCsv("P-1", 20_000) }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { data } = await support.queuedJob(world, res.body.job_id);
    const { jobId: _, ...payload } = data;
    const seen: { at: number; pct: number; message: string }[] = [];
    const result = await runInvoiceImport(server.db, payload as never, async (pct, message) => {
      seen.push({ at: Date.now(), pct, message });
    });
    expect(result.files[0]!.lines).toBe(20_000);
    const within = seen.filter((s) => s.pct > 0 && s.pct < 100);
    expect(within.length, JSON.stringify(seen)).toBeGreaterThan(0);
    expect(within.every((s) => s.message === "Processed 0 of 1 file")).toBe(true);
    expect(seen.at(-1)).toMatchObject({ pct: 100, message: "Processed 1 of 1 file" });
    // rising, and never closer together than the throttle allows
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.pct).toBeGreaterThanOrEqual(seen[i - 1]!.pct);
    for (let i = 1; i < within.length; i++) expect(within[i]!.at - within[i - 1]!.at).toBeGreaterThanOrEqual(PROGRESS_EVERY_MS - 5);
  });

  it("a job run again (its worker died after the commit) makes nothing twice and counts the lines stored", async () => {
    const res = await postFiles(admin, "/api/invoices/import", { config_id: String(templates.CSV) }, [{ name: "again.csv", body: bigCsv("R-1", 3_000) }]);
    const { data } = await support.queuedJob(world, res.body.job_id);
    const { jobId: _, ...payload } = data;
    const first = await runInvoiceImport(server.db, payload as never, async () => {});
    const again = await runInvoiceImport(server.db, payload as never, async () => {});
    expect(first.files[0]!.lines).toBe(3_000);
    expect(again.files[0]).toMatchObject({ invoices: ["R-1"], lines: 3_000, errors: [] });
    expect(again.invoice_ids).toEqual(first.invoice_ids);
    expect(importDoneMessage(again)).toBe("Imported 1 of 1 file: 1 invoice, 3000 lines.");
    const [stored] = rowsOf<{ n: number }>(await server.db.execute(sql`select count(*)::int as n from invoice_details d join invoices i on i.id = d.invoice_id where i.invoice_number = 'R-1'`));
    expect(stored?.n).toBe(3_000);
  });

  // PGlite has one connection: a progress write waits for the file's transaction, so only PostgreSQL shows it while the file is read
  it.runIf(Boolean(process.env.DATABASE_URL))("the job's status shows the intermediate pct_complete while the worker reads the file", async () => {
    const res = await postFiles(admin, "/api/invoices/import", { config_id: String(templates.CSV) }, [{ name: "big2.csv", body: bigCsv("P-2", 20_000) }]);
    const job = await support.queuedJob(world, res.body.job_id);
    const seen = new Set<string>();
    let running = true;
    const watch = (async () => {
      while (running) {
        const [row] = rowsOf<{ status: string; pct_complete: number; message: string }>(await server.db.execute(sql`select status, pct_complete, message from jobs where id = ${res.body.job_id}`));
        if (row?.status === "working") seen.add(`${row.pct_complete} ${row.message}`);
        await new Promise((r) => setTimeout(r, 40));
      }
    })();
    await runJob(world.deps, job.name, job.data);
    running = false;
    await watch;
    expect([...seen].some((s) => /^([1-9]|[1-9]\d) Processed 0 of 1 file$/.test(s)), [...seen].join("; ")).toBe(true);
  });
});

describe("the original file", () => {
  it("is for staff only: a customer's finance user is refused it even once every line is theirs (it is the carrier's whole file)", async () => {
    const file = await xlsxOf([HEADER, ["O-1", "03/02/2026", "OC1", "02/02/2026", 5, 1]]);
    expect((await importFiles("XLSX", [{ name: "orig.xlsx", body: file }])).status).toBe("complete");
    const [inv] = await server.db.select().from(invoices).where(eq(invoices.invoiceNumber, "O-1"));
    const path = `/api/invoices/${inv!.id}/original_file`;
    const refused = await finance.request(path, { headers: { Accept: "application/json" } });
    expect(refused.status).toBe(403);
    expect(JSON.stringify(await refused.json())).toContain(FINANCE_ACCESS_MESSAGES.carrierFileStaffOnly);
    const staff = await admin.request(path);
    expect(staff.status).toBe(200);
    expect(staff.headers.get("content-type")).toContain("spreadsheetml");
    expect(Buffer.from(await staff.arrayBuffer()).equals(Buffer.from(file))).toBe(true);
    // a line of the finance user's customer on it changes nothing (decision 022)
    const [acme] = await server.db.select({ id: customers.id }).from(customers).where(eq(customers.code, "ACME"));
    await server.db.update(invoiceDetails).set({ customerId: acme!.id }).where(eq(invoiceDetails.invoiceId, inv!.id));
    expect((await finance.request(path)).status).toBe(403);
  });
});
