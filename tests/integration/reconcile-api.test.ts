/**
 * PUT /api/invoices/reconcile (issue 19 item 1; spec 3 section 7 "reconcile {invoice_ids}"): the
 * ids are checked, only invoice admins may start it, and the job reconciles the allocated lines
 * with its progress message. The comparison itself is tested on the demo's invoices
 * (reconcile.test.ts) and in compare.test.ts.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invoiceDetails, invoices, reconciliations } from "../../db/schema";
import * as support from "../support/despatch";
import type { DespatchWorld, Json } from "../support/despatch";

let world: DespatchWorld;

beforeAll(async () => {
  world = await support.startDespatchWorld();
}, 120_000);
afterAll(() => world.server.close());

describe("PUT /api/invoices/reconcile", () => {
  it("reconciles an invoice's allocated lines as a job; a line without its consignment has failed to rate", async () => {
    const db = world.server.db;
    const raw = (await db.execute(sql`select (select id from carriers order by id limit 1) as carrier_id, (select id from customers order by id limit 1) as customer_id`)) as unknown as { rows?: Json[] } | Json[];
    const fx = (Array.isArray(raw) ? raw : raw.rows!)[0]!;
    const [inv] = await db.insert(invoices).values({ accountingType: "payable", invoiceNumber: `REC-${Date.now()}`, carrierId: fx.carrier_id, total: "10" }).returning();
    const [allocated, unallocated] = await db
      .insert(invoiceDetails)
      .values([
        { invoiceId: inv!.id, lineNumber: 1, carrierId: fx.carrier_id, customerId: fx.customer_id, state: "allocated", consignmentNumber: "GONE1", totalCost: "10" },
        { invoiceId: inv!.id, lineNumber: 2, carrierId: fx.carrier_id, state: "allocation_failure", consignmentNumber: "NOPE2", totalCost: "5" },
      ])
      .returning();

    const admin = world.clients.admin;
    const res = await admin.json<Json>("/api/invoices/reconcile", { method: "PUT", json: { invoice_ids: [inv!.id] } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const job = await support.workJob(world, res.body.job_id, admin);
    expect(job).toMatchObject({ status: "complete", message: "Reconciled 1 line: 0 within the thresholds, 1 to check" });
    const rows = await db.select().from(reconciliations).where(eq(reconciliations.invoiceDetailId, allocated!.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: "reconciling", reasonCategories: ["failed_to_rate"], invoiced: "10.00", ratedBuy: "0.00", discrepancyAmount: "10.00", rerateStatus: "rerate_error" });
    // a line that was never allocated has nothing to be compared with
    expect(await db.select().from(reconciliations).where(eq(reconciliations.invoiceDetailId, unallocated!.id))).toHaveLength(0);
  });

  it("checks the ids and lets only invoice admins start it", async () => {
    const admin = world.clients.admin;
    expect((await admin.json<Json>("/api/invoices/reconcile", { method: "PUT", json: {} })).body.errors.invoice_ids).toEqual(["Select at least one invoice"]);
    expect((await admin.json<Json>("/api/invoices/reconcile", { method: "PUT", json: { invoice_ids: [99999999] } })).body.errors.invoice_ids).toEqual(["No payable invoice has one of those ids"]);
    expect((await admin.json<Json>("/api/invoices/reconcile", { method: "PUT", json: { invoice_ids: ["x"] } })).status).toBe(422);
    expect((await admin.json<Json>("/api/invoices/reconcile", { method: "POST", json: { invoice_ids: [1] } })).status).toBe(405);
    expect((await world.clients.tester.json("/api/invoices/reconcile", { method: "PUT", json: { invoice_ids: [1] } })).status).toBe(403);
    expect((await world.clients.despatcher.json("/api/invoices/reconcile", { method: "PUT", json: { invoice_ids: [1] } })).status).toBe(403);
  });
});
