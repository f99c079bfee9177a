/**
 * The freight audit's figures (issue 29 "Audit figures", decision 029): per carrier invoice in
 * GET /api/invoices/{id} and on the invoice page, per carrier over the payable list's period in
 * GET /api/invoices and under the list: lines matched automatically, discrepancy found, disputed,
 * recovered (credits since against lines a person contested) and duplicates caught, each worked
 * out over the reader's own lines of a shared carrier invoice.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carriers, customers, invoiceDetails, invoices, reconciliationNotes, reconciliations } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { createUser } from "../../db/seed/factories";
import { todayIn } from "../../app/modules/calendar/site-time";
import { signInAll, startTestServer, type Client, type TestServer } from "../support/server";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

let server: TestServer;
const EMAILS = { admin: "admin@example.com", finance: "finance@example.com", testFinance: "auditfinance@example.com" } as const;
const c = {} as Record<keyof typeof EMAILS, Client>;
const ids = { acme: 0, testco: 0, carrier: 0, audited: 0, credits: 0, twin: 0 };
// two days back: inside every user's default past fortnight, whatever their time zone
const day = (back: number) => new Date(Date.parse(`${todayIn("Australia/Melbourne")}T00:00:00Z`) - back * 86_400_000).toISOString().slice(0, 10);

async function invoiceWith(number: string, date: string, lines: Array<{ con: string; customer: number | null; total: string; duplicateOf?: number }>) {
  const [inv] = await server.db.insert(invoices).values({ accountingType: "payable", invoiceNumber: number, invoiceDate: date, carrierId: ids.carrier, state: "allocated" }).returning();
  const made = await server.db
    .insert(invoiceDetails)
    .values(lines.map((l, i) => ({ invoiceId: inv!.id, lineNumber: i + 1, carrierId: ids.carrier, consignmentNumber: l.con, customerId: l.customer, state: l.customer ? "allocated" : "unallocated", totalCost: l.total, duplicateOfDetailId: l.duplicateOf ?? null })))
    .returning();
  return { id: inv!.id, lines: made };
}

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  const customer = async (code: string) => (await server.db.select().from(customers).where(eq(customers.code, code)))[0]!.id;
  ids.acme = await customer("ACME");
  ids.testco = await customer("TESTCO");
  ids.carrier = (await server.db.select().from(carriers).where(eq(carriers.code, "auspost")))[0]!.id;
  await createUser(server.db, ids.testco, { email: EMAILS.testFinance, fullName: "Audrey Finance", canReconcile: true });
  Object.assign(c, await signInAll(server.url, EMAILS));

  // one carrier invoice, two customers' lines: ACME's three, TESTCO's one
  const audited = await invoiceWith("AUDIT-1", day(3), [
    { con: "AUD1", customer: ids.acme, total: "11.00" },
    { con: "AUD2", customer: ids.acme, total: "22.00" },
    { con: "AUD3", customer: ids.acme, total: "33.00" },
    { con: "AUD4", customer: ids.testco, total: "144.00" },
  ]);
  ids.audited = audited.id;
  const rec = async (line: number, state: "reconciling" | "disputed" | "reconciled", discrepancy: string, note?: string) => {
    const d = audited.lines[line]!;
    const [r] = await server.db.insert(reconciliations).values({ invoiceDetailId: d.id, customerId: d.customerId, carrierId: ids.carrier, state, discrepancyAmount: discrepancy }).returning();
    if (note) await server.db.insert(reconciliationNotes).values({ reconciliationId: r!.id, text: note });
  };
  await rec(0, "reconciled", "0.40"); // the job matched it within the thresholds: no person, no note
  await rec(1, "reconciled", "5.00", "Accepted: the carrier re-weighed it"); // a person decided an overcharge
  await rec(2, "disputed", "8.00", "Disputed with the carrier");
  await rec(3, "disputed", "100.00", "Disputed with the carrier");
  // the carrier's next invoice credits two of ACME's contested lines; a credit for the matched line is no recovery
  ids.credits = (
    await invoiceWith("AUDIT-2", day(2), [
      { con: "AUD2", customer: ids.acme, total: "-2.00" },
      { con: "AUD3", customer: ids.acme, total: "-6.00" },
      { con: "AUD1", customer: ids.acme, total: "-0.40" },
    ])
  ).id;
  // and a twin of the first line, flagged at import
  ids.twin = (await invoiceWith("AUDIT-3", day(1), [{ con: "AUD1", customer: ids.acme, total: "11.00", duplicateOf: audited.lines[0]!.id }])).id;
}, 120_000);
afterAll(() => server.close());

describe("one carrier invoice's audit figures", () => {
  it("staff read them over every line: matched automatically, discrepancy found, disputed, recovered, duplicates caught", async () => {
    const res = await c.admin.json<Json>(`/api/invoices/${ids.audited}`);
    expect(res.status).toBe(200);
    expect(res.body.audit).toEqual({
      lines: 4,
      matched_automatically: 1,
      matched_automatically_pct: 25,
      discrepancy_found: 113,
      disputed: 108,
      recovered: 8,
      duplicates_caught: { count: 0, amount: 0 },
    });
    const twin = await c.admin.json<Json>(`/api/invoices/${ids.twin}`);
    expect(twin.body.audit).toMatchObject({ lines: 1, matched_automatically: 0, duplicates_caught: { count: 1, amount: 11 } });
    expect(twin.body.duplicates_caught).toEqual({ count: 1, amount: 11 });
  });

  it("a customer's finance user reads them over their own lines only", async () => {
    const acme = await c.finance.json<Json>(`/api/invoices/${ids.audited}`);
    expect(acme.status).toBe(200);
    expect(acme.body.audit).toEqual({ lines: 3, matched_automatically: 1, matched_automatically_pct: 33.3, discrepancy_found: 13, disputed: 8, recovered: 8, duplicates_caught: { count: 0, amount: 0 } });
    const testco = await c.testFinance.json<Json>(`/api/invoices/${ids.audited}`);
    expect(testco.body.audit).toEqual({ lines: 1, matched_automatically: 0, matched_automatically_pct: 0, discrepancy_found: 100, disputed: 100, recovered: 0, duplicates_caught: { count: 0, amount: 0 } });
  });

  it("the invoice page shows them, each reader's own", async () => {
    const staff = await c.admin.request(`/invoice/${ids.audited}`);
    const html = await staff.text();
    expect(html).toContain('data-testid="invoice-audit"');
    expect(html).toMatch(/Matched automatically<\/dt><dd[^>]*>1 \(25\.0%\)/);
    expect(html).toMatch(/Discrepancy found<\/dt><dd[^>]*>\$113\.00/);
    expect(html).toMatch(/Recovered<\/dt><dd[^>]*>\$8\.00/);
    const own = await (await c.testFinance.request(`/invoice/${ids.audited}`)).text();
    expect(own).toMatch(/Discrepancy found<\/dt><dd[^>]*>\$100\.00/);
    expect(own).not.toContain("$113.00");
  });
});

describe("per carrier over the payable list's period", () => {
  const period = `date=custom&from=${day(3)}&to=${day(1)}&state=all`;

  it("GET /api/invoices sums every invoice the filters pick, whatever its state", async () => {
    const res = await c.admin.json<Json>(`/api/invoices?${period}&carrier_id=${ids.carrier}`);
    expect(res.status).toBe(200);
    const row = (res.body.meta.audit as Json[]).find((a) => a.carrier_id === ids.carrier);
    expect(row).toMatchObject({ lines: 8, matched_automatically: 1, discrepancy_found: 113, disputed: 108, recovered: 8, duplicates_caught: { count: 1, amount: 11 } });
    expect(row!.carrier_name).toBeTruthy();
    // a period that leaves out the first invoice leaves out its figures
    const later = await c.admin.json<Json>(`/api/invoices?date=custom&from=${day(2)}&to=${day(1)}&state=all&carrier_id=${ids.carrier}`);
    expect((later.body.meta.audit as Json[]).find((a) => a.carrier_id === ids.carrier)).toMatchObject({ lines: 4, discrepancy_found: 0, disputed: 0, recovered: 0, duplicates_caught: { count: 1 } });
  });

  it("a customer's finance user's period figures hold their own lines only, and the list page shows the table", async () => {
    const res = await c.testFinance.json<Json>(`/api/invoices?${period}`);
    expect((res.body.meta.audit as Json[]).find((a) => a.carrier_id === ids.carrier)).toMatchObject({ lines: 1, discrepancy_found: 100, disputed: 100, recovered: 0, duplicates_caught: { count: 0 } });
    const page = await (await c.admin.request(`/invoices_payable?${period}`)).text();
    expect(page).toContain('data-testid="carrier-audit"');
    expect(page).toContain("$113.00");
  });
});
