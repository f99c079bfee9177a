/**
 * The reconciliation detail's calls (issue 19 item 3; spec 3 sections 2 to 8): GET and PUT
 * /api/reconciliations/{id} and POST /api/reconciliations/{id}/reconcile over the demo's
 * reconciled invoices. Every rule: note required, Save + Accept only where accept may start, the
 * Charge From preview without a note, a stale version's 409, the cost messages in their order,
 * Re Run refused when reconciled, reset for one id, scoping and roles.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customers, invoiceCosts, invoiceDetails, reconciliationNotes, reconciliations } from "../../db/schema";
import { seedDemoIfEmpty } from "../../db/seed/demo";
import { DEMO_INVOICE_NUMBERS } from "../../db/seed/invoices";
import { loadLocalities } from "../../db/seed/localities";
import { loadCurrentUser } from "../../app/modules/auth/current-user.server";
import { resetReconciliation } from "../../app/modules/reconciliation/detail.server";
import { rowsOf } from "../../app/utils/sql-rows";
import { Client, signInAll, startTestServer, type TestServer } from "../support/server";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

let server: TestServer;
const EMAILS = { admin: "admin@example.com", finance: "finance@example.com", customerService: "customerservice@example.com", despatcher: "despatcher@example.com" };
const c = {} as Record<keyof typeof EMAILS, Client>;

/** The reconciliation of a demo invoice's line. */
async function recOf(invoiceNumber: string, lineNumber: number): Promise<{ id: number; invoice_detail_id: number; state: string; version: number }> {
  const [row] = rowsOf<{ id: number; invoice_detail_id: number; state: string; version: number }>(
    await server.db.execute(sql`select r.id, r.invoice_detail_id, r.state, r.version from reconciliations r join invoice_details d on d.id = r.invoice_detail_id join invoices i on i.id = d.invoice_id
      where i.invoice_number = ${invoiceNumber} and d.line_number = ${lineNumber}`),
  );
  expect(row, `${invoiceNumber} line ${lineNumber}`).toBeTruthy();
  return row!;
}
const put = (client: Client, id: number, json: unknown) => client.json<Json>(`/api/reconciliations/${id}`, { method: "PUT", json });
const get = (client: Client, id: number) => client.json<Json>(`/api/reconciliations/${id}`);
const NL = DEMO_INVOICE_NUMBERS.NORTHLINE;
const AP = DEMO_INVOICE_NUMBERS.auspost;

beforeAll(async () => {
  server = await startTestServer();
  await loadLocalities(server.db);
  expect(await seedDemoIfEmpty(server.db)).toBe(true);
  Object.assign(c, await signInAll(server.url, EMAILS));
}, 240_000);
afterAll(() => server?.close());

describe("GET /api/reconciliations/{id}", () => {
  it("answers the line, its consignment's rated costs, the comparison, notes, options, the sell side and the re-rate panel", async () => {
    const rec = await recOf(NL, 1);
    const { status, body } = await get(c.admin, rec.id);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ id: rec.id, state: "reconciling", state_label: "Un-Reconciled", version: rec.version, reason_categories: ["check_wt_vol"], reconciliation_reasons: [{ reason: "check_wt_vol" }], notes: [], customer_invoice_detail: null });
    expect(body.invoice_detail.id).toBe(rec.invoice_detail_id);
    expect(body.invoice_detail.costs.length).toBeGreaterThan(0);
    expect(body.consignment.buy_costs.length).toBeGreaterThan(0);
    expect(body.consignment.total_buy_cost).toBeCloseTo(body.rated_buy, 2);
    expect(body.consignment.rating_detail).toHaveProperty("charge_weight");
    expect(body.consignment.rating_detail).toHaveProperty("markup");
    expect(body.consignment.sender_address.locality).toBeTruthy();
    expect(body.consignment).not.toHaveProperty("raw_rating");
    // the reconcile job re-rated it with the invoice's weight (the demo seed runs the job's function)
    expect(body.reconciliation_options).toEqual({ charge_from_consignment: true, rerate_required: true, not_rerated: false });
    expect(body.discrepancy_amount).toBeGreaterThan(0);
    // charged from the consignment's rating as invoicing bills it: its re-rate's sell (decision 027)
    expect(body.sell.charged_from).toBe("consignment");
    expect(body.sell.total).toBeCloseTo(body.rerate.total_sell_cost, 2);
    // the margin is that charge less the carrier's, both without GST
    expect(body.charged).toEqual({ source: "sell", excluding_gst: body.sell.total, gst: null, including_gst: null });
    expect(body.margin).toBeCloseTo(body.sell.total - body.invoiced, 2);
    expect(body.rerate).toMatchObject({ status: "rerated", label: "Rerated", disabled: false });
  });

  it("answers the customer invoice's line once the line is invoiced", async () => {
    const rec = await recOf(NL, 3);
    const [line] = await server.db.select().from(invoiceDetails).where(eq(invoiceDetails.id, rec.invoice_detail_id));
    // a receivable line standing for the customer's invoice of it
    const [receivable] = rowsOf<{ id: number }>(await server.db.execute(sql`insert into invoices (accounting_type, customer_id, total) values ('receivable', ${line!.customerId}, '12.00') returning id`));
    const [cl] = await server.db.insert(invoiceDetails).values({ invoiceId: receivable!.id, lineNumber: 1, customerId: line!.customerId, state: "invoiced", consignmentNumber: line!.consignmentNumber, totalCost: "12.00" }).returning();
    await server.db.insert(invoiceCosts).values({ invoiceDetailId: cl!.id, category: "freight_charge", description: "Freight", amount: "12.00" });
    await server.db.update(reconciliations).set({ customerInvoiceDetailId: cl!.id }).where(eq(reconciliations.id, rec.id));
    const { body } = await get(c.admin, rec.id);
    expect(body.customer_invoice_detail).toMatchObject({ id: cl!.id, state: "invoiced", total_cost: 12, costs: [{ category: "freight_charge", amount: 12 }] });
  });

  it("is scoped: a customer's finance user sees their own, another customer's is a 404; despatchers and strangers are refused", async () => {
    const rec = await recOf(AP, 1);
    expect((await get(c.finance, rec.id)).status).toBe(200);
    // a line of another customer (TESTCO), reconciled by hand for this test
    const [testco] = await server.db.select().from(customers).where(eq(customers.code, "TESTCO"));
    const [line] = await server.db.select().from(invoiceDetails).where(eq(invoiceDetails.id, rec.invoice_detail_id));
    const [other] = await server.db.insert(invoiceDetails).values({ invoiceId: line!.invoiceId, lineNumber: 99, carrierId: line!.carrierId, customerId: testco!.id, state: "allocated", consignmentNumber: "OTHER-1", totalCost: "5" }).returning();
    const [otherRec] = await server.db.insert(reconciliations).values({ invoiceDetailId: other!.id, customerId: testco!.id, carrierId: line!.carrierId, reasonCategories: ["failed_to_rate"] }).returning();
    const refused = await get(c.finance, otherRec!.id);
    expect(refused.status).toBe(404);
    expect((await get(c.finance, 2_000_000)).status).toBe(404);
    expect((await get(c.admin, otherRec!.id)).status).toBe(200);
    expect((await get(c.despatcher, rec.id)).status).toBe(403);
    expect((await new Client(server.url).json(`/api/reconciliations/${rec.id}`)).status).toBe(401);
    expect((await get(c.admin, 0)).status).toBe(422);
    // a finance view without can_reconcile does not see buy costs, so no reconciliation
    await server.db.execute(sql`update users set can_reconcile = false where email = 'finance@example.com'`);
    try {
      expect((await get(c.finance, rec.id)).status).toBe(403);
    } finally {
      await server.db.execute(sql`update users set can_reconcile = true where email = 'finance@example.com'`);
    }
  });

  it("works without JavaScript: the screen's forms post to its action", async () => {
    const rec = await recOf(AP, 1);
    const before = (await get(c.admin, rec.id)).body;
    const page = await c.admin.request(`/reconciliation/${rec.id}`, { form: { intent: "save", version: String(before.version), note: "Posted as a plain form" } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Posted as a plain form");
    const after = (await get(c.admin, rec.id)).body;
    expect(after.version).toBe(before.version + 1);
    expect(after.notes.map((n: Json) => n.text)).toContain("Posted as a plain form");
    // a refused save answers the page with the spec's message, and changes nothing
    const refused = await c.admin.request(`/reconciliation/${rec.id}`, { form: { intent: "save", version: String(after.version) } });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain("Note required.");
    // a failed load goes back to the list
    const missing = await c.admin.request("/reconciliation/2000000000");
    expect(missing.status).toBe(302);
    expect(missing.headers.get("location")).toBe("/reconciliations");
  });
});

describe("PUT /api/reconciliations/{id}", () => {
  it("needs a note to save, keeps it with its author and time, and raises the version", async () => {
    const rec = await recOf(AP, 2);
    const missing = await put(c.admin, rec.id, { version: rec.version });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ notable: ["Note required."] });
    const blank = await put(c.admin, rec.id, { version: rec.version, note: "   " });
    expect(blank.body.errors).toEqual({ notable: ["Note required."] });
    expect((await put(c.admin, rec.id, { version: rec.version, note: "x".repeat(256) })).body.errors.note).toEqual(["A note is at most 255 characters."]);
    const saved = await put(c.admin, rec.id, { version: rec.version, note: "Asked the carrier about the zone" });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ state: "reconciling", version: rec.version + 1 });
    expect(saved.body.notes).toHaveLength(1);
    expect(saved.body.notes[0]).toMatchObject({ text: "Asked the carrier about the zone", user_name: "Alex Admin" });
    expect(Date.parse(saved.body.notes[0].timestamp)).not.toBeNaN();
  });

  it("answers a stale version with 409, error_code stale and 'Unable to save. {message}', and changes nothing", async () => {
    const rec = await recOf(AP, 2);
    const stale = await put(c.admin, rec.id, { version: rec.version - 1, note: "late", state: "reconciled" });
    expect(stale.status).toBe(409);
    expect(stale.body.error_code).toBe("stale");
    expect(stale.body.errors.base[0]).toMatch(/^Unable to save\. /);
    const after = await recOf(AP, 2);
    expect(after).toMatchObject({ state: "reconciling", version: rec.version });
  });

  it("Save + Accept reconciles with a note, only where accept may start", async () => {
    const rec = await recOf(AP, 2);
    expect((await put(c.admin, rec.id, { version: rec.version, state: "reconciled" })).body.errors).toEqual({ notable: ["Note required."] });
    const accepted = await put(c.admin, rec.id, { version: rec.version, state: "reconciled", note: "Zone confirmed by the carrier" });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body).toMatchObject({ state: "reconciled", can_rerun: false });
    // accepted already: accept does not start from reconciled
    const again = await put(c.admin, rec.id, { version: accepted.body.version, state: "reconciled", note: "again" });
    expect(again.status).toBe(422);
    expect(again.body.errors.state).toEqual(["Accept is not allowed on Reconciled reconciliations."]);
    // from disputed it may
    const disputed = await recOf(NL, 1);
    await server.db.update(reconciliations).set({ state: "disputed" }).where(eq(reconciliations.id, disputed.id));
    const fromDisputed = await put(c.admin, disputed.id, { version: disputed.version, state: "reconciled", note: "Credit agreed" });
    expect(fromDisputed.body.state).toBe("reconciled");
    await server.db.update(reconciliations).set({ state: "reconciling" }).where(eq(reconciliations.id, disputed.id));
  });

  it("saves the Charge From toggle alone as a preview, without a note", async () => {
    const rec = await recOf(AP, 3);
    // the demo disputed this line with a note; the toggle adds none
    const notesBefore = (await get(c.admin, rec.id)).body.notes;
    const toggled = await put(c.admin, rec.id, { version: rec.version, charge_from_consignment: false });
    expect(toggled.status, JSON.stringify(toggled.body)).toBe(200);
    expect(toggled.body.reconciliation_options.charge_from_consignment).toBe(false);
    expect(toggled.body.notes).toEqual(notesBefore);
    expect(toggled.body.preview).toMatchObject({ charge_from_consignment: false, charged_from: "invoice" });
    // charged from the invoice: the carrier's costs (the manual handling surcharge too) with the markups
    expect(toggled.body.sell.charged_from).toBe("invoice");
    expect(toggled.body.sell.lines.map((l: Json) => l.category)).toContain("manual_handling_surcharge");
    expect(toggled.body.preview.total).toBeCloseTo(toggled.body.sell.total, 2);
    const back = await put(c.admin, rec.id, { version: toggled.body.version, charge_from_consignment: "true" });
    expect(back.body.sell.charged_from).toBe("consignment");
  });

  it("is for invoice admins only, and refuses unknown fields", async () => {
    const rec = await recOf(AP, 1);
    expect((await put(c.finance, rec.id, { version: rec.version, note: "mine" })).status).toBe(403);
    expect((await put(c.customerService, rec.id, { version: rec.version, note: "mine" })).status).toBe(403);
    expect((await put(c.admin, rec.id, { version: rec.version, note: "x", state: "disputed" })).status).toBe(422);
    expect((await put(c.admin, rec.id, { note: "x" })).status).toBe(422);
    expect((await c.admin.json(`/api/reconciliations/${rec.id}`, { method: "POST", json: { version: 1 } })).status).toBe(405);
  });
});

describe("PUT /api/reconciliations/{id} with costs (the Invoice Detail modal)", () => {
  it("checks the lines, then that something changed, then the cost note, in that order", async () => {
    const rec = await recOf(AP, 3);
    const { body } = await get(c.admin, rec.id);
    const costs = body.invoice_detail.costs.map((k: Json) => ({ id: k.id, category: k.category, description: k.description, amount: k.amount.toFixed(2) }));
    const invalid = "Invalid data, description and category required, amount must be greater than 0.";
    // a bad line wins over the missing note
    for (const bad of [{ category: "freight_charge", description: "", amount: "5" }, { category: "nope", description: "x", amount: "5" }, { category: "freight_charge", description: "x", amount: "0" }, { category: "freight_charge", description: "x", amount: "1.234" }]) {
      const res = await put(c.admin, rec.id, { version: body.version, costs: [...costs, bad] });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ costs: [invalid] });
    }
    // the same amounts written otherwise are no change, even with a note
    const same = await put(c.admin, rec.id, { version: body.version, costs: costs.map((k: Json) => ({ ...k, amount: String(Number(k.amount)) })), cost_note: "n" });
    expect(same.body.errors).toEqual({ costs: ["Nothing to save."] });
    const noNote = await put(c.admin, rec.id, { version: body.version, costs: [...costs, { category: "miscellaneous_fee", description: "Admin fee", amount: "2.50" }] });
    expect(noNote.body.errors).toEqual({ cost_note: ["Note required."] });
    expect((await get(c.admin, rec.id)).body.invoice_detail.costs).toHaveLength(costs.length);
  });

  it("adds, changes and removes costs with the note, totals the line and compares it again", async () => {
    const rec = await recOf(AP, 3);
    const { body } = await get(c.admin, rec.id);
    const surcharge = body.invoice_detail.costs.find((k: Json) => k.category === "manual_handling_surcharge");
    expect(surcharge).toBeTruthy();
    const kept = body.invoice_detail.costs.filter((k: Json) => k.id !== surcharge.id).map((k: Json) => ({ id: k.id, category: k.category, description: k.description, amount: String(k.amount) }));
    // the carrier credits the surcharge it should not have billed: removed, and a 1.00 fee added
    const res = await put(c.admin, rec.id, { version: body.version, costs: [...kept, { category: "miscellaneous_fee", description: "Admin fee", amount: "1" }], cost_note: "Carrier credited the manual handling" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const cats = res.body.invoice_detail.costs.map((k: Json) => k.category);
    expect(cats).not.toContain("manual_handling_surcharge");
    expect(cats).toContain("miscellaneous_fee");
    const sum = res.body.invoice_detail.costs.reduce((a: number, k: Json) => a + Math.round(k.amount * 100), 0) / 100;
    expect(res.body.invoice_detail.total_cost).toBeCloseTo(sum, 2);
    expect(res.body.notes.map((n: Json) => n.text)).toContain("Carrier credited the manual handling");
    // compared again: 14.50 less, 1.00 more than before
    expect(res.body.discrepancy_amount).toBeCloseTo(body.discrepancy_amount - 14.5 + 1, 2);
    expect(res.body.version).toBeGreaterThan(body.version);
    // a stale version is refused before anything is written
    const stale = await put(c.admin, rec.id, { version: body.version, costs: kept, cost_note: "late" });
    expect(stale.status).toBe(409);
    expect(stale.body.error_code).toBe("stale");
    expect((await server.db.select().from(invoiceCosts).where(eq(invoiceCosts.invoiceDetailId, rec.invoice_detail_id))).map((k) => k.category)).toContain("miscellaneous_fee");
  });

  it("keeps a person's decision when a decided line's costs change, and its figures follow", async () => {
    const rec = await recOf(NL, 2);
    expect(rec.state).toBe("reconciled");
    const { body } = await get(c.admin, rec.id);
    const costs = body.invoice_detail.costs.map((k: Json) => ({ id: k.id, category: k.category, description: k.description, amount: String(k.amount) }));
    const res = await put(c.admin, rec.id, { version: body.version, costs: [...costs, { category: "miscellaneous_fee", description: "Late fee", amount: "3.00" }], cost_note: "Late fee billed" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.state).toBe("reconciled");
    expect(res.body.discrepancy_amount).toBeCloseTo(body.discrepancy_amount + 3, 2);
    expect(res.body.invoiced).toBeCloseTo(body.invoiced + 3, 2);
  });

  it("on the page without JavaScript, says a refused cost line once: beside the lines, not again above them (issue 31 item 8)", async () => {
    const rec = await recOf(AP, 3);
    const { body } = await get(c.admin, rec.id);
    const res = await c.admin.request(`/reconciliation/${rec.id}?costs=1&back=%2Freconciliations`, {
      method: "POST",
      headers: { Accept: "text/html" },
      form: [["intent", "save_costs"], ["version", String(body.version)], ["costs.0.category", "freight_charge"], ["costs.0.description", "x"], ["costs.0.amount", "0"], ["cost_note", "n"]],
    });
    expect(res.status).toBe(422);
    // what the page shows, without the data its scripts carry
    const shown = (await res.text()).replace(/<script[\s\S]*?<\/script>/g, "");
    expect(shown.split("amount must be greater than 0.").length - 1).toBe(1);
    expect(shown).not.toContain("greather");
  });
});

describe("POST /api/reconciliations/{id}/reconcile (Re Run)", () => {
  it("is refused on a reconciled line with 'Failed to reconcile, reason: {message}'", async () => {
    const rec = await recOf(AP, 1);
    expect(rec.state).toBe("reconciled");
    const res = await c.admin.json<Json>(`/api/reconciliations/${rec.id}/reconcile`, { method: "POST" });
    expect(res.status).toBe(409);
    expect(res.body.errors.base).toEqual(["Failed to reconcile, reason: it is already reconciled"]);
    expect((await c.finance.json(`/api/reconciliations/${rec.id}/reconcile`, { method: "POST" })).status).toBe(403);
    expect((await c.admin.json(`/api/reconciliations/${rec.id}/reconcile`)).status).toBe(405);
  });

  it("compares the line again and re-rates it", async () => {
    const rec = await recOf(NL, 1);
    const res = await c.admin.json<Json>(`/api/reconciliations/${rec.id}/reconcile`, { method: "POST" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.state).toBe("reconciling");
    expect(res.body.rerate).toMatchObject({ status: "rerated", label: "Rerated", error: null, disabled: false });
    // re-measured goods: the billed charge weight within the engine's volume step of cubic (decision 027)
    expect(res.body.rerate.rating_detail.charge_weight).toBeCloseTo(res.body.invoice_detail.total_charge_weight, 1);
    expect(res.body.reconciliation_options.not_rerated).toBe(false);
  });
});

describe("reset on the detail", () => {
  it("takes a disputed or reconciled line back to reconciling, deleting its notes and comparing it again; refuses a reconciling one", async () => {
    const rec = await recOf(AP, 2);
    expect(rec.state).toBe("reconciled");
    const [adminRow] = rowsOf<{ id: number }>(await server.db.execute(sql`select id from users where email = 'admin@example.com'`));
    const admin = (await loadCurrentUser(server.db, adminRow!.id))!;
    const after = await resetReconciliation(server.db, admin, rec.id);
    // as the bulk reset: the notes go, and the reasons are the comparison's again (AP line 2 is the other zone)
    expect(after).toMatchObject({ state: "reconciling", reason_categories: ["zone"], notes: [] });
    expect(await server.db.select().from(reconciliationNotes).where(eq(reconciliationNotes.reconciliationId, rec.id))).toEqual([]);
    await expect(resetReconciliation(server.db, admin, rec.id)).rejects.toMatchObject({ code: "conflict", message: "Failed to reset reconciliation" });
  });
});
