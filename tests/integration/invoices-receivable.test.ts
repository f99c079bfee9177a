/**
 * /invoices_receivable (issue 19 point 5; spec 3 "Invoices receivable"): the list of customer
 * invoices (counters all and invoiced, groups per customer, customer and date filters, scoped), the
 * Send invoice modal's invoiceable lines (filters, sort, the empty message) and its two posts
 * without JavaScript: Invoice (the job) and Schedule.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customers, invoiceDetails, invoices, invoicingSchedules } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { createCustomer } from "../../db/seed/factories";
import { todayIn } from "../../app/modules/calendar/site-time";
import { reconciledLine } from "../support/invoicing";
import { Client, startTestServer, type TestServer } from "../support/server";

let server: TestServer;
let admin: Client;
let finance: Client;
const db = () => server.db;
const ids = {} as Record<"acme" | "other" | "acmeLine" | "otherLine" | "acmeInvoice" | "otherInvoice", number>;

async function receivable(customerId: number, number: string, date: string) {
  const [inv] = await db().insert(invoices).values({ accountingType: "receivable", state: "invoiced", customerId, invoiceNumber: number, invoiceDate: date, subtotal: "10.00", gst: "1.00", total: "11.00" }).returning();
  await db().insert(invoiceDetails).values({ invoiceId: inv!.id, lineNumber: 1, customerId, state: "invoiced", consignmentNumber: `${number}-1`, totalCost: "11.00" });
  return inv!.id;
}

const page = async (client: Client, path: string) => {
  const res = await client.request(path, { headers: { Accept: "text/html" } });
  return { status: res.status, html: await res.text(), location: res.headers.get("location") };
};

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  admin = new Client(server.url);
  finance = new Client(server.url);
  expect((await admin.signIn("admin@example.com")).status).toBe(200);
  expect((await finance.signIn("finance@example.com")).status).toBe(200);
  ids.acme = (await db().select().from(customers).where(eq(customers.code, "ACME")))[0]!.id;
  ids.other = (await createCustomer(db(), { name: "Other Freight Co" })).id;
  ids.acmeLine = await reconciledLine(db(), ids.acme, { receiverName: "Brisbane Hardware", reference: "PO-ACME" });
  ids.otherLine = await reconciledLine(db(), ids.other, { receiverName: "Perth Supplies", reference: "PO-OTHER" });
  const today = todayIn("Australia/Melbourne");
  ids.acmeInvoice = await receivable(ids.acme, "INV-TEST-1", today);
  ids.otherInvoice = await receivable(ids.other, "INV-TEST-2", today);
  await receivable(ids.other, "INV-OLD-3", "2020-01-01");
}, 120_000);
afterAll(() => server?.close());

describe("the receivable list", () => {
  it("groups the past fortnight's invoices per customer with counters all and invoiced", async () => {
    const { status, html } = await page(admin, "/invoices_receivable");
    expect(status).toBe(200);
    expect(html).toContain("INV-TEST-1");
    expect(html).toContain("INV-TEST-2");
    // older than the default fortnight
    expect(html).not.toContain("INV-OLD-3");
    // React writes "(<!-- -->2<!-- -->)" for the counter
    const counter = (state: string) => Number(new RegExp(`count-${state}"[\\s\\S]*?\\((?:<!-- -->)?(\\d+)`).exec(html)?.[1]);
    expect(counter("all")).toBe(2);
    expect(counter("invoiced")).toBe(2);
    expect(html.match(/data-testid="receivable-group"/g)).toHaveLength(2);
    // a customer filter, and a custom range that reaches back
    expect((await page(admin, `/invoices_receivable?customer_id=${ids.other}`)).html).not.toContain("INV-TEST-1");
    expect((await page(admin, `/invoices_receivable?customer_id=${ids.other}&date=custom&from=2019-12-01&to=2020-02-01`)).html).toContain("INV-OLD-3");
  });

  it("shows a customer's finance user their own customer's invoices only, without Invoice", async () => {
    const { html } = await page(finance, "/invoices_receivable");
    expect(html).toContain("INV-TEST-1");
    expect(html).not.toContain("INV-TEST-2");
    expect(html).not.toContain('id="open-invoice"');
    expect((await page(finance, "/invoices_receivable?modal=invoice")).html).not.toContain('data-testid="send-invoice"');
    const post = await finance.request("/invoices_receivable", { form: { intent: "invoice", invoice_detail_ids: String(ids.acmeLine) } });
    expect(post.status).toBe(403);
  });
});

describe("the Send invoice modal", () => {
  it("lists the invoiceable lines, filtered and sorted by the URL", async () => {
    const all = (await page(admin, "/invoices_receivable?modal=invoice")).html;
    expect(all).toContain('data-testid="send-invoice"');
    expect(all).toContain("Brisbane Hardware");
    expect(all).toContain("Perth Supplies");
    const filtered = (await page(admin, "/invoices_receivable?modal=invoice&l_receiver_name=perth")).html;
    expect(filtered).not.toContain("Brisbane Hardware");
    expect(filtered).toContain("Perth Supplies");
    expect((await page(admin, "/invoices_receivable?modal=invoice&l_reference=PO-ACME")).html).not.toContain("Perth Supplies");
    const sorted = (await page(admin, "/invoices_receivable?modal=invoice&l_order_by=receiver_name&l_order_direction=desc")).html;
    expect(sorted.indexOf("Perth Supplies")).toBeLessThan(sorted.indexOf("Brisbane Hardware"));
    expect((await page(admin, "/invoices_receivable?modal=invoice&l_consignment_number=NOTHING-LIKE-IT")).html).toContain("There are no invoiceable consignments to display.");
  });

  it("schedules the selection without JavaScript, and refuses a date that has passed", async () => {
    const refused = await admin.request("/invoices_receivable?modal=invoice", { form: { intent: "schedule", invoice_detail_ids: String(ids.otherLine), period: "ONCE", day: "", hour: "09:00", time_zone: "Australia/Sydney", date: "01/01/2020" } });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain("That time has passed: choose a later one.");
    const ok = await admin.request("/invoices_receivable", { form: { intent: "schedule", invoice_detail_ids: String(ids.otherLine), period: "WEEKLY", day: "Friday", hour: "17:30", time_zone: "Australia/Perth", date: "" } });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toContain("modal=schedules");
    const [s] = await db().select().from(invoicingSchedules).where(eq(invoicingSchedules.timeZone, "Australia/Perth"));
    expect(s).toMatchObject({ period: "WEEKLY", day: "Friday", hour: "17:30", invoiceDetailIds: [ids.otherLine] });
    const list = (await page(admin, "/invoices_receivable?modal=schedules")).html;
    expect(list).toContain('data-testid="schedule-row"');
    expect(list).toContain("Australia/Perth");
  });

  it("invoices the selection without JavaScript: a job, shown on the page", async () => {
    const none = await admin.request("/invoices_receivable?modal=invoice", { form: { intent: "invoice" } });
    expect(none.status).toBe(422);
    expect(await none.text()).toContain("Choose at least one line.");
    const res = await admin.request("/invoices_receivable", { form: { intent: "invoice", invoice_detail_ids: String(ids.acmeLine) } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/job=[0-9a-f-]{36}/);
  });
});
