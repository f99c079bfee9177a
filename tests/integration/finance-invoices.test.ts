import { and, eq, like } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountingConnections, carriers, customers, files, invoiceCosts, invoiceDetails, invoices, services, simulatedAccounting, sites } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { seedSupplierUid, SIMULATED_BUSINESS } from "../../app/modules/accounting/simulated.server";
import { dateRange } from "../../app/modules/invoices/schemas";
import { todayIn } from "../../app/modules/calendar/site-time";
import { Client, signInAll, startTestServer, type TestServer } from "../support/server";

/**
 * Payable invoices, the invoice page's lines, export and search (issue 18 items 3, 4, 7, 8):
 * filters, counters, grouping, scoping of a customer's finance user, admin-only actions, CSV and
 * XLSX with formulas neutralised, bills through the simulated accounting service.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

let server: TestServer;
const EMAILS = { admin: "admin@example.com", finance: "finance@example.com", customerService: "customerservice@example.com" };
const c = {} as Record<keyof typeof EMAILS, Client>;
const ids = {} as Record<"auspost" | "northline" | "acme" | "testco" | "acmeSite" | "parcel" | "a1" | "a2" | "n1" | "old", number>;
// the users' sites are in Melbourne; the list's default range is the past fortnight
const today = todayIn("Australia/Melbourne");
const daysAgo = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

async function invoice(values: Partial<typeof invoices.$inferInsert>, lines: Array<Partial<typeof invoiceDetails.$inferInsert> & { costs?: Array<{ category: "freight_charge" | "fuel_charge" | "gst"; amount: string; description?: string }> }>) {
  const [inv] = await server.db.insert(invoices).values({ accountingType: "payable", ...values }).returning();
  let n = 0;
  for (const { costs, ...l } of lines) {
    const [d] = await server.db
      .insert(invoiceDetails)
      .values({ invoiceId: inv!.id, lineNumber: ++n, carrierId: values.carrierId, ...l })
      .returning();
    if (costs?.length) await server.db.insert(invoiceCosts).values(costs.map((k) => ({ invoiceDetailId: d!.id, description: k.description ?? k.category, category: k.category, amount: k.amount })));
  }
  return inv!.id;
}

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  Object.assign(c, await signInAll(server.url, EMAILS));
  const carrier = async (code: string) => (await server.db.select().from(carriers).where(eq(carriers.code, code)))[0]!.id;
  const customer = async (code: string) => (await server.db.select().from(customers).where(eq(customers.code, code)))[0]!.id;
  ids.auspost = await carrier("auspost");
  ids.northline = await carrier("NORTHLINE");
  ids.acme = await customer("ACME");
  ids.testco = await customer("TESTCO");
  ids.acmeSite = (await server.db.select().from(sites).where(eq(sites.customerId, ids.acme)))[0]!.id;
  ids.parcel = (await server.db.select().from(services).where(eq(services.code, "PP")))[0]!.id;
  ids.a1 = await invoice({ carrierId: ids.auspost, invoiceNumber: "AP-1001", invoiceDate: daysAgo(2), total: "121.00" }, [
    { consignmentNumber: "CN0001", reference: "=HYPERLINK(\"x\")", customerId: ids.acme, totalCost: "110.00", costs: [{ category: "freight_charge", amount: "100.00" }, { category: "gst", amount: "10.00" }, { category: "fuel_charge", amount: "0.00" }] },
    { consignmentNumber: "CN0002", reference: "PO-77", customerId: ids.testco, totalCost: "11.00", costs: [{ category: "freight_charge", amount: "10.00" }, { category: "gst", amount: "1.00" }] },
  ]);
  ids.a2 = await invoice({ carrierId: ids.auspost, invoiceNumber: "AP-1002", invoiceDate: daysAgo(3), total: "50.00", state: "allocated" }, [{ consignmentNumber: "CN0003", customerId: ids.testco, state: "allocated", totalCost: "50.00" }]);
  ids.n1 = await invoice({ carrierId: ids.northline, invoiceNumber: "NL-9", invoiceDate: daysAgo(1), total: "30.00", state: "exported" }, [{ consignmentNumber: "NL0001", customerId: ids.testco, state: "exported", totalCost: "30.00" }]);
  ids.old = await invoice({ carrierId: ids.northline, invoiceNumber: "NL-OLD", invoiceDate: daysAgo(60), total: "5.00" }, [{ consignmentNumber: "NL0002", totalCost: "5.00" }]);
}, 120_000);
afterAll(() => server?.close());

describe("the payable list", () => {
  it("filters by the past fortnight by default, counts states, totals and groups per carrier, and shows the unallocated first", async () => {
    const { status, body } = await c.admin.json<Json>("/api/invoices");
    expect(status).toBe(200);
    expect(body.meta.counts).toEqual({ all: 3, unallocated: 1, allocated: 1, exported: 1 });
    expect(body.meta.filters.state).toBe("unallocated");
    expect(body.invoices.map((i: Json) => i.invoice_number)).toEqual(["AP-1001"]);
    expect(body.meta.totals).toEqual({ cost: 121, consignments: 2 });
    const all = await c.admin.json<Json>("/api/invoices/groups?state=all");
    expect(all.body.groups.map((g: Json) => [g.carrier_name, g.invoices.length])).toEqual([
      ["Australia Post", 2],
      ["Northline", 1],
    ]);
  });

  it("filters by carrier, customer and a custom range, and refuses a wrong filter with 422", async () => {
    const byCarrier = await c.admin.json<Json>(`/api/invoices?state=all&carrier_id=${ids.northline}&date=custom&from=${daysAgo(90)}&to=${today}`);
    expect(byCarrier.body.invoices.map((i: Json) => i.invoice_number).sort()).toEqual(["NL-9", "NL-OLD"]);
    const byCustomer = await c.admin.json<Json>(`/api/invoices?state=all&customer_id=${ids.acme}`);
    expect(byCustomer.body.invoices.map((i: Json) => i.invoice_number)).toEqual(["AP-1001"]);
    expect(byCustomer.body.meta.counts).toEqual({ all: 1, unallocated: 1, allocated: 0, exported: 0 });
    const bad = await c.admin.json<Json>("/api/invoices?date=yesterday");
    expect(bad.status).toBe(422);
    expect(bad.body.errors.date).toBeDefined();
  });

  it("defaults the state to all when nothing is unallocated", async () => {
    const { body } = await c.admin.json<Json>(`/api/invoices?carrier_id=${ids.northline}`);
    expect(body.meta.filters.state).toBe("all");
  });

  it("computes the date filters with weeks from Monday", () => {
    expect(dateRange("this_week", "2026-11-25")).toEqual({ from: "2026-11-23", to: "2026-11-29" });
    expect(dateRange("last_week", "2026-11-25")).toEqual({ from: "2026-11-16", to: "2026-11-22" });
    expect(dateRange("fortnight", "2026-11-25")).toEqual({ from: "2026-11-12", to: "2026-11-25" });
    expect(dateRange("this_month", "2026-11-25")).toEqual({ from: "2026-11-01", to: "2026-11-30" });
    expect(dateRange("last_month", "2026-11-25")).toEqual({ from: "2026-10-01", to: "2026-10-31" });
    expect(dateRange("custom", "2026-03-31")).toEqual({ from: "2026-02-28", to: "2026-03-31" });
  });

  it("renders the screen with groups, counters and the empty message", async () => {
    const page = await (await c.admin.request("/invoices_payable?state=all", { headers: { Accept: "text/html" } })).text();
    expect(page).toContain("Australia Post");
    expect(page).toContain('name="invoice_ids"');
    expect(page).toContain('name="intent" value="reconcile"');
    expect(page).toContain(`/invoices/${ids.a2}/reconciliations`);
    const empty = await (await c.admin.request(`/invoices_payable?date=custom&from=2001-01-01&to=2001-01-02`, { headers: { Accept: "text/html" } })).text();
    expect(empty).toContain("There are no invoices to display.");
  });
});

describe("a customer's finance user", () => {
  it("sees only the invoices holding their lines, counted over their lines", async () => {
    const { body } = await c.finance.json<Json>("/api/invoices?state=all");
    expect(body.invoices.map((i: Json) => i.invoice_number)).toEqual(["AP-1001"]);
    expect(body.invoices[0].invoice_details_count).toBe(1);
    expect(body.meta.totals.cost).toBe(110);
    expect((await c.finance.json(`/api/invoices/${ids.a2}`)).status).toBe(404);
    const lines = await c.finance.json<Json>(`/api/invoice_details?invoice_id=${ids.a1}`);
    expect(lines.body.invoice_details.map((d: Json) => d.consignment_number)).toEqual(["CN0001"]);
    const search = await c.finance.json<Json>("/api/invoices/search?query=CN000");
    expect(search.body.invoices.map((i: Json) => i.invoice_number)).toEqual(["AP-1001"]);
  });

  it("cannot delete, export or edit (403)", async () => {
    expect((await c.finance.json(`/api/invoices/${ids.a1}`, { method: "DELETE" })).status).toBe(403);
    expect((await c.finance.json("/api/invoices/export", { json: { ids: [ids.a1], format: "csv" } })).status).toBe(403);
    expect((await c.finance.json(`/api/invoices/${ids.a1}`, { method: "PUT", json: { total: 1 } })).status).toBe(403);
    const [line] = await server.db.select().from(invoiceDetails).where(eq(invoiceDetails.invoiceId, ids.a1));
    expect((await c.finance.json(`/api/invoices/${ids.a1}/invoice_details/${line!.id}`, { method: "PUT", json: { payer: "x" } })).status).toBe(403);
    // customer service is staff (sees all) but not an invoice admin
    expect((await c.customerService.json("/api/invoices/export", { json: { ids: [ids.a1], format: "csv" } })).status).toBe(403);
  });
});

describe("lines", () => {
  it("pages, counts and positions the lines, and saving customer, site and service by hand allocates", async () => {
    const lines = await c.admin.json<Json>(`/api/invoice_details?invoice_id=${ids.a1}&per_page=20&order_by=consignment_number&order_direction=desc`);
    expect(lines.body.invoice_details.map((d: Json) => d.consignment_number)).toEqual(["CN0002", "CN0001"]);
    expect(lines.body.meta.counts).toEqual({ all: 2, allocated: 0, unallocated: 2, invoiced: 0 });
    expect((await c.admin.json(`/api/invoice_details?invoice_id=${ids.a1}&per_page=7`)).status).toBe(422);
    const first = lines.body.invoice_details[1];
    const one = await c.admin.json<Json>(`/api/invoices/${ids.a1}/invoice_details/${first.id}`);
    expect(one.body.position).toMatchObject({ index: 1, total: 2, previous: null });
    expect(one.body.costs.map((k: Json) => k.category)).toEqual(["freight_charge", "gst", "fuel_charge"]);
    const bad = await c.admin.json<Json>(`/api/invoices/${ids.a1}/invoice_details/${first.id}`, { method: "PUT", json: { customer_id: ids.testco, site_id: ids.acmeSite } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.site_id).toBeDefined();
    const saved = await c.admin.json<Json>(`/api/invoices/${ids.a1}/invoice_details/${first.id}`, { method: "PUT", json: { customer_id: ids.acme, site_id: ids.acmeSite, service_id: "unquoted", despatch_date: "03/11/2026", payer: "Acme" } });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ state: "allocated", allocated_by: "manual", unquoted: true, despatch_date: "2026-11-03", payer: "Acme" });
    const second = lines.body.invoice_details[0];
    await c.admin.json(`/api/invoices/${ids.a1}/invoice_details/${second.id}`, { method: "PUT", json: { customer_id: ids.testco, site_id: (await server.db.select().from(sites).where(eq(sites.customerId, ids.testco)))[0]!.id, service_id: ids.parcel } });
    expect((await c.admin.json<Json>(`/api/invoices/${ids.a1}`)).body.state).toBe("allocated");
  });

  it("edits the invoice's number, date (dd/mm/yyyy) and total", async () => {
    const bad = await c.admin.json<Json>(`/api/invoices/${ids.old}`, { method: "PUT", json: { invoice_date: "31/02/2026" } });
    expect(bad.status).toBe(422);
    const ok = await c.admin.json<Json>(`/api/invoices/${ids.old}`, { method: "PUT", json: { invoice_date: daysAgo(1).split("-").reverse().join("/"), total: "$1,234.50" } });
    expect(ok.body).toMatchObject({ invoice_date: daysAgo(1), total: 1234.5 });
  });
});

describe("export", () => {
  it("refuses an empty selection", async () => {
    const { status, body } = await c.admin.json<Json>("/api/invoices/export", { json: { ids: [], format: "csv" } });
    expect(status).toBe(422);
    expect(body.errors.ids).toEqual(["Choose at least one invoice first."]);
  });

  it("writes CSV with formulas neutralised and marks the invoice and lines exported", async () => {
    const res = await c.admin.request("/api/invoices/export", { json: { ids: [ids.a1], format: "csv" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    const text = await res.text();
    expect(text).toContain(`"'=HYPERLINK(""x"")"`);
    expect(text).toContain("Fuel levy");
    expect(text.split("\r\n").filter(Boolean)).toHaveLength(3);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="invoices-\d{4}-\d{2}-\d{2}\.csv"$/);
    // written through the file store (no disk) and taken once: read to the end, it is gone from there
    expect(await server.db.select().from(files).where(and(eq(files.kind, "export"), like(files.name, "invoices-%")))).toEqual([]);
    const [inv] = await server.db.select().from(invoices).where(eq(invoices.id, ids.a1));
    expect(inv).toMatchObject({ state: "exported", exportInfo: expect.objectContaining({ csv: true }) });
    expect(inv!.exportedAt).not.toBeNull();
    const lines = await server.db.select().from(invoiceDetails).where(eq(invoiceDetails.invoiceId, ids.a1));
    expect(lines.every((l) => l.state === "exported")).toBe(true);
  });

  it("writes XLSX with formulas neutralised", async () => {
    const res = await c.admin.request("/api/invoices/export", { json: { ids: [ids.a1], format: "xlsx" } });
    expect(res.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const values = book.worksheets[0]!.getRow(2).values as unknown[];
    expect(values).toContain("'=HYPERLINK(\"x\")");
    expect(values).toContain("AP-1001");
  });

  it("sends bills through the simulated accounting service for mapped carriers and reports the unmapped", async () => {
    await server.db.insert(simulatedAccounting).values({ kind: "token", key: "access:test-token", data: { businessId: SIMULATED_BUSINESS.id, expiresAt: new Date(Date.now() + 3_600_000).toISOString() } });
    await server.db.insert(accountingConnections).values({ provider: "myob", businessId: SIMULATED_BUSINESS.id, accessToken: "test-token", refreshToken: "r", expiresAt: new Date(Date.now() + 3_600_000) });
    await server.db.update(carriers).set({ myobUid: seedSupplierUid(0) }).where(eq(carriers.id, ids.auspost));
    const { status, body } = await c.admin.json<Json>("/api/invoices/export", { json: { ids: [ids.a1, ids.old], format: "accounting" } });
    expect(status).toBe(200);
    expect(body.exported).toEqual([ids.a1]);
    expect(body.bills[0].total).toBe(121);
    expect(body.skipped).toEqual([{ invoice_id: ids.old, message: "Northline is not mapped to a supplier: not exported." }]);
    const [bill] = await server.db.select().from(simulatedAccounting).where(eq(simulatedAccounting.key, `${seedSupplierUid(0)}:AP-1001`));
    expect(bill!.data).toMatchObject({ tax: 11, total: 121 });
    const [inv] = await server.db.select().from(invoices).where(eq(invoices.id, ids.a1));
    expect(inv!.exportInfo).toMatchObject({ accounting: { total: 121 } });
    // a second export of the same bill is refused by the service and reported, not doubled
    const again = await c.admin.json<Json>("/api/invoices/export", { json: { ids: [ids.a1], format: "accounting" } });
    expect(again.body.exported).toEqual([]);
    expect(again.body.skipped[0].message).toContain("already sent");
  });
});

describe("delete", () => {
  it("refuses exported invoices and deletes others with their lines and costs", async () => {
    const refused = await c.admin.json<Json>(`/api/invoices/${ids.n1}`, { method: "DELETE" });
    expect(refused.status).toBe(409);
    expect(refused.body.errors.ids[0]).toBe("Exported invoices cannot be deleted: NL-9.");
    const ok = await c.admin.json<Json>(`/api/invoices/${ids.a2}`, { method: "DELETE" });
    expect(ok.status).toBe(200);
    expect(await server.db.select().from(invoiceDetails).where(eq(invoiceDetails.invoiceId, ids.a2))).toEqual([]);
    expect((await c.admin.json(`/api/invoices/${ids.a2}`)).status).toBe(404);
  });

  it("asks to confirm on the screen, and refuses an empty selection with a message", async () => {
    const empty = await c.admin.request("/invoices_payable", { form: { intent: "delete" }, headers: { Accept: "text/html" } });
    expect(await empty.text()).toContain("Choose at least one invoice first.");
  });
});

describe("search", () => {
  it("needs 3 characters and finds by number, reference and consignment number, at most 10", async () => {
    expect((await c.admin.json("/api/invoices/search?query=AP")).status).toBe(422);
    const byNumber = await c.admin.json<Json>("/api/invoices/search?query=ap-10");
    expect(byNumber.body.invoices.map((i: Json) => i.invoice_number)).toEqual(["AP-1001"]);
    const byRef = await c.admin.json<Json>("/api/invoices/search?query=PO-77");
    expect(byRef.body.invoices[0]).toMatchObject({ invoice_number: "AP-1001", references: expect.arrayContaining(["PO-77"]), consignment_numbers: ["CN0001", "CN0002"], state: "exported" });
    for (let i = 0; i < 12; i++) await invoice({ carrierId: ids.auspost, invoiceDate: daysAgo(1) }, [{ consignmentNumber: `ZZZ${i}` }]);
    const many = await c.admin.json<Json>("/api/invoices/search?query=ZZZ");
    expect(many.body.invoices).toHaveLength(10);
    expect(many.body.invoices[0].invoice_number).toBe("Pending");
  });
});
