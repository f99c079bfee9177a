/**
 * Issue 29 findings 4, 5 and 7 (decision 027) over the demo: a credit accepted with the defaults
 * is billed as a credit in proportion to the rated sell, never as the consignment again; the SELL
 * view's customer invoice card and the header's margin read against the stored customer invoice;
 * a line whose consignment was never issued says why its re-rate is in error.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consignments, invoiceCosts, invoiceDetails, invoices, reconciliations } from "../../db/schema";
import { seedDemoIfEmpty } from "../../db/seed/demo";
import { DEMO_INVOICE_NUMBERS, NEVER_ISSUED } from "../../db/seed/invoices";
import { loadLocalities } from "../../db/seed/localities";
import { createMailer } from "../../app/modules/mail/mailer.server";
import { runInvoicing } from "../../app/modules/invoicing/invoice.server";
import { divideRounded, toCents } from "../../app/modules/invoicing/money";
import { reconcileLines } from "../../app/modules/reconciliation/reconcile.server";
import { rowsOf } from "../../app/utils/sql-rows";
import { Client, signInAll, startTestServer, type TestServer } from "../support/server";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

let server: TestServer;
let admin: Client;
const db = () => server.db;
const NL = DEMO_INVOICE_NUMBERS.NORTHLINE;

async function demoLine(invoiceNumber: string, lineNumber: number) {
  const [row] = rowsOf<{ id: number; invoice_id: number; carrier_id: number; customer_id: number | null; consignment_id: number | null; consignment_number: string }>(
    await db().execute(sql`select d.id, d.invoice_id, d.carrier_id, d.customer_id, d.consignment_id, d.consignment_number from invoice_details d join invoices i on i.id = d.invoice_id
      where i.invoice_number = ${invoiceNumber} and d.line_number = ${lineNumber}`),
  );
  return row!;
}
const recOfLine = async (detailId: number) => (await db().select().from(reconciliations).where(eq(reconciliations.invoiceDetailId, detailId)))[0]!;
const nonGst = (lines: Array<{ category: string; amount: number | string }>) => lines.filter((l) => l.category !== "gst").reduce((a, l) => a + toCents(l.amount), 0);

/** The figures of a table's footer rows in the panel `testId` of `html`, by label. */
function panelTotals(html: string, testId: string): Record<string, number> {
  const start = html.indexOf(`data-testid="${testId}"`);
  expect(start, testId).toBeGreaterThan(-1);
  const panel = html.slice(start, html.indexOf("</section>", start));
  const foot = panel.slice(panel.indexOf("<tfoot"), panel.indexOf("</tfoot>"));
  const out: Record<string, number> = {};
  for (const m of foot.matchAll(/<td[^>]*colSpan="2"[^>]*>([^<]+)<\/td><td[^>]*>\$(-?[\d.]+)<\/td>/gi)) out[m[1]!.trim()] = Math.round(Number(m[2]) * 100);
  return out;
}
/** a header figure of the detail by its label */
function headerFigure(html: string, label: string): number {
  const m = new RegExp(`<dt[^>]*>${label.replace(/[()]/g, "\\$&")}</dt><dd[^>]*>\\$(-?[\\d.]+)</dd>`).exec(html);
  expect(m, label).toBeTruthy();
  return Math.round(Number(m![1]) * 100);
}

let creditLineId: number;
let expectedCredit: number;

/** Accepts the credit with the defaults (a note, nothing else) and invoices it, once; answers the customer invoice's line. */
async function billCredit() {
  const billed = async () => (await db().select().from(invoiceDetails).where(eq(invoiceDetails.sourceDetailId, creditLineId)))[0];
  const done = await billed();
  if (done) return done;
  const rec = await recOfLine(creditLineId);
  if (rec.state !== "reconciled") {
    const accepted = await admin.json<Json>(`/api/reconciliations/${rec.id}`, { method: "PUT", json: { version: rec.version, state: "reconciled", note: "Credit for the overcharge" } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body).toMatchObject({ state: "reconciled", reconciliation_options: { charge_from_consignment: true } });
  }
  await runInvoicing({ db: db(), mailer: createMailer(db(), { from: "test@freightdesk.local" }), renderer: server.renderer }, { invoiceDetailIds: [creditLineId], userId: null });
  const line = await billed();
  expect(line, "the credit was invoiced").toBeTruthy();
  return line!;
}

beforeAll(async () => {
  server = await startTestServer();
  await loadLocalities(db());
  expect(await seedDemoIfEmpty(db())).toBe(true);
  ({ admin } = await signInAll(server.url, { admin: "admin@example.com" }));
  // the carrier credits $20.00 (+ GST) against a consignment it billed on the demo's Northline invoice
  const billed = await demoLine(NL, 2);
  const [c] = await db().select().from(consignments).where(eq(consignments.id, billed.consignment_id!));
  const rating = c!.ratingDetail as { buy: Array<{ category: string; amount: number }>; sell: Array<{ category: string; amount: number }> };
  expectedCredit = divideRounded(-2000 * nonGst(rating.sell), nonGst(rating.buy));
  const [inv] = await db().insert(invoices).values({ accountingType: "payable", invoiceNumber: "NLC-0001", carrierId: billed.carrier_id, state: "allocated", total: "-22.00" }).returning();
  const [d] = await db()
    .insert(invoiceDetails)
    .values({ invoiceId: inv!.id, lineNumber: 1, carrierId: billed.carrier_id, customerId: billed.customer_id, consignmentId: billed.consignment_id, consignmentNumber: billed.consignment_number, state: "allocated", totalCost: "-22.00", despatchDate: c!.despatchDate })
    .returning();
  creditLineId = d!.id;
  await db().insert(invoiceCosts).values([
    { invoiceDetailId: d!.id, category: "credit_adjustment", description: "Credit: overcharge", amount: "-20.00" },
    { invoiceDetailId: d!.id, category: "gst", description: "GST", amount: "-2.00" },
  ]);
  await reconcileLines(db(), { invoiceDetailIds: [d!.id] });
}, 240_000);
afterAll(() => server?.close());

describe("a credit accepted with the defaults (finding 4)", () => {
  it("is charged from the invoice in proportion to the rated sell, and billed so: never the consignment again", async () => {
    const rec = await recOfLine(creditLineId);
    // the defaults: Charge From on the consignment
    expect(rec.chargeFromConsignment).toBe(true);
    const before = await admin.json<Json>(`/api/reconciliations/${rec.id}`);
    expect(before.body.sell).toMatchObject({ charged_from: "invoice", credit: true, total: expectedCredit / 100 });
    expect(expectedCredit).toBeLessThan(-2000); // the rated sell is above the rated buy
    const billedLine = await billCredit();
    const costs = await db().select().from(invoiceCosts).where(eq(invoiceCosts.invoiceDetailId, billedLine!.id));
    expect(costs.filter((k) => k.category !== "gst").map((k) => [k.category, toCents(k.amount)])).toEqual([["credit_adjustment", expectedCredit]]);
  });
});

describe("the SELL view's customer invoice card and margin (finding 5)", () => {
  it("each total says what it includes and is the stored invoice's; the margin is what was billed less the carrier's", async () => {
    const billedLine = await billCredit();
    const rec = await recOfLine(creditLineId);
    const [inv] = await db().select().from(invoices).where(eq(invoices.id, billedLine!.invoiceId));
    const costs = await db().select().from(invoiceCosts).where(eq(invoiceCosts.invoiceDetailId, billedLine!.id));
    const gst = costs.filter((k) => k.category === "gst").reduce((a, k) => a + toCents(k.amount), 0);
    expect(gst).not.toBe(0);

    const res = await admin.request(`/reconciliation/${rec.id}?view=sell`, { headers: { Accept: "text/html" } });
    expect(res.status).toBe(200);
    const html = (await res.text()).replaceAll("<!-- -->", "");
    const totals = panelTotals(html, "panel-customer-invoice");
    expect(totals).toEqual({ "Total (excluding GST)": nonGst(costs), GST: gst, "Total (including GST)": toCents(billedLine!.totalCost) });
    // the line is the invoice's only one: its figures are the invoice's
    expect([totals["Total (excluding GST)"], totals.GST, totals["Total (including GST)"]]).toEqual([toCents(inv!.subtotal), toCents(inv!.gst), toCents(inv!.total)]);
    // the header: billed without GST less the carrier's credit without GST (-20.00)
    expect(headerFigure(html, "Margin (excluding GST)")).toBe(toCents(inv!.subtotal) - -2000);
    expect(headerFigure(html, "Invoiced (excluding GST)")).toBe(-2000);
  });
});

describe("a line whose consignment was never issued (finding 7)", () => {
  it("says 'No consignment found' beside 'Error rerating'", async () => {
    const line = await demoLine(NL, 4);
    expect(line.consignment_number).toBe(NEVER_ISSUED.NORTHLINE);
    const customer = (await demoLine(NL, 1)).customer_id;
    // finance allocated it to the customer by hand: it is reconciled with nothing to re-rate
    await db().update(invoiceDetails).set({ customerId: customer, state: "allocated", allocatedBy: "manual" }).where(and(eq(invoiceDetails.id, line.id), inArray(invoiceDetails.state, ["allocation_failure", "unallocated"])));
    await reconcileLines(db(), { invoiceDetailIds: [line.id] });
    const rec = await recOfLine(line.id);
    const { body } = await admin.json<Json>(`/api/reconciliations/${rec.id}`);
    expect(body.rerate).toMatchObject({ status: "rerate_error", label: "Error rerating", error: "No consignment found" });
    const html = await (await admin.request(`/reconciliation/${rec.id}`, { headers: { Accept: "text/html" } })).text();
    const status = html.slice(html.indexOf('data-testid="rerate-status"'), html.indexOf("</p>", html.indexOf('data-testid="rerate-status"')));
    expect(status).toContain("Error rerating");
    expect(status).toContain("No consignment found");
  });
});
