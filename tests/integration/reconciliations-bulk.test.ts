/**
 * The list's bulk actions (issue 19 item 2 and the dispute e-mail of item 3; spec 3 sections 4,
 * 5 and 7): PUT /api/reconciliations/{dispute|accept|use_consignment_costs|reset}. Lines whose
 * state allows the action are done and the others refused one by one; notes are required (max
 * 255) and kept with their author; reset deletes notes and reasons and compares again; a dispute
 * e-mails the carrier's support address with the evidence; two bulk calls on one line at once
 * cannot both act on it.
 */
import { asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carrierAccounts, carriers, customers, invoiceCosts, invoiceDetails, invoices, mailMessages, reconciliationNotes, reconciliations, users } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { DEMO_INVOICE_NUMBERS } from "../../db/seed/invoices";
import { DEMO_DISPUTE_NOTE, seedReconciliationStates } from "../../db/seed/invoices/reconciliation-states";
import { loadCurrentUser } from "../../app/modules/auth/current-user.server";
import { bulkUpdate } from "../../app/modules/reconciliation/bulk.server";
import { Client, signInAll, startTestServer, type TestServer } from "../support/server";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

let server: TestServer;
const EMAILS = { admin: "admin@example.com", superadmin: "superadmin@example.com", finance: "finance@example.com", customerService: "customerservice@example.com" };
const c = {} as Record<keyof typeof EMAILS, Client>;
let northline: number;
let acme: number;
let testco: number;
let accountNumber: string;
let seq = 0;

type State = "reconciling" | "disputed" | "reconciled";
/** A reconciliation on a line of its own invoice: no consignment, so a comparison finds failed_to_rate. */
async function rec(state: State, over: { customerId?: number; accountNumber?: string | null; reasons?: string[] } = {}) {
  const n = ++seq;
  const [inv] = await server.db.insert(invoices).values({ accountingType: "payable", invoiceNumber: `BULK-${n}`, carrierId: northline, state: "allocated", total: "12.50" }).returning();
  const [d] = await server.db
    .insert(invoiceDetails)
    .values({ invoiceId: inv!.id, lineNumber: 1, carrierId: northline, customerId: over.customerId ?? acme, state: "allocated", consignmentNumber: `BCN${n}`, accountNumber: over.accountNumber ?? null, senderZone: "MEL", receiverZone: "SYD", totalWeightInUom: "4.000", totalChargeWeight: "5.000", totalCost: "12.50" })
    .returning();
  await server.db.insert(invoiceCosts).values({ invoiceDetailId: d!.id, category: "freight_charge", description: "Freight", amount: "12.50" });
  const [r] = await server.db
    .insert(reconciliations)
    .values({ invoiceDetailId: d!.id, customerId: over.customerId ?? acme, carrierId: northline, state, reasonCategories: (over.reasons ?? ["zone"]) as never, invoiced: "12.50", discrepancyAmount: "12.50", reconciledAt: state === "reconciled" ? new Date() : null })
    .returning();
  return r!.id;
}
const row = async (id: number) => (await server.db.select().from(reconciliations).where(eq(reconciliations.id, id)))[0]!;
const notes = (id: number) => server.db.select().from(reconciliationNotes).where(eq(reconciliationNotes.reconciliationId, id)).orderBy(asc(reconciliationNotes.id));
const put = (client: Client, action: string, json: unknown) => client.json<Json>(`/api/reconciliations/${action}`, { method: "PUT", json });

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  Object.assign(c, await signInAll(server.url, EMAILS));
  northline = (await server.db.select().from(carriers).where(eq(carriers.code, "NORTHLINE")))[0]!.id;
  acme = (await server.db.select().from(customers).where(eq(customers.code, "ACME")))[0]!.id;
  testco = (await server.db.select().from(customers).where(eq(customers.code, "TESTCO")))[0]!.id;
  accountNumber = (await server.db.select().from(carrierAccounts).where(eq(carrierAccounts.carrierId, northline)).orderBy(asc(carrierAccounts.id)))[0]!.accountNumber;
}, 180_000);
afterAll(() => server?.close());

describe("PUT /api/reconciliations/dispute", () => {
  it("disputes the Un-Reconciled lines with the note and its author, refuses the others per line, and e-mails the carrier the evidence", async () => {
    const a = await rec("reconciling", { accountNumber: "NOT-AN-ACCOUNT" });
    const b = await rec("reconciling", { accountNumber });
    const done = await rec("reconciled");
    const res = await put(c.admin, "dispute", { ids: [a, b, done, a, 99999999], note: "  Charged Sydney zone for a Melbourne delivery  " });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.done).toEqual([
      { id: a, from: "reconciling", to: "disputed" },
      { id: b, from: "reconciling", to: "disputed" },
    ]);
    expect(res.body.refused).toEqual([
      { id: done, message: "Dispute is not allowed on Reconciled reconciliations." },
      { id: 99999999, message: "No such reconciliation." },
    ]);
    expect(res.body.message).toBe("2 reconciliations disputed; 2 reconciliations refused.");
    for (const id of [a, b]) {
      expect(await row(id)).toMatchObject({ state: "disputed", version: 2, reconciledAt: null });
      const [note] = await notes(id);
      const [admin] = await server.db.select().from(users).where(eq(users.email, EMAILS.admin));
      expect(note).toMatchObject({ text: "Charged Sydney zone for a Melbourne delivery", userId: admin!.id });
    }
    expect(await row(done)).toMatchObject({ state: "reconciled", version: 1 });

    // a's account is unknown: the carrier's own address; b's account has its support address
    expect(res.body.emails.not_emailed).toEqual([]);
    const sent = new Map<string, number[]>(res.body.emails.sent.map((s: Json) => [s.to, s.ids]));
    const [carrier] = await server.db.select().from(carriers).where(eq(carriers.id, northline));
    const [account] = await server.db.select().from(carrierAccounts).where(eq(carrierAccounts.accountNumber, accountNumber));
    expect(sent.get(carrier!.defaultEmail!.toLowerCase())).toEqual([a]);
    expect(sent.get(account!.supportEmail!.toLowerCase())).toEqual([b]);
    const [mail] = await server.db.select().from(mailMessages).where(eq(mailMessages.to, account!.supportEmail!.toLowerCase()));
    expect(mail!.subject).toMatch(/^Disputed charges on Northline invoice BULK-\d+$/);
    for (const evidence of [`Consignment BCN${seq - 1} on invoice BULK-${seq - 1}`, "Zones: invoiced MEL to SYD", "Dead weight: invoiced 4.000", "Charge weight: invoiced 5.000", "freight_charge Freight: $12.50", "discrepancy $12.50", "Note: Charged Sydney zone for a Melbourne delivery"]) {
      expect(mail!.text).toContain(evidence);
    }
  });

  it("reports the lines whose carrier has no support address as not e-mailed", async () => {
    await server.db.update(carriers).set({ defaultEmail: null }).where(eq(carriers.id, northline));
    try {
      const a = await rec("reconciling");
      const res = await put(c.admin, "dispute", { ids: [a], note: "no address" });
      expect(res.body.emails).toEqual({ sent: [], not_emailed: [a] });
      expect((await row(a)).state).toBe("disputed");
    } finally {
      await server.db.update(carriers).set({ defaultEmail: "ops@carrier.example" }).where(eq(carriers.id, northline));
    }
  });

  it("needs a note of at most 255 characters and at least one id", async () => {
    const a = await rec("reconciling");
    for (const note of [undefined, "", "   "]) {
      const res = await put(c.admin, "dispute", { ids: [a], note });
      expect(res.status).toBe(422);
      expect(res.body.errors.note).toEqual(["Note needed for bulk updating reconciliations."]);
    }
    const long = await put(c.admin, "accept", { ids: [a], note: "x".repeat(256) });
    expect(long.status).toBe(422);
    expect(long.body.errors.note).toEqual(["A note is at most 255 characters."]);
    expect((await put(c.admin, "accept", { ids: [a], note: "x".repeat(255) })).status).toBe(200);
    expect((await put(c.admin, "dispute", { ids: [], note: "x" })).body.errors.ids).toEqual(["Choose at least one reconciliation."]);
    expect((await c.admin.json("/api/reconciliations/dispute", { method: "POST", json: { ids: [a], note: "x" } })).status).toBe(405);
  });
});

describe("accept and use consignment costs", () => {
  it("accept reconciles Un-Reconciled and Disputed lines, with reconciled_at", async () => {
    const [a, b, done] = [await rec("reconciling"), await rec("disputed"), await rec("reconciled")];
    const res = await put(c.superadmin, "accept", { ids: [a, b, done], note: "Carrier credit agreed" });
    expect(res.body.done.map((d: Json) => d.id)).toEqual([a, b]);
    expect(res.body.refused).toEqual([{ id: done, message: "Accept is not allowed on Reconciled reconciliations." }]);
    for (const id of [a, b]) {
      const r = await row(id);
      expect(r).toMatchObject({ state: "reconciled", version: 2, chargeFromConsignment: true });
      expect(r.reconciledAt).toBeInstanceOf(Date);
    }
  });

  it("use consignment costs reconciles Un-Reconciled lines only and charges from the consignment", async () => {
    const [a, b] = [await rec("reconciling"), await rec("disputed")];
    await server.db.update(reconciliations).set({ chargeFromConsignment: false }).where(inArray(reconciliations.id, [a, b]));
    const res = await put(c.admin, "use_consignment_costs", { ids: [a, b], note: "Rated costs stand" });
    expect(res.body.done.map((d: Json) => d.id)).toEqual([a]);
    expect(res.body.refused).toEqual([{ id: b, message: "Use Con Costs is not allowed on Disputed reconciliations." }]);
    expect(await row(a)).toMatchObject({ state: "reconciled", chargeFromConsignment: true, version: 2 });
    expect(await row(b)).toMatchObject({ state: "disputed", chargeFromConsignment: false, version: 1 });
    expect(await notes(b)).toEqual([]);
  });
});

describe("PUT /api/reconciliations/reset", () => {
  it("puts Disputed and Reconciled lines back to Un-Reconciled, deletes their notes and compares them again", async () => {
    const [a, b, open] = [await rec("reconciling"), await rec("reconciling"), await rec("reconciling")];
    await put(c.admin, "dispute", { ids: [a], note: "first" });
    await put(c.admin, "accept", { ids: [b], note: "second" });
    expect(await notes(a)).toHaveLength(1);
    const res = await put(c.admin, "reset", { ids: [a, b, open] });
    expect(res.status).toBe(200);
    expect(res.body.done).toEqual([
      { id: a, from: "disputed", to: "reconciling" },
      { id: b, from: "reconciled", to: "reconciling" },
    ]);
    expect(res.body.refused).toEqual([{ id: open, message: "Reset is not allowed on Un-Reconciled reconciliations." }]);
    for (const id of [a, b]) {
      expect(await notes(id)).toEqual([]);
      // the stored zone reason is gone; comparing again found the line has no consignment
      expect(await row(id)).toMatchObject({ state: "reconciling", reasonCategories: ["failed_to_rate"], reconciledAt: null, version: 4 });
    }
    // reset takes ids only; nothing it may do: 'Failed to reset reconciliations, {message}'
    const none = await put(c.admin, "reset", { ids: [open] });
    expect(none.body.done).toEqual([]);
    expect(none.body.message).toBe("Failed to reset reconciliations, Reset is not allowed on Un-Reconciled reconciliations.");
  });
});

describe("a line invoiced to its customer", () => {
  it("is not reset: the decision it was billed on stands", async () => {
    const billed = await rec("reconciled");
    const r = await row(billed);
    // the customer invoice's line that bills it (a receivable invoice of its own)
    const [inv] = await server.db.insert(invoices).values({ accountingType: "receivable", invoiceNumber: `INV-BULK-${billed}`, customerId: acme, state: "invoiced", total: "15.00" }).returning();
    const [line] = await server.db.insert(invoiceDetails).values({ invoiceId: inv!.id, lineNumber: 1, customerId: acme, state: "invoiced", sourceDetailId: r.invoiceDetailId, totalCost: "15.00" }).returning();
    await server.db.update(reconciliations).set({ customerInvoiceDetailId: line!.id }).where(eq(reconciliations.id, billed));
    const res = await put(c.admin, "reset", { ids: [billed] });
    expect(res.body.done).toEqual([]);
    expect(res.body.refused).toEqual([{ id: billed, message: "Reset is not allowed on invoiced reconciliations." }]);
    expect(await row(billed)).toMatchObject({ state: "reconciled", version: r.version });
  });
});

describe("who may act", () => {
  it("refuses the signed out (401), a customer's finance user and customer service (403), and hides another customer's lines", async () => {
    const a = await rec("reconciling");
    expect((await put(new Client(server.url), "accept", { ids: [a], note: "x" })).status).toBe(401);
    expect((await put(c.finance, "accept", { ids: [a], note: "x" })).status).toBe(403);
    expect((await put(c.customerService, "reset", { ids: [a] })).status).toBe(403);
    expect((await row(a)).state).toBe("reconciling");
    // staff see every customer's lines
    const theirs = await rec("reconciling", { customerId: testco });
    expect((await put(c.admin, "accept", { ids: [theirs], note: "ok" })).body.done).toHaveLength(1);
  });
});

describe("two bulk calls on one line at once", () => {
  it("lets one act and refuses the other, on the state the first left", async () => {
    const [adminRow] = await server.db.select().from(users).where(eq(users.email, EMAILS.admin));
    const admin = (await loadCurrentUser(server.db, adminRow!.id))!;
    for (let round = 0; round < 3; round++) {
      const a = await rec("reconciling");
      const [one, two] = await Promise.all([bulkUpdate(server.db, admin, "dispute", { ids: [a], note: "dispute" }), bulkUpdate(server.db, admin, "use_consignment_costs", { ids: [a], note: "use" })]);
      expect(one.done.length + two.done.length).toBe(1);
      const refused = [...one.refused, ...two.refused];
      expect(refused).toHaveLength(1);
      expect(refused[0]!.message).toMatch(/is not allowed on (Disputed|Reconciled) reconciliations\.$/);
      expect(await notes(a)).toHaveLength(1);
      expect((await row(a)).version).toBe(2);
    }
  });
});

describe("the demo's disputed line (db/seed/invoices/reconciliation-states.ts)", () => {
  it("disputes the Australia Post invoice's surcharge line with a note, once", async () => {
    // stands in for the demo invoice (the seed imports it only where localities are loaded)
    const auspost = (await server.db.select().from(carriers).where(eq(carriers.code, "auspost")))[0]!.id;
    const [inv] = await server.db.insert(invoices).values({ accountingType: "payable", invoiceNumber: DEMO_INVOICE_NUMBERS.auspost, carrierId: auspost, state: "allocated" }).returning();
    const make = async (n: number, reasons: string[]) => {
      const [d] = await server.db.insert(invoiceDetails).values({ invoiceId: inv!.id, lineNumber: n, carrierId: auspost, customerId: acme, state: "allocated", consignmentNumber: `DEMO${n}` }).returning();
      return (await server.db.insert(reconciliations).values({ invoiceDetailId: d!.id, customerId: acme, carrierId: auspost, state: "reconciling", reasonCategories: reasons as never }).returning())[0]!.id;
    };
    await make(1, ["zone"]);
    const surcharge = await make(2, ["surcharge"]);
    // another test's disputes would count as the demo's: start from none
    await server.db.update(reconciliations).set({ state: "reconciled" }).where(eq(reconciliations.state, "disputed"));
    expect(await seedReconciliationStates(server.db)).toEqual({ disputed: surcharge });
    expect(await row(surcharge)).toMatchObject({ state: "disputed", version: 2 });
    expect((await notes(surcharge)).map((n) => n.text)).toEqual([DEMO_DISPUTE_NOTE]);
    expect(await seedReconciliationStates(server.db)).toEqual({ disputed: null });
    expect(await notes(surcharge)).toHaveLength(1);
  });
});
