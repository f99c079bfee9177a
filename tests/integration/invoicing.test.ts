/**
 * Invoicing (issue 19 points 5 and 6; decision 020-invoicing): POST /api/invoices and the job over
 * the demo's reconciled lines (real Chromium renders the PDF, the database mailer keeps the
 * e-mail), then the rules on lines made here: grouping by invoice_allocate_by, billing_address_from,
 * GST by the billing country, gapless numbering (a rolled-back number is given back) and a line
 * billed once however often, or however concurrently, invoicing runs.
 */
import { and, asc, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { customers, fileChunks, files, invoiceCosts, invoiceDetails, invoices, reconciliations } from "../../db/schema";
import { seedDemoIfEmpty } from "../../db/seed/demo";
import { createCustomer, createSite } from "../../db/seed/factories";
import { loadLocalities } from "../../db/seed/localities";
import { runJob } from "../../queues/queue.server";
import { createMailer, storedMessagesFor } from "../../app/modules/mail/mailer.server";
import { formatInvoiceNumber, invoicingErrors, invoicingMessage, runInvoicing, takeInvoiceNumber } from "../../app/modules/invoicing/invoice.server";
import { deliverInvoice, NO_INVOICING_EMAIL } from "../../app/modules/invoicing/pdf.server";
import { FILE_DAMAGED, FILE_MISSING, readWholeFile, statFile } from "../../app/modules/files/index.server";
import { toCents } from "../../app/modules/invoicing/money";
import { rowsOf } from "../../app/utils/sql-rows";
import { reconciledLine } from "../support/invoicing";
import { Client, startTestServer, type TestServer } from "../support/server";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

let server: TestServer;
const c = {} as Record<"admin" | "finance" | "despatcher" | "customerService", Client>;
const db = () => server.db;
const services = () => ({ db: db(), mailer: createMailer(db(), { from: "test@freightdesk.local" }), renderer: server.renderer });

async function work(jobId: string, client = c.admin): Promise<Json> {
  const raw = rowsOf<{ name: string; data: Record<string, unknown> }>(await db().execute(sql`select name, data from pgboss.job where data->>'jobId' = ${jobId}`));
  expect(raw[0], `job ${jobId} queued`).toBeTruthy();
  await runJob({ database: server.test.database, mailer: services().mailer, renderer: server.renderer }, raw[0]!.name as never, raw[0]!.data).catch(() => "failed");
  return (await client.json<Json>(`/api/job_status/${jobId}`)).body;
}

const invoiceableIds = async (client = c.admin) => {
  const res = await client.json<Json>("/api/invoice_details?state=invoiceable&accounting_type=payable&per_page=150");
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.invoice_details as Json[]).map((d) => d.id as number);
};

beforeAll(async () => {
  server = await startTestServer();
  await loadLocalities(db());
  expect(await seedDemoIfEmpty(db())).toBe(true);
  const emails = { admin: "admin@example.com", finance: "finance@example.com", despatcher: "despatcher@example.com", customerService: "customerservice@example.com" };
  for (const [k, email] of Object.entries(emails)) {
    const client = new Client(server.url);
    expect((await client.signIn(email)).status).toBe(200);
    c[k as keyof typeof c] = client;
  }
}, 600_000);
afterAll(() => server?.close());

describe("POST /api/invoices over the demo's reconciled lines", () => {
  it("lists the reconciled, not yet billed payable lines as invoiceable, scoped to the customer", async () => {
    const ids = await invoiceableIds();
    // reconciled and not yet on a customer invoice (the demo's own seed may have billed one)
    const reconciled = await db().select({ id: reconciliations.invoiceDetailId }).from(reconciliations).where(and(eq(reconciliations.state, "reconciled"), isNull(reconciliations.customerInvoiceDetailId)));
    expect(ids.sort()).toEqual(reconciled.map((r) => r.id).sort());
    expect(ids.length).toBeGreaterThan(0);
    // the demo's lines are Acme's: the finance user (Acme) sees them too
    expect((await invoiceableIds(c.finance)).sort()).toEqual(ids.sort());
  });

  it("checks the ids and lets only invoice admins start it", async () => {
    const post = (client: Client, json: unknown) => client.json<Json>("/api/invoices", { method: "POST", json });
    expect((await post(c.admin, {})).body.errors.invoice_detail_ids).toEqual(["Choose at least one line."]);
    expect((await post(c.admin, { invoice_detail_ids: [] })).body.errors.invoice_detail_ids).toEqual(["Choose at least one line."]);
    expect((await post(c.admin, { invoice_detail_ids: ["x"] })).status).toBe(422);
    const missing = await post(c.admin, { invoice_detail_ids: [99_999_999] });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.invoice_detail_ids[0]).toMatch(/None of those lines can be invoiced/);
    // a line still reconciling is not invoiceable
    const [open] = await db().select({ id: reconciliations.invoiceDetailId }).from(reconciliations).where(eq(reconciliations.state, "reconciling"));
    expect((await post(c.admin, { invoice_detail_ids: [open!.id] })).status).toBe(422);
    const ids = await invoiceableIds();
    for (const client of [c.finance, c.despatcher, c.customerService]) expect((await post(client, { invoice_detail_ids: ids })).status).toBe(403);
    expect((await c.admin.json<Json>("/api/invoices", { method: "PUT", json: { invoice_detail_ids: ids } })).status).toBe(405);
  });

  it("invoices them: a receivable invoice with copied lines, sell costs and GST, its PDF, no e-mail without invoicing_email", async () => {
    const ids = await invoiceableIds();
    const [open] = await db().select({ id: reconciliations.invoiceDetailId }).from(reconciliations).where(eq(reconciliations.state, "reconciling"));
    const res = await c.admin.json<Json>("/api/invoices", { method: "POST", json: { invoice_detail_ids: [...ids, open!.id] } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const job = await work(res.body.job_id);
    expect(job.status, JSON.stringify(job)).toBe("complete");
    expect(job.message).toMatch(new RegExp(`^Invoicing complete: 1 invoice for ${ids.length} lines?\\.`));
    expect(job.message).toContain(NO_INVOICING_EMAIL);

    const lines = await db().select().from(invoiceDetails).where(inArray(invoiceDetails.sourceDetailId, ids));
    expect(lines).toHaveLength(ids.length);
    const [inv] = await db().select().from(invoices).where(eq(invoices.id, lines[0]!.invoiceId));
    expect(inv).toMatchObject({ accountingType: "receivable", state: "invoiced", groupKey: "CUSTOMER", emailedAt: null });
    expect(inv!.invoiceNumber).toMatch(/^INV-\d{6}$/);
    for (const l of lines) expect(l).toMatchObject({ state: "invoiced", customerId: inv!.customerId });
    // the payable line's own state is left as it was (decision 020-invoicing)
    const sources = await db().select({ state: invoiceDetails.state }).from(invoiceDetails).where(inArray(invoiceDetails.id, ids));
    expect(sources.every((s) => s.state === "allocated" || s.state === "exported")).toBe(true);
    // Australian customer: 10 % GST, and the lines add up to the invoice
    const costs = await db().select().from(invoiceCosts).where(inArray(invoiceCosts.invoiceDetailId, lines.map((l) => l.id)));
    const sum = (cat?: string) => costs.filter((k) => (cat ? k.category === cat : k.category !== "gst")).reduce((a, k) => a + toCents(k.amount), 0);
    expect(sum()).toBe(toCents(inv!.subtotal));
    expect(sum("gst")).toBe(toCents(inv!.gst));
    expect(toCents(inv!.gst)).toBe(Math.round(toCents(inv!.subtotal) / 10));
    expect(toCents(inv!.total)).toBe(toCents(inv!.subtotal) + toCents(inv!.gst));
    expect(lines.reduce((a, l) => a + toCents(l.totalCost), 0)).toBe(toCents(inv!.total));
    // each reconciliation points at its customer line
    const recs = await db().select().from(reconciliations).where(inArray(reconciliations.invoiceDetailId, ids));
    for (const r of recs) expect(r.customerInvoiceDetailId).toBe(lines.find((l) => l.sourceDetailId === r.invoiceDetailId)!.id);

    // the PDF: real Chromium, A4, titled with the invoice number, and offered as the invoice's file
    // kept in the file store, owned by the invoice's customer
    const kept = await statFile(db(), inv!.pdfPath!);
    expect(kept).toMatchObject({ kind: "customer_invoice_pdf", contentType: "application/pdf", customerId: inv!.customerId, expiresAt: null });
    const stored = await readWholeFile(db(), kept!);
    expect(stored.subarray(0, 5).toString()).toBe("%PDF-");
    const pdf = await PDFDocument.load(stored);
    expect(pdf.getTitle()).toBe(`Invoice ${inv!.invoiceNumber}`);
    // A4 is 595.28 points wide (Chromium rounds to the pixel)
    expect(Math.abs(pdf.getPage(0).getWidth() - 595.28)).toBeLessThan(1);
    const file = await c.admin.request(`/api/invoices/${inv!.id}/original_file`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expect(file.headers.get("content-disposition")).toContain(`invoice-${inv!.invoiceNumber}.pdf`);
    expect(Buffer.from(await file.arrayBuffer()).equals(stored)).toBe(true);
    // Acme's finance user may read it; the list of invoiceable lines is now empty
    expect((await c.finance.request(`/api/invoices/${inv!.id}/original_file`)).status).toBe(200);
    expect(await invoiceableIds()).toEqual([]);
  });

  it("running again bills nothing twice: the same invoices", async () => {
    const before = await db().select().from(invoices).where(eq(invoices.accountingType, "receivable")).orderBy(asc(invoices.id));
    const billed = await db().select({ id: invoiceDetails.sourceDetailId }).from(invoiceDetails).where(isNotNull(invoiceDetails.sourceDetailId));
    const again = await runInvoicing(services(), { invoiceDetailIds: billed.map((b) => b.id!), userId: null });
    expect(again).toEqual({ invoices: [], skipped: billed.length, refused: [] });
    expect(await db().select().from(invoices).where(eq(invoices.accountingType, "receivable")).orderBy(asc(invoices.id))).toEqual(before);
  });
});

// ---- lines made here, for the rules ------------------------------------------------------------

const invoicesOf = async (customerId: number) => db().select().from(invoices).where(and(eq(invoices.customerId, customerId), eq(invoices.accountingType, "receivable"))).orderBy(asc(invoices.id));
const address = (country: string, name = "Billing") => ({ name, address_line_1: "1 Main St", locality: "TOWN", postcode: "1000", country });

describe("the rules of an invoice", () => {
  it("groups by invoice_allocate_by: CUSTOMER one, SITE per consignor site, REGION per receiver region", async () => {
    const made: Record<string, number> = {};
    for (const by of ["CUSTOMER", "SITE", "REGION"] as const) {
      const cust = await createCustomer(db(), { options: { invoice_allocate_by: by }, billingAddress: address("AUSTRALIA") });
      const s1 = await createSite(db(), cust.id, { region: "NSW" });
      const s2 = await createSite(db(), cust.id, { region: "VIC" });
      const ids = [
        await reconciledLine(db(), cust.id, { siteId: s1.id, receiverRegion: "NSW" }, ["10.00"]),
        await reconciledLine(db(), cust.id, { siteId: s2.id, receiverRegion: "NSW" }, ["20.00"]),
        await reconciledLine(db(), cust.id, { siteId: s1.id, receiverRegion: "QLD" }, ["30.00"]),
      ];
      await runInvoicing(services(), { invoiceDetailIds: ids, userId: null });
      const invs = await invoicesOf(cust.id);
      made[by] = invs.length;
      const keys = invs.map((i) => i.groupKey).sort();
      if (by === "CUSTOMER") expect(keys).toEqual(["CUSTOMER"]);
      if (by === "SITE") expect(keys).toEqual([`SITE:${s1.id}`, `SITE:${s2.id}`].sort());
      if (by === "REGION") expect(keys).toEqual(["REGION:NSW", "REGION:QLD"]);
      // every line billed once, on its group's invoice
      const lines = await db().select().from(invoiceDetails).where(inArray(invoiceDetails.sourceDetailId, ids));
      expect(lines).toHaveLength(3);
      if (by === "SITE") for (const l of lines) expect(invs.find((i) => i.id === l.invoiceId)!.groupKey).toBe(`SITE:${l.siteId}`);
    }
    expect(made).toEqual({ CUSTOMER: 1, SITE: 2, REGION: 2 });
  });

  it("GST by the billing country: AU 10 %, NZ 15 %, US none; the lines add up to the invoice", async () => {
    const expected = { AUSTRALIA: 10, "NEW ZEALAND": 15, "UNITED STATES OF AMERICA": 0 } as const;
    for (const [country, rate] of Object.entries(expected)) {
      const cust = await createCustomer(db(), { billingAddress: address(country) });
      const ids = [await reconciledLine(db(), cust.id, {}, ["10.00", "0.05"]), await reconciledLine(db(), cust.id, {}, ["20.00"]), await reconciledLine(db(), cust.id, {}, ["33.33"])];
      await runInvoicing(services(), { invoiceDetailIds: ids, userId: null });
      const [inv] = await invoicesOf(cust.id);
      expect(inv!.subtotal).toBe("63.38");
      // 63.38 x 15 % = 9.507 -> 9.51; x 10 % = 6.338 -> 6.34
      expect(inv!.gst).toBe({ 10: "6.34", 15: "9.51", 0: "0.00" }[rate]);
      expect(toCents(inv!.total)).toBe(6338 + toCents(inv!.gst));
      const lines = await db().select().from(invoiceDetails).where(eq(invoiceDetails.invoiceId, inv!.id));
      const costs = await db().select().from(invoiceCosts).where(inArray(invoiceCosts.invoiceDetailId, lines.map((l) => l.id)));
      const gstLines = costs.filter((k) => k.category === "gst");
      expect(gstLines.length).toBe(rate ? 3 : 0);
      expect(gstLines.reduce((a, k) => a + toCents(k.amount), 0)).toBe(toCents(inv!.gst));
      expect(lines.reduce((a, l) => a + toCents(l.totalCost), 0)).toBe(toCents(inv!.total));
      expect(inv!.billingAddress).toMatchObject({ country });
    }
  });

  it("billing_address_from: ENTERED, SITE, a site id, a region map", async () => {
    const cases = [
      { from: undefined, expect: "Entered" },
      { from: "ENTERED", expect: "Entered" },
      { from: "SITE", expect: "Consignor site" },
      { from: "OTHER", expect: "Other site" },
      { from: "MAP", expect: "Other site" },
    ];
    for (const k of cases) {
      const cust = await createCustomer(db(), { billingAddress: address("AUSTRALIA", "Entered") });
      const consignor = await createSite(db(), cust.id, { region: "VIC", billingAddress: address("AUSTRALIA", "Consignor site") });
      const other = await createSite(db(), cust.id, { region: "NSW", billingAddress: address("AUSTRALIA", "Other site") });
      const from = k.from === "OTHER" ? String(other.id) : k.from === "MAP" ? { VIC: other.id } : k.from;
      await db().update(customers).set({ options: from ? { billing_address_from: from } : {} }).where(eq(customers.id, cust.id));
      await runInvoicing(services(), { invoiceDetailIds: [await reconciledLine(db(), cust.id, { siteId: consignor.id }, ["5.00"])], userId: null });
      const [inv] = await invoicesOf(cust.id);
      expect(inv!.billingAddress, String(k.from)).toMatchObject({ name: k.expect });
    }
  });

  it("numbers gaplessly: a rolled-back number is given back; concurrent runs bill each line once", async () => {
    const last = async () => rowsOf<{ v: number }>(await db().execute(sql`select last_value as v from invoice_number_sequences where name = 'receivable'`))[0]!.v;
    const start = Number(await last());
    await db()
      .transaction(async (tx) => {
        expect(await takeInvoiceNumber(tx)).toBe(formatInvoiceNumber(start + 1));
        throw new Error("roll back");
      })
      .catch(() => {});
    expect(Number(await last())).toBe(start);

    const cust = await createCustomer(db(), { options: { invoice_allocate_by: "REGION" }, billingAddress: address("AUSTRALIA") });
    const ids = [await reconciledLine(db(), cust.id, { receiverRegion: "NSW" }, ["1.00"]), await reconciledLine(db(), cust.id, { receiverRegion: "VIC" }, ["2.00"]), await reconciledLine(db(), cust.id, { receiverRegion: "QLD" }, ["3.00"])];
    const [a, b] = await Promise.all([runInvoicing(services(), { invoiceDetailIds: ids, userId: null }), runInvoicing(services(), { invoiceDetailIds: [...ids].reverse(), userId: null })]);
    expect(a.invoices.length + b.invoices.length).toBe(3);
    expect(a.skipped + b.skipped).toBe(3);
    const invs = await invoicesOf(cust.id);
    expect(invs.map((i) => i.invoiceNumber).sort()).toEqual([1, 2, 3].map((n) => formatInvoiceNumber(start + n)));
    expect(await db().select().from(invoiceDetails).where(inArray(invoiceDetails.sourceDetailId, ids))).toHaveLength(3);
  });

  it("e-mails the PDF to the customer's invoicing_email as an attachment", async () => {
    const email = `billing-${Date.now()}@example.net`;
    const cust = await createCustomer(db(), { options: { invoicing_email: email }, billingAddress: address("AUSTRALIA") });
    const r = await runInvoicing(services(), { invoiceDetailIds: [await reconciledLine(db(), cust.id, {}, ["12.00"])], userId: null });
    expect(r.invoices[0]).toMatchObject({ emailed: true, pdf: true, problem: null });
    const [inv] = await invoicesOf(cust.id);
    expect(inv!.emailedAt).not.toBeNull();
    const [mail] = await storedMessagesFor(db(), email);
    expect(mail!.subject).toBe(`Invoice ${inv!.invoiceNumber}`);
    expect(mail!.attachments).toHaveLength(1);
    expect(mail!.attachments[0]).toMatchObject({ filename: `invoice-${inv!.invoiceNumber}.pdf`, content_type: "application/pdf" });
    const attached = Buffer.from(mail!.attachments[0]!.content_base64, "base64");
    expect((await PDFDocument.load(attached)).getTitle()).toBe(`Invoice ${inv!.invoiceNumber}`);
    // another customer's finance user cannot read it: it looks missing
    expect((await c.finance.request(`/api/invoices/${inv!.id}/original_file`)).status).toBe(404);
  });
});

describe("failures", () => {
  it("a PDF that cannot be rendered leaves the invoice made and ends the job 'Invoicing error'", async () => {
    const cust = await createCustomer(db(), { billingAddress: address("AUSTRALIA") });
    const broken = { ...server.renderer, renderPdf: async () => Promise.reject(new Error("Chromium is gone")) };
    const r = await runInvoicing({ ...services(), renderer: broken }, { invoiceDetailIds: [await reconciledLine(db(), cust.id, {}, ["7.00"])], userId: null });
    expect(r.invoices).toHaveLength(1);
    expect(r.invoices[0]).toMatchObject({ pdf: false, emailed: false });
    expect(invoicingErrors(r)[0]).toContain("Chromium is gone");
    expect(invoicingMessage(r)).toMatch(/^Invoicing error: 1 invoice for 1 line\./);
    const [inv] = await invoicesOf(cust.id);
    expect(inv).toMatchObject({ pdfPath: null, total: "7.70" });
  });

  it("a PDF stored but whose invoice could not be updated is not kept: the PDF and its reference commit together", async () => {
    const cust = await createCustomer(db(), { billingAddress: address("AUSTRALIA") });
    const broken = { ...server.renderer, renderPdf: async () => Promise.reject(new Error("Chromium is gone")) };
    const r = await runInvoicing({ ...services(), renderer: broken }, { invoiceDetailIds: [await reconciledLine(db(), cust.id, {}, ["7.00"])], userId: null });
    const id = r.invoices[0]!.id;
    const pdfsOf = async () => db().select({ id: files.id }).from(files).where(and(eq(files.kind, "customer_invoice_pdf"), eq(files.customerId, cust.id)));
    // the update of the invoice fails inside the transaction, after the PDF was written in it
    const real = db();
    const failingTx = new Proxy(real, {
      get(target, key) {
        if (key !== "transaction") return Reflect.get(target, key);
        return (fn: (tx: unknown) => Promise<unknown>) =>
          target.transaction((tx) => fn(new Proxy(tx, { get: (t, k) => (k === "update" ? () => { throw new Error("update failed"); } : Reflect.get(t, k)) })));
      },
    });
    const failed = await deliverInvoice({ ...services(), db: failingTx }, id);
    expect(failed).toMatchObject({ pdf: false });
    expect(failed.problem).toContain("update failed");
    expect(await pdfsOf()).toEqual([]);
    expect((await db().select({ p: invoices.pdfPath }).from(invoices).where(eq(invoices.id, id)))[0]!.p).toBeNull();
    // made again without the fault: one PDF, the invoice pointing at it
    expect(await deliverInvoice(services(), id)).toMatchObject({ pdf: true });
    const kept = await pdfsOf();
    expect(kept).toHaveLength(1);
    expect((await db().select({ p: invoices.pdfPath }).from(invoices).where(eq(invoices.id, id)))[0]!.p).toBe(kept[0]!.id);
  });

  it("a PDF damaged in the store answers 409, one missing 404, each with its message and logged, never a 500", async () => {
    const cust = await createCustomer(db(), { billingAddress: address("AUSTRALIA") });
    await runInvoicing(services(), { invoiceDetailIds: [await reconciledLine(db(), cust.id, {}, ["3.00"])], userId: null });
    const [inv] = await invoicesOf(cust.id);
    const url = `/api/invoices/${inv!.id}/original_file`;
    expect((await c.admin.request(url)).status).toBe(200);
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await db().delete(fileChunks).where(eq(fileChunks.fileId, inv!.pdfPath!));
      const damaged = await c.admin.json<{ errors: { base: string[] } }>(url);
      expect(damaged.status).toBe(409);
      expect(damaged.body.errors.base).toEqual([FILE_DAMAGED]);
      await db().delete(files).where(eq(files.id, inv!.pdfPath!));
      const missing = await c.admin.json<{ errors: { base: string[] } }>(url);
      expect(missing.status).toBe(404);
      expect(missing.body.errors.base).toEqual([FILE_MISSING]);
      const lines = logged.mock.calls.map((call) => call.join(" "));
      expect(lines.some((l) => l.includes(`invoice ${inv!.id}'s PDF`) && l.includes("damaged"))).toBe(true);
      expect(lines.some((l) => l.includes(`invoice ${inv!.id}'s PDF`) && l.includes("missing"))).toBe(true);
    } finally {
      logged.mockRestore();
    }
    // the invoice itself stays
    expect((await invoicesOf(cust.id)).map((i) => i.id)).toEqual([inv!.id]);
  });

  it("a run that throws says 'Invoicing error'", async () => {
    const failing = { ...services(), db: { ...db(), select: () => { throw new Error("database gone"); } } as unknown as ReturnType<typeof db> };
    await expect(runInvoicing(failing, { invoiceDetailIds: [1], userId: null })).rejects.toThrow("Invoicing error: database gone");
  });
});
