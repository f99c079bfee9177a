import { and, eq } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carriers, customers, invoiceCosts, invoiceDetails, invoices, simulatedAccounting } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { MYOB_MESSAGES } from "../../app/modules/accounting/accounting";
import { simulatedAccountingAdapter } from "../../app/modules/accounting/simulated.server";
import { todayIn } from "../../app/modules/calendar/site-time";
import { SALES_EXPORT_MESSAGES } from "../../app/modules/invoicing/export-sales.server";
import { connectSimulatedMyob } from "../support/accounting";
import { Client, signInAll, startTestServer, type TestServer } from "../support/server";

/**
 * Customer (receivable) invoices exported (issue 19 item 6): CSV and XLSX at sell amounts with the
 * customer first and formulas neutralised, and sales invoices through the simulated accounting
 * service: the customer's card made once, the sale's total and tax, the invoice marked exported
 * (its state kept invoiced), a second export refused, per-invoice refusals, roles and scope.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

let server: TestServer;
const EMAILS = { admin: "admin@example.com", finance: "finance@example.com", customerService: "customerservice@example.com" };
const c = {} as Record<keyof typeof EMAILS, Client>;
const ids = {} as Record<"acme" | "testco" | "auspost" | "acme1" | "acme2" | "testco1" | "noCosts" | "payable", number>;
const today = todayIn("Australia/Melbourne");
const db = () => server.db;
const EXPORT = "/api/invoices/export";

type Cost = { category: "freight_charge" | "fuel_charge" | "gst"; amount: string };

/** A receivable invoice as invoicing writes one: sell lines, their cost lines and GST. */
async function receivable(customerId: number, number: string, lines: Array<{ reference?: string; total: string; costs: Cost[] }>) {
  const subtotal = lines.flatMap((l) => l.costs).filter((k) => k.category !== "gst").reduce((a, k) => a + Number(k.amount), 0);
  const gst = lines.flatMap((l) => l.costs).filter((k) => k.category === "gst").reduce((a, k) => a + Number(k.amount), 0);
  const [inv] = await db()
    .insert(invoices)
    .values({
      accountingType: "receivable",
      state: "invoiced",
      customerId,
      invoiceNumber: number,
      invoiceDate: today,
      subtotal: subtotal.toFixed(2),
      gst: gst.toFixed(2),
      total: (subtotal + gst).toFixed(2),
      billingAddress: { name: "Accounts", address_line_1: "1 Collins St", locality: "MELBOURNE", postcode: "3000", region: "VIC", country: "AUSTRALIA" },
    })
    .returning();
  let n = 0;
  for (const l of lines) {
    n += 1;
    const [d] = await db()
      .insert(invoiceDetails)
      .values({ invoiceId: inv!.id, lineNumber: n, customerId, carrierId: ids.auspost, state: "invoiced", consignmentNumber: `${number}-${n}`, reference: l.reference ?? null, totalCost: l.total })
      .returning();
    if (l.costs.length) await db().insert(invoiceCosts).values(l.costs.map((k) => ({ invoiceDetailId: d!.id, category: k.category, description: k.category, amount: k.amount })));
  }
  return inv!.id;
}

const invoiceRow = async (id: number) => (await db().select().from(invoices).where(eq(invoices.id, id)))[0]!;
const records = (kind: "customer" | "sale", key?: string) =>
  db()
    .select()
    .from(simulatedAccounting)
    .where(and(eq(simulatedAccounting.kind, kind), key ? eq(simulatedAccounting.key, key) : undefined));

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  Object.assign(c, await signInAll(server.url, EMAILS));
  const customer = async (code: string) => (await db().select().from(customers).where(eq(customers.code, code)))[0]!.id;
  ids.acme = await customer("ACME");
  ids.testco = await customer("TESTCO");
  ids.auspost = (await db().select().from(carriers).where(eq(carriers.code, "auspost")))[0]!.id;
  ids.acme1 = await receivable(ids.acme, "INV-S-001", [
    { reference: '=HYPERLINK("x")', total: "33.00", costs: [{ category: "freight_charge", amount: "25.00" }, { category: "fuel_charge", amount: "5.00" }, { category: "gst", amount: "3.00" }] },
    { total: "11.01", costs: [{ category: "freight_charge", amount: "10.01" }, { category: "gst", amount: "1.00" }] },
  ]);
  ids.acme2 = await receivable(ids.acme, "INV-S-002", [{ total: "22.00", costs: [{ category: "freight_charge", amount: "20.00" }, { category: "gst", amount: "2.00" }] }]);
  ids.testco1 = await receivable(ids.testco, "INV-S-003", [{ total: "55.00", costs: [{ category: "freight_charge", amount: "50.00" }, { category: "gst", amount: "5.00" }] }]);
  ids.noCosts = await receivable(ids.testco, "INV-S-004", [{ total: "0.00", costs: [] }]);
  const [p] = await db().insert(invoices).values({ accountingType: "payable", carrierId: ids.auspost, invoiceNumber: "AP-S-1", invoiceDate: today, state: "allocated", total: "1.00" }).returning();
  ids.payable = p!.id;
}, 120_000);
afterAll(() => server?.close());

describe("CSV and XLSX of receivable invoices", () => {
  it("writes CSV at sell amounts, the customer first, formulas neutralised; marks it exported and keeps it invoiced", async () => {
    const res = await c.admin.request(EXPORT, { json: { ids: [ids.acme1], format: "csv" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    const rows = (await res.text()).split("\r\n").filter(Boolean);
    expect(rows).toHaveLength(3);
    expect(rows[0]!.startsWith("Customer,Invoice number,")).toBe(true);
    expect(rows[0]).toContain("Total sell");
    expect(rows[1]).toContain(`"'=HYPERLINK(""x"")"`);
    expect(rows[1]!.startsWith("Acme Distribution,INV-S-001,")).toBe(true);
    // the line's carrier where a payable file has its customer, and the sell total and costs
    expect(rows[1]).toContain("Australia Post");
    expect(rows[1]).toMatch(/,33,,,25,5,,3,/);
    const inv = await invoiceRow(ids.acme1);
    expect(inv).toMatchObject({ state: "invoiced", exportInfo: expect.objectContaining({ csv: true }) });
    expect(inv.exportedAt).not.toBeNull();
    const lines = await db().select().from(invoiceDetails).where(eq(invoiceDetails.invoiceId, ids.acme1));
    expect(lines.every((l) => l.state === "invoiced")).toBe(true);
  });

  it("writes XLSX with formulas neutralised", async () => {
    const res = await c.admin.request(EXPORT, { json: { ids: [ids.acme1], format: "xlsx" } });
    expect(res.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const values = book.worksheets[0]!.getRow(2).values as unknown[];
    expect(values).toContain("'=HYPERLINK(\"x\")");
    expect(values).toContain("INV-S-001");
    expect(values).toContain("Acme Distribution");
  });

  it("refuses payable and receivable invoices in one call with a 400 that says so, exporting neither", async () => {
    const { status, body } = await c.admin.json<Json>(EXPORT, { json: { ids: [ids.acme2, ids.payable], format: "csv" } });
    expect(status).toBe(400);
    expect(body.errors.ids).toEqual([SALES_EXPORT_MESSAGES.mixed]);
    expect((await invoiceRow(ids.acme2)).exportedAt).toBeNull();
    expect((await invoiceRow(ids.payable)).state).toBe("allocated");
    expect((await c.admin.json<Json>(EXPORT, { json: { ids: [ids.acme2, ids.payable], format: "accounting" } })).status).toBe(400);
  });
});

describe("who may export", () => {
  it("refuses customer service and a customer's finance user (403), whoever's invoice it is", async () => {
    expect((await c.customerService.json(EXPORT, { json: { ids: [ids.testco1], format: "accounting" } })).status).toBe(403);
    // finance@ is Acme's: TESTCO's invoice is not theirs, and exporting is an invoice admin's action anyway
    expect((await c.finance.json(EXPORT, { json: { ids: [ids.testco1], format: "csv" } })).status).toBe(403);
    expect((await c.finance.json(EXPORT, { json: { ids: [ids.testco1], format: "accounting" } })).status).toBe(403);
    expect((await invoiceRow(ids.testco1)).exportedAt).toBeNull();
  });
});

describe("sales invoices through the simulated accounting service", () => {
  it("answers 409 'not authenticated' before the link is connected, and sends nothing", async () => {
    const { status, body } = await c.admin.json<Json>(EXPORT, { json: { ids: [ids.acme2], format: "accounting" } });
    expect(status).toBe(409);
    expect(JSON.stringify(body)).toContain(MYOB_MESSAGES.notConnected);
    expect(await records("sale")).toEqual([]);
  });

  it("makes the customer's card, records the sale with its total and tax, and marks the invoice", async () => {
    await connectSimulatedMyob(db());
    const { status, body } = await c.admin.json<Json>(EXPORT, { json: { ids: [ids.acme1], format: "accounting" } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ exported: [ids.acme1], skipped: [], message: "1 invoice exported as sales invoices." });
    expect(body.sales[0]).toMatchObject({ invoice_id: ids.acme1, total: 44.01, tax: 4 });
    const [card] = await records("customer", "ACME");
    expect(card!.data).toMatchObject({ name: "Acme Distribution", billingAddress: { locality: "MELBOURNE", postcode: "3000" } });
    const [sale] = await records("sale", "INV-S-001");
    expect(sale!.data).toMatchObject({ customerUid: card!.data.uid, total: 44.01, tax: 4, date: today });
    expect(sale!.data.lines).toEqual([
      { description: "Freight charge", amount: 35.01, tax: 3.5 },
      { description: "Fuel levy", amount: 5, tax: 0.5 },
    ]);
    const inv = await invoiceRow(ids.acme1);
    // still invoiced; the earlier CSV export is kept beside the sale
    expect(inv).toMatchObject({ state: "invoiced", exportInfo: expect.objectContaining({ csv: true, xlsx: true, accounting: { uid: body.sales[0].uid, total: 44.01, customer_uid: card!.data.uid } }) });
  });

  it("reuses the card for the same customer's next invoice, makes another customer's, and reports an invoice without costs", async () => {
    const [before] = await records("customer", "ACME");
    const { body } = await c.admin.json<Json>(EXPORT, { json: { ids: [ids.acme2, ids.testco1, ids.noCosts], format: "accounting" } });
    expect(body.exported).toEqual([ids.acme2, ids.testco1]);
    expect(body.skipped).toEqual([{ invoice_id: ids.noCosts, message: SALES_EXPORT_MESSAGES.noCosts("INV-S-004") }]);
    expect(body.message).toBe(`2 invoices exported as sales invoices. ${SALES_EXPORT_MESSAGES.noCosts("INV-S-004")}`);
    const acmeCards = await records("customer", "ACME");
    expect(acmeCards).toHaveLength(1);
    expect(acmeCards[0]!.data.uid).toBe(before!.data.uid);
    expect((await records("customer")).map((r) => r.key).sort()).toEqual(["ACME", "TESTCO"]);
    expect((await records("sale", "INV-S-002"))[0]!.data).toMatchObject({ customerUid: before!.data.uid, total: 22, tax: 2 });
    expect((await invoiceRow(ids.noCosts)).exportedAt).toBeNull();
  });

  it("refuses a second export of the same invoice and reports it, never doubling the sale", async () => {
    const { status, body } = await c.admin.json<Json>(EXPORT, { json: { ids: [ids.acme1], format: "accounting" } });
    expect(status).toBe(200);
    expect(body.exported).toEqual([]);
    expect(body.skipped).toEqual([{ invoice_id: ids.acme1, message: "INV-S-001: Sales invoice INV-S-001 was already sent." }]);
    expect(await records("sale", "INV-S-001")).toHaveLength(1);
  });

  it("the simulated service keeps one card per Card ID and refuses a sale to an unknown card", async () => {
    const token = "card-test-token";
    await connectSimulatedMyob(db(), token);
    const adapter = simulatedAccountingAdapter(db());
    await expect(adapter.createCustomer(token, { displayId: "ACME", name: "Another Acme", billingAddress: null })).rejects.toMatchObject({ reason: "conflict" });
    expect((await adapter.customerByDisplayId(token, "ACME"))?.name).toBe("Acme Distribution");
    expect(await adapter.customerByDisplayId(token, "NOBODY")).toBeNull();
    const sale = { customer: { displayId: "X", name: "X", billingAddress: null }, number: "INV-S-999", date: today, lines: [{ description: "Freight", amount: 1, tax: 0.1 }] };
    await expect(adapter.exportSale(token, "no-such-uid", sale)).rejects.toMatchObject({ reason: "not_found" });
  });

  it("the invoice page offers 'Accounting (sales invoice)' and shows the module's message", async () => {
    const html = await (await c.admin.request(`/invoice/${ids.acme2}`, { headers: { Accept: "text/html" } })).text();
    expect(html).toContain("Accounting (sales invoice)");
    expect(html).not.toContain("Accounting (bill)");
    // exported by an earlier test: the page says when
    const exportedAt = (await invoiceRow(ids.acme2)).exportedAt!;
    const day = exportedAt.toISOString().slice(0, 10);
    expect(html).toMatch(new RegExp(`Exported</dt><dd[^>]*>${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}<`));
    const fresh = await (await c.admin.request(`/invoice/${ids.noCosts}`, { headers: { Accept: "text/html" } })).text();
    expect(fresh).not.toContain("Exported</dt>");
    const res = await c.admin.request(`/invoice/${ids.acme2}`, { form: { intent: "export", format: "accounting" }, headers: { Accept: "text/html" } });
    const page = (await res.text()).replace(/<!-- -->/g, "");
    expect(page).toContain("0 invoices exported as sales invoices. INV-S-002: Sales invoice INV-S-002 was already sent.");
  });
});
