/**
 * The webhook events webhooks.test.ts does not drive (issue 34 item 1, docs/decisions/039):
 * consignment.cancelled, invoice.created (receivable) and reconciliation.disputed, each reaching
 * only the endpoints of the customer it belongs to, with the payload the decision gives (a
 * dispute tells the customer the line and the note, never the carrier's costs).
 */
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carriers, customers, invoiceDetails, invoices, reconciliations, users } from "../../db/schema";
import { createUser } from "../../db/seed/factories";
import { loadBuild } from "../../server/build";
import * as support from "../support/despatch";
import type { DespatchWorld, Json } from "../support/despatch";
import { Client } from "../support/server";
import { reconciledLine } from "../support/invoicing";
import { startReceiver } from "../support/webhook-receiver";

let world: DespatchWorld;
let entry: Awaited<ReturnType<typeof loadBuild>>["entry"];
let receiver: Awaited<ReturnType<typeof startReceiver>>;
/** Acme's admin (a super despatcher), another customer's admin, staff */
let owner: Client, otherOwner: Client, staff: Client;
let acmeId: number, otherId: number;

const db = () => world.server.db;

async function deliverAll() {
  for (let i = 0; i < 50; i++) if (!(await entry.deliverDue(db(), world.server.services.mailer))) return;
  throw new Error("deliveries kept coming");
}

async function addEndpoint(client: Client, at: string, events: string[]) {
  const res = await client.json<Json>("/api/webhooks", { json: { url: receiver.base + at, events } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

const bodies = (at: string) => receiver.at(at).map((r) => JSON.parse(r.body) as Json);

beforeAll(async () => {
  ({ entry } = await loadBuild(path.resolve(import.meta.dirname, "../..")));
  process.env.WEBHOOKS_ALLOW_LOCAL = "1";
  entry.resetEnvCache();
  world = await support.startDespatchWorld();
  receiver = await startReceiver();
  staff = world.clients.admin;
  owner = world.clients.superDespatcher;
  acmeId = (await db().select({ id: users.customerId }).from(users).where(eq(users.email, "superdespatcher@example.com")))[0]!.id;
  otherId = (await db().select({ id: users.customerId }).from(users).where(eq(users.email, "tester@example.com")))[0]!.id;
  await createUser(db(), otherId, { email: "events-other-owner@example.test", superDespatcher: true, authenticationToken: "tok-webhook-events-other" });
  otherOwner = new Client(world.server.url, "tok-webhook-events-other");
}, 240_000);
afterAll(async () => {
  delete process.env.WEBHOOKS_ALLOW_LOCAL;
  entry?.resetEnvCache();
  await receiver?.close();
  await world?.server.close();
});

describe("events beyond a consignment's despatch and tracking", () => {
  it("consignment.cancelled: a despatched consignment cancelled reaches its customer's endpoint as /api gives it", async () => {
    await addEndpoint(owner, "/ok/cancel-acme", ["consignment.cancelled"]);
    await addEndpoint(otherOwner, "/ok/cancel-other", ["consignment.cancelled"]);
    const c = await support.createDespatchable(world, owner, "MEL", "auspost", "PP");
    const despatch = await owner.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids: [c.id] } });
    expect((await support.workJob(world, despatch.body.job_id, owner)).status).toBe("complete");
    const cancelled = await owner.json<Json>(`/api/consignments/${c.id}/initiate_cancel`, { method: "PUT" });
    expect(cancelled.body, JSON.stringify(cancelled.body)).toMatchObject({ state: "cancelled" });
    await deliverAll();
    expect(bodies("/ok/cancel-acme").map((b) => [b.type, b.data.id, b.data.state])).toEqual([["consignment.cancelled", c.id, "cancelled"]]);
    expect(receiver.at("/ok/cancel-other")).toHaveLength(0);
  });

  it("invoice.created: a receivable invoice made by the invoicing run reaches only its own customer's endpoint", async () => {
    await addEndpoint(owner, "/ok/invoice-acme", ["invoice.created"]);
    await addEndpoint(otherOwner, "/ok/invoice-other", ["invoice.created"]);
    // a reconciled line each for Acme and the other customer: one invoice each
    const ids = [await reconciledLine(db(), acmeId, {}, ["40.00"]), await reconciledLine(db(), otherId, {}, ["25.00"])];
    const before = new Set((await db().select({ id: invoices.id }).from(invoices)).map((i) => i.id));
    const run = await staff.json<Json>("/api/invoices", { method: "POST", json: { invoice_detail_ids: ids } });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect((await support.workJob(world, run.body.job_id, staff)).status).toBe("complete");
    const made = (await db().select().from(invoices).where(eq(invoices.accountingType, "receivable"))).filter((i) => !before.has(i.id));
    const acmeInvoices = made.filter((i) => i.customerId === acmeId);
    expect(acmeInvoices.length).toBeGreaterThan(0);
    await deliverAll();
    const got = bodies("/ok/invoice-acme");
    expect(got.map((b) => b.type).every((t) => t === "invoice.created")).toBe(true);
    expect(got.map((b) => b.data.invoice_number).sort()).toEqual(acmeInvoices.map((i) => i.invoiceNumber).sort());
    expect(got.every((b) => b.data.customer_id === acmeId && b.data.total === Number(acmeInvoices.find((i) => i.id === b.data.id)!.total))).toBe(true);
    // the other customer's endpoint hears of its own invoice only
    const other = bodies("/ok/invoice-other");
    expect(other.map((b) => b.data.customer_id)).toEqual([otherId]);
  });

  it("reconciliation.disputed: the line and the note reach the customer's endpoint, never the carrier's costs", async () => {
    await addEndpoint(owner, "/ok/dispute-acme", ["reconciliation.disputed"]);
    await addEndpoint(otherOwner, "/ok/dispute-other", ["reconciliation.disputed"]);
    const [northline] = await db().select().from(carriers).where(eq(carriers.code, "NORTHLINE"));
    const [testco] = await db().select().from(customers).where(eq(customers.id, otherId));
    const rec = async (customerId: number, n: string) => {
      const [inv] = await db().insert(invoices).values({ accountingType: "payable", invoiceNumber: `WHD-${n}`, carrierId: northline!.id, state: "allocated", total: "987.65" }).returning();
      const [d] = await db()
        .insert(invoiceDetails)
        .values({ invoiceId: inv!.id, lineNumber: 1, carrierId: northline!.id, customerId, state: "allocated", consignmentNumber: `WHD${n}`, totalCost: "987.65" })
        .returning();
      const [r] = await db()
        .insert(reconciliations)
        .values({ invoiceDetailId: d!.id, customerId, carrierId: northline!.id, state: "reconciling", reasonCategories: ["zone"] as never, invoiced: "987.65", discrepancyAmount: "123.45" })
        .returning();
      return r!.id;
    };
    const ours = await rec(acmeId, "1");
    const theirs = await rec(testco!.id, "2");
    const res = await staff.json<Json>("/api/reconciliations/dispute", { method: "PUT", json: { ids: [ours, theirs], note: "Charged the Sydney zone" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await db().select().from(reconciliations).where(inArray(reconciliations.id, [ours, theirs]))).every((r) => r.state === "disputed")).toBe(true);
    await deliverAll();
    const acme = bodies("/ok/dispute-acme");
    expect(acme.map((b) => [b.type, b.data.id, b.data.state, b.data.note])).toEqual([["reconciliation.disputed", ours, "disputed", "Charged the Sydney zone"]]);
    const other = bodies("/ok/dispute-other");
    expect(other.map((b) => b.data.id)).toEqual([theirs]);
    // the carrier's invoiced amount and the discrepancy are the provider's figures
    expect(JSON.stringify([...acme, ...other])).not.toMatch(/987\.65|123\.45|invoiced|discrepancy/);
  });
});
