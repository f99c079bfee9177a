/**
 * No customer billed twice (issue 29 finding 1, decision 021): a carrier's twin invoice (same
 * carrier, consignments and amounts, another number) is flagged line by line and as a whole at
 * import, its lines reconciled by no one but a person, and a consignment's charge of a category is
 * billed to the customer once: POST /api/invoices refuses the twin's lines by name, two invoicing
 * runs at once bill it once (the database's unique rule), and billing again takes a rebill with a note.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { billedCharges, carrierAccounts, carriers, consignments, customers, invoiceDetails, invoices, reconciliationNotes, reconciliations } from "../../db/schema";
import { createMailer } from "../../app/modules/mail/mailer.server";
import { runInvoicing } from "../../app/modules/invoicing/invoice.server";
import { reconcileLines } from "../../app/modules/reconciliation/reconcile.server";
import { rowsOf } from "../../app/utils/sql-rows";
import type { Client, TestServer } from "../support/server";
import * as support from "../support/despatch";
import type { DespatchWorld, Json } from "../support/despatch";
import { postFiles } from "../support/invoice-import";
import { reconciledLine } from "../support/invoicing";

let world: DespatchWorld;
let server: TestServer;
let admin: Client;
let configId = 0;
let carrierId = 0;
let customerId = 0;
const db = () => server.db;

const template = (carrier: number) => ({
  name: "Duplicates CSV",
  carrier_id: carrier,
  parser: { format: "CSV", sheets: [] },
  transformations: [
    { type: "NameColumns", options: { action: "ROW_INDEX", row: 1 } },
    {
      type: "MapFields",
      options: {
        mappings: [{ field: "invoice_number", column: "Inv" }, { field: "invoice_date", column: "Date" }, { field: "consignment_number", column: "Con" }],
        costs: [{ category: "freight_charge", column: "Freight" }, { category: "fuel_charge", column: "Fuel" }, { category: "futile_delivery", column: "Futile" }],
      },
    },
  ],
});
const csv = (number: string, rows: string[]) => `Inv,Date,Con,Freight,Fuel,Futile\n${rows.map((r) => `${number},2026-11-20,${r}`).join("\n")}\n`;
const FIRST = ["DUPCN1,10.00,1.00,", "DUPCN2,20.00,2.00,", "DUPCN3,30.00,3.00,"];

async function importCsv(name: string, text: string): Promise<number> {
  const res = await postFiles(admin, "/api/invoices/import", { config_id: String(configId) }, [{ field: "files[]", name: `${name}.csv`, body: text }]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const job = await support.workJob(world, res.body.job_id, admin);
  expect(job.status, JSON.stringify(job)).toBe("complete");
  const [inv] = await db().select({ id: invoices.id }).from(invoices).where(eq(invoices.invoiceNumber, name));
  return inv!.id;
}
const linesOf = (invoiceId: number) => db().select().from(invoiceDetails).where(eq(invoiceDetails.invoiceId, invoiceId)).orderBy(invoiceDetails.lineNumber);

/** The lines allocated to the customer (these consignment numbers were never ours: allocated by hand) and reconciled by the job. */
async function allocateAndReconcile(invoiceId: number) {
  await db().update(invoiceDetails).set({ customerId, state: "allocated", allocatedBy: "manual" }).where(eq(invoiceDetails.invoiceId, invoiceId));
  await reconcileLines(db(), { invoiceIds: [invoiceId] });
  return db().select().from(reconciliations).where(inArray(reconciliations.invoiceDetailId, (await linesOf(invoiceId)).map((l) => l.id)));
}
/** A person accepts the lines (the bulk accept with a note). */
async function accept(recIds: number[]) {
  const res = await admin.json<Json>("/api/reconciliations/accept", { method: "PUT", json: { ids: recIds, note: "Checked against the carrier's bill" } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}
const invoice = (json: unknown) => admin.json<Json>("/api/invoices", { method: "POST", json });

beforeAll(async () => {
  world = await support.startDespatchWorld();
  server = world.server;
  admin = world.clients.admin;
  const [carrier] = await db().select({ id: carriers.id }).from(carriers).limit(1);
  carrierId = carrier!.id;
  const [customer] = await db().select({ id: customers.id }).from(customers).limit(1);
  customerId = customer!.id;
  const made = await admin.json<Json>("/api/carrier_invoice_configs", { method: "POST", json: template(carrierId) });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  configId = made.body.id;
}, 240_000);
afterAll(() => server.close());

describe("a carrier's twin invoice", () => {
  let first = 0;
  let twin = 0;
  let firstCustomerInvoice = "";

  it("is flagged at import: each line a possible duplicate of the first invoice's line, the invoice a possible duplicate of it", async () => {
    first = await importCsv("DUP-A", csv("DUP-A", FIRST));
    twin = await importCsv("DUP-B", csv("DUP-B", FIRST));
    const a = await linesOf(first);
    const b = await linesOf(twin);
    expect(a.map((l) => l.duplicateOfDetailId)).toEqual([null, null, null]);
    expect(b.map((l) => l.duplicateOfDetailId)).toEqual(a.map((l) => l.id));

    const got = await admin.json<Json>(`/api/invoices/${twin}`);
    expect(got.status).toBe(200);
    expect(got.body.possible_duplicate_of).toEqual({ invoice_id: first, invoice_number: "DUP-A", message: "Possible duplicate of invoice DUP-A" });
    expect(got.body.duplicates_caught).toEqual({ count: 3, amount: 66 });
    const original = await admin.json<Json>(`/api/invoices/${first}`);
    expect(original.body).toMatchObject({ possible_duplicate_of: null, duplicates_caught: { count: 0, amount: 0 } });
    // the payable list says so beside the invoice
    const list = await admin.json<Json>("/api/invoices?date=custom&from=2026-11-01&to=2026-11-30&state=all");
    const row = (list.body.invoices as Json[]).find((i) => i.id === twin);
    expect(row?.possible_duplicate_of?.message).toBe("Possible duplicate of invoice DUP-A");
  });

  it("a genuine second charge of another category, or another amount, is not flagged", async () => {
    const later = await importCsv("DUP-C", csv("DUP-C", ["DUPCN1,,,45.00", "DUPCN2,25.00,2.00,"]));
    expect((await linesOf(later)).map((l) => l.duplicateOfDetailId)).toEqual([null, null]);
    expect((await admin.json<Json>(`/api/invoices/${later}`)).body).toMatchObject({ possible_duplicate_of: null, duplicates_caught: { count: 0 } });
  });

  it("is never reconciled automatically: its lines wait under the duplicate reason, with the other invoice's number and line", async () => {
    const recs = await allocateAndReconcile(twin);
    expect(recs).toHaveLength(3);
    for (const r of recs) expect(r).toMatchObject({ state: "reconciling" });
    for (const r of recs) expect(r.reasonCategories[0]).toBe("duplicate");
    const listed = await admin.json<Json>("/api/reconciliations?reasons=duplicate&per_page=100");
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const ids = JSON.stringify(listed.body);
    for (const r of recs) expect(ids).toContain(`"id":${r.id}`);
    const detail = await admin.json<Json>(`/api/reconciliations/${recs[0]!.id}`);
    expect(detail.body.reconciliation_reasons[0]).toMatchObject({ reason: "duplicate", invoice_number: "DUP-A" });
    expect([1, 2, 3]).toContain(detail.body.duplicate_of.line_number);
  });

  it("the first invoice's lines are billed; the twin's, once a person accepts them, are refused by name", async () => {
    const recsA = await allocateAndReconcile(first);
    await accept(recsA.filter((r) => r.state !== "reconciled").map((r) => r.id));
    const a = await linesOf(first);
    const billed = await invoice({ invoice_detail_ids: a.map((l) => l.id) });
    expect(billed.status, JSON.stringify(billed.body)).toBe(200);
    const job = await support.workJob(world, billed.body.job_id, admin);
    expect(job.status, JSON.stringify(job)).toBe("complete");
    const [receivable] = await db().select({ number: invoices.invoiceNumber }).from(invoices).innerJoin(invoiceDetails, eq(invoiceDetails.invoiceId, invoices.id)).where(eq(invoiceDetails.sourceDetailId, a[0]!.id));
    firstCustomerInvoice = receivable!.number!;

    const b = await linesOf(twin);
    await accept((await db().select({ id: reconciliations.id }).from(reconciliations).where(inArray(reconciliations.invoiceDetailId, b.map((l) => l.id)))).map((r) => r.id));
    // the Send invoice list tells the pairs apart by their carrier invoice
    const modal = await admin.request("/invoices_receivable?modal=invoice");
    const html = await modal.text();
    expect(html).toContain("DUP-B");
    expect(html).toContain("Possible duplicate");

    const refused = await invoice({ invoice_detail_ids: b.map((l) => l.id) });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.invoice_detail_ids).toContain(`Consignment DUPCN1: Freight charge is already billed on customer invoice ${firstCustomerInvoice}.`);
    expect(refused.body.errors.invoice_detail_ids).toContain(`Consignment DUPCN3: Fuel charge is already billed on customer invoice ${firstCustomerInvoice}.`);
    // the Send invoice modal refuses the same, by name
    const form: Array<[string, string]> = [["intent", "invoice"], ...b.map((l): [string, string] => ["invoice_detail_ids", String(l.id)])];
    const screen = await admin.request("/invoices_receivable?modal=invoice", { method: "POST", form });
    expect(screen.status).toBe(422);
    expect(await screen.text()).toContain(`Consignment DUPCN2: Freight charge is already billed on customer invoice ${firstCustomerInvoice}.`);
    expect(await db().select().from(invoiceDetails).where(inArray(invoiceDetails.sourceDetailId, b.map((l) => l.id)))).toHaveLength(0);
  });

  it("billing again takes a rebill with a note: refused without one, recorded with it", async () => {
    const b = await linesOf(twin);
    const ids = [b[0]!.id];
    const noNote = await invoice({ invoice_detail_ids: ids, rebill: true });
    expect(noNote.status).toBe(422);
    expect(noNote.body.errors.note).toEqual(["A note is required to bill a charge again."]);
    const blank = await invoice({ invoice_detail_ids: ids, rebill: true, note: "  " });
    expect(blank.status).toBe(422);

    const res = await invoice({ invoice_detail_ids: ids, rebill: true, note: "Carrier re-delivered; customer agreed" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const job = await support.workJob(world, res.body.job_id, admin);
    expect(job.status, JSON.stringify(job)).toBe("complete");
    const [line] = await db().select().from(invoiceDetails).where(eq(invoiceDetails.sourceDetailId, ids[0]!));
    expect(line).toBeTruthy();
    const charges = await db().select().from(billedCharges).where(eq(billedCharges.invoiceDetailId, line!.id));
    expect(charges.length).toBeGreaterThan(0);
    for (const c of charges) expect(c).toMatchObject({ rebill: true, note: "Carrier re-delivered; customer agreed" });
    expect(charges[0]!.createdById).not.toBeNull();
    const [rec] = await db().select({ id: reconciliations.id }).from(reconciliations).where(eq(reconciliations.invoiceDetailId, ids[0]!));
    const notes = await db().select().from(reconciliationNotes).where(eq(reconciliationNotes.reconciliationId, rec!.id));
    expect(notes.map((n) => n.text)).toContain("Billed again (rebill): Carrier re-delivered; customer agreed");
  });

  it("the genuine second charge of another category is billed", async () => {
    const [later] = await db().select({ id: invoices.id }).from(invoices).where(eq(invoices.invoiceNumber, "DUP-C"));
    const recs = await allocateAndReconcile(later!.id);
    await accept(recs.map((r) => r.id));
    const [futile] = await db().select().from(invoiceDetails).where(and(eq(invoiceDetails.invoiceId, later!.id), eq(invoiceDetails.consignmentNumber, "DUPCN1")));
    const res = await invoice({ invoice_detail_ids: [futile!.id] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await support.workJob(world, res.body.job_id, admin)).status).toBe("complete");
    expect(await db().select().from(invoiceDetails).where(eq(invoiceDetails.sourceDetailId, futile!.id))).toHaveLength(1);
  });
});

describe("two invoicing runs at once over one consignment's lines", () => {
  const services = () => ({ db: db(), mailer: createMailer(db(), { from: "test@freightdesk.local" }), renderer: server.renderer });

  it("bill it once: the other run refuses its line by name", async () => {
    const number = `RACE-${Date.now()}`;
    const one = await reconciledLine(db(), customerId, { carrierId, consignmentNumber: number }, ["12.00", "1.20"]);
    const two = await reconciledLine(db(), customerId, { carrierId, consignmentNumber: number }, ["12.00", "1.20"]);
    const [a, b] = await Promise.all([runInvoicing(services(), { invoiceDetailIds: [one], userId: null }), runInvoicing(services(), { invoiceDetailIds: [two], userId: null })]);
    expect(a.invoices.length + b.invoices.length).toBe(1);
    const refused = [...a.refused, ...b.refused];
    expect(refused).toHaveLength(1);
    expect(refused[0]!.message).toMatch(new RegExp(`^Consignment ${number}: Freight charge is already billed on customer invoice INV-\\d{6}\\.`));
    const billed = await db().select().from(invoiceDetails).where(inArray(invoiceDetails.sourceDetailId, [one, two]));
    expect(billed).toHaveLength(1);
    const keys = rowsOf<{ n: number }>(await db().execute(sql`select count(*)::int as n from billed_charges where consignment_key = ${`n${carrierId}:${number}`} and not rebill`));
    // its freight and its fuel, once each
    expect(keys[0]!.n).toBe(2);
  });

  it("one run asked for both bills one and refuses the other", async () => {
    const number = `BOTH-${Date.now()}`;
    const one = await reconciledLine(db(), customerId, { carrierId, consignmentNumber: number }, ["8.00"]);
    const two = await reconciledLine(db(), customerId, { carrierId, consignmentNumber: number }, ["8.00"]);
    const r = await runInvoicing(services(), { invoiceDetailIds: [one, two], userId: null });
    expect(r.invoices.map((i) => i.lines)).toEqual([1]);
    expect(r.refused).toHaveLength(1);
    expect(await db().select().from(invoiceDetails).where(inArray(invoiceDetails.sourceDetailId, [one, two]))).toHaveLength(1);
    // and asked through the API, the pair is refused before any job
    const three = await reconciledLine(db(), customerId, { carrierId, consignmentNumber: `${number}-X` }, ["8.00"]);
    const four = await reconciledLine(db(), customerId, { carrierId, consignmentNumber: `${number}-X` }, ["8.00"]);
    const res = await invoice({ invoice_detail_ids: [three, four] });
    expect(res.status).toBe(422);
    expect(res.body.errors.invoice_detail_ids[0]).toBe(`Consignment ${number}-X: Freight charge is billed by more than one of the lines chosen; choose one.`);
  });
});

describe("a consignment's charge billed under one of its names is billed under every name", () => {
  const services = () => ({ db: db(), mailer: createMailer(db(), { from: "test@freightdesk.local" }), renderer: server.renderer });
  /** a consignment of ours with a carrier's number, and that carrier */
  async function aConsignment() {
    const made = await support.createDespatchable(world, world.clients.despatcher, "MEL", "NORTHLINE", "GEN");
    // the carrier's number, as printing its labels would give it
    await db().update(consignments).set({ consignmentNumber: `EVERY${made.id}X${Date.now() % 100000}` }).where(eq(consignments.id, made.id));
    const [c] = await db()
      .select({ id: consignments.id, number: consignments.consignmentNumber, customerId: consignments.customerId, carrierId: carrierAccounts.carrierId })
      .from(consignments)
      .innerJoin(carrierAccounts, eq(carrierAccounts.id, consignments.carrierAccountId))
      .where(eq(consignments.id, made.id));
    expect(c?.number, "a despatchable consignment has the carrier's number").toBeTruthy();
    return c!;
  }
  const billedLines = (ids: number[]) => db().select().from(invoiceDetails).where(inArray(invoiceDetails.sourceDetailId, ids));

  it("billed while its line was unmatched (the carrier's number), a matched line of it later is refused by name, by the API and by the job", async () => {
    const c = await aConsignment();
    const unmatched = await reconciledLine(db(), c.customerId, { carrierId: c.carrierId, consignmentNumber: c.number!.toLowerCase() }, ["15.00"]);
    const first = await runInvoicing(services(), { invoiceDetailIds: [unmatched], userId: null });
    expect(first.invoices).toHaveLength(1);

    const matched = await reconciledLine(db(), c.customerId, { carrierId: c.carrierId, consignmentNumber: c.number, consignmentId: c.id }, ["15.00"]);
    const res = await invoice({ invoice_detail_ids: [matched] });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.errors.invoice_detail_ids[0]).toBe(`Consignment ${c.number}: Freight charge is already billed on customer invoice ${first.invoices[0]!.invoice_number}.`);
    // a job queued before the first billing (no check at the door) refuses it too
    const again = await runInvoicing(services(), { invoiceDetailIds: [matched], userId: null });
    expect(again.invoices).toHaveLength(0);
    expect(again.refused.map((r) => r.invoice_detail_id)).toEqual([matched]);
    expect(await billedLines([matched])).toHaveLength(0);
  });

  it("billed matched, a line of it that is not matched (the carrier's number only) is refused, and so is a line under the number a person allocated it by", async () => {
    const c = await aConsignment();
    // a person allocated a line whose number the carrier misspelt to the consignment
    const allocated = await reconciledLine(db(), c.customerId, { carrierId: c.carrierId, consignmentNumber: `${c.number}-MISSPELT`, consignmentId: c.id }, ["9.00"]);
    const first = await runInvoicing(services(), { invoiceDetailIds: [allocated], userId: null });
    expect(first.invoices).toHaveLength(1);

    const byOwnNumber = await reconciledLine(db(), c.customerId, { carrierId: c.carrierId, consignmentNumber: c.number }, ["9.00"]);
    const byMisspelt = await reconciledLine(db(), c.customerId, { carrierId: c.carrierId, consignmentNumber: `${c.number}-misspelt` }, ["9.00"]);
    const r = await runInvoicing(services(), { invoiceDetailIds: [byOwnNumber, byMisspelt], userId: null });
    expect(r.invoices).toHaveLength(0);
    expect(r.refused.map((x) => x.invoice_detail_id).sort()).toEqual([byOwnNumber, byMisspelt].sort());
    for (const x of r.refused) expect(x.message).toContain(`is already billed on customer invoice ${first.invoices[0]!.invoice_number}.`);

    // a rebill with a note bills it again, recorded as a rebill under every name
    const res = await invoice({ invoice_detail_ids: [byOwnNumber], rebill: true, note: "Carrier billed it twice; customer agreed" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await support.workJob(world, res.body.job_id, admin)).status).toBe("complete");
    const [line] = await billedLines([byOwnNumber]);
    const rows = await db().select().from(billedCharges).where(eq(billedCharges.invoiceDetailId, line!.id));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((b) => b.rebill)).toBe(true);
  });

  it("migration 0028 gives charges billed before it their other names, and marks a name billed twice before it as a rebill", async () => {
    const c = await aConsignment();
    const matched = await reconciledLine(db(), c.customerId, { carrierId: c.carrierId, consignmentNumber: c.number, consignmentId: c.id }, ["11.00"]);
    const unmatched = await reconciledLine(db(), c.customerId, { carrierId: c.carrierId, consignmentNumber: c.number }, ["11.00"]);
    const first = await runInvoicing(services(), { invoiceDetailIds: [matched], userId: null });
    expect(first.invoices).toHaveLength(1);
    const [billedMatched] = await billedLines([matched]);
    // as before the rule: the matched line's charge held only its own name (c<id>), and the unmatched twin was billed under the carrier's number
    await db().delete(billedCharges).where(and(eq(billedCharges.invoiceDetailId, billedMatched!.id), sql`consignment_key <> ${`c${c.id}`}`));
    const second = await runInvoicing(services(), { invoiceDetailIds: [unmatched], userId: null });
    expect(second.invoices).toHaveLength(1);
    const [billedUnmatched] = await billedLines([unmatched]);
    await db().delete(billedCharges).where(and(eq(billedCharges.invoiceDetailId, billedUnmatched!.id), sql`consignment_key <> ${`n${c.carrierId}:${c.number}`}`));

    const file = readFileSync(path.join(import.meta.dirname, "../../db/migrations/0028_billed_under_every_name.sql"), "utf8");
    // as the migrator runs it: one transaction, on one connection (its temporary tables are the connection's)
    const migrate = () =>
      db().transaction(async (tx) => {
        for (const statement of file.split("--> statement-breakpoint")) await tx.execute(sql.raw(statement));
      });
    await migrate();

    const names = async (id: number) => (await db().select({ key: billedCharges.consignmentKey, rebill: billedCharges.rebill, note: billedCharges.note }).from(billedCharges).where(eq(billedCharges.invoiceDetailId, id))).sort((a, b) => a.key.localeCompare(b.key));
    const own = `n${c.carrierId}:${c.number!.toUpperCase()}`;
    // the matched line billed first: it holds its own name and the carrier's number
    expect(await names(billedMatched!.id)).toEqual([
      { key: `c${c.id}`, rebill: false, note: null },
      { key: own, rebill: false, note: null },
    ]);
    // the twin billed under the carrier's number before the rule keeps its row, now a rebill that says why
    expect(await names(billedUnmatched!.id)).toEqual([{ key: own, rebill: true, note: "Billed again before migration 0028" }]);
    // run again, it changes nothing
    await migrate();
    expect(await names(billedUnmatched!.id)).toHaveLength(1);
  });
});
