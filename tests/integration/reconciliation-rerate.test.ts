/**
 * Re-rating in reconciliation (rerate.server.ts): the demo's reconciled invoices re-rated through
 * the rating engine with the invoice's charge weight (re-measured goods, decision 027), places and service; each status and error
 * of spec 3 sections 4 and 8; the consignment itself never changes.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consignments, invoiceDetails, reconciliations } from "../../db/schema";
import { seedDemoIfEmpty } from "../../db/seed/demo";
import { DEMO_INVOICE_NUMBERS } from "../../db/seed/invoices";
import { loadLocalities } from "../../db/seed/localities";
import { NO_CONSIGNMENT, rerateLines } from "../../app/modules/reconciliation/rerate.server";
import { rowsOf } from "../../app/utils/sql-rows";
import { createTestDatabase, type TestDatabase } from "../support/database";

let test: TestDatabase;
const db = () => test.database.db;

async function recOf(invoiceNumber: string, lineNumber: number) {
  const [row] = rowsOf<{ id: number; invoice_detail_id: number; consignment_id: number | null }>(
    await db().execute(sql`select r.id, r.invoice_detail_id, r.consignment_id from reconciliations r join invoice_details d on d.id = r.invoice_detail_id join invoices i on i.id = d.invoice_id
      where i.invoice_number = ${invoiceNumber} and d.line_number = ${lineNumber}`),
  );
  return row!;
}
const stored = async (id: number) => (await db().select().from(reconciliations).where(eq(reconciliations.id, id)))[0]!;
/** runs `body` with the line changed, then puts it back, so each case starts from the demo */
async function withLine(detailId: number, change: Partial<typeof invoiceDetails.$inferInsert>, body: () => Promise<void>) {
  const [before] = await db().select().from(invoiceDetails).where(eq(invoiceDetails.id, detailId));
  await db().update(invoiceDetails).set(change).where(eq(invoiceDetails.id, detailId));
  try {
    await body();
  } finally {
    const restore = Object.fromEntries(Object.keys(change).map((k) => [k, before![k as keyof typeof before]]));
    await db().update(invoiceDetails).set(restore).where(eq(invoiceDetails.id, detailId));
  }
}

beforeAll(async () => {
  test = await createTestDatabase();
  await loadLocalities(db());
  expect(await seedDemoIfEmpty(db())).toBe(true);
}, 180_000);
afterAll(() => test.drop());

describe("rerateLines", () => {
  it("re-rates with the invoice's charge weight and stores what the engine gave, leaving the consignment as it was", async () => {
    const rec = await recOf(DEMO_INVOICE_NUMBERS.NORTHLINE, 1);
    const [before] = await db().select().from(consignments).where(eq(consignments.id, rec.consignment_id!));
    const [line] = await db().select().from(invoiceDetails).where(eq(invoiceDetails.id, rec.invoice_detail_id));
    expect(await rerateLines(db(), [rec.id])).toEqual([{ id: rec.id, status: "rerated", error: null }]);
    const r = await stored(rec.id);
    expect(r).toMatchObject({ rerateStatus: "rerated", rerateError: null, rerateRequired: true });
    const detail = r.rerateDetail as { charge_weight: number; total_buy: number; buy: unknown[] };
    const original = before!.ratingDetail as { charge_weight: number; total_buy: number; lane: { cubicFactor: number } };
    // billed on its cubic, re-measured goods: the engine's volume is exact to 0.0001 m3, so the
    // charge weight is the billed one to within that step's cubic
    expect(Math.abs(detail.charge_weight - Number(line!.totalChargeWeight))).toBeLessThanOrEqual(0.0001 * original.lane.cubicFactor + 1e-9);
    // billed for more weight: the re-rate prices more than the original rating
    expect(detail.charge_weight).toBeGreaterThan(original.charge_weight);
    expect(detail.total_buy).toBeGreaterThan(original.total_buy);
    const [after] = await db().select().from(consignments).where(eq(consignments.id, rec.consignment_id!));
    expect(after).toEqual(before);
  });

  it("marks a line billed as rated 'Same as original consignment' without rating", async () => {
    const rec = await recOf(DEMO_INVOICE_NUMBERS.auspost, 3);
    expect(await rerateLines(db(), [rec.id])).toEqual([{ id: rec.id, status: "rerate_not_required", error: null }]);
    expect(await stored(rec.id)).toMatchObject({ rerateStatus: "rerate_not_required", rerateDetail: null });
  });

  it("says 'Must have weight' for an invoice charge weight of nothing", async () => {
    const rec = await recOf(DEMO_INVOICE_NUMBERS.NORTHLINE, 1);
    await withLine(rec.invoice_detail_id, { totalChargeWeight: "0" }, async () => {
      expect(await rerateLines(db(), [rec.id])).toEqual([{ id: rec.id, status: "rerate_error", error: "Must have weight" }]);
      expect(await stored(rec.id)).toMatchObject({ rerateStatus: "rerate_error", rerateError: "Must have weight", rerateDetail: null });
    });
  });

  it("says 'Invalid sender locality' or 'Invalid receiver locality' for places the engine does not know", async () => {
    const rec = await recOf(DEMO_INVOICE_NUMBERS.NORTHLINE, 1);
    await withLine(rec.invoice_detail_id, { senderLocality: "NOWHERE TOWN", senderPostcode: "0999" }, async () => {
      expect((await rerateLines(db(), [rec.id]))[0]).toMatchObject({ status: "rerate_error", error: "Invalid sender locality" });
    });
    await withLine(rec.invoice_detail_id, { receiverLocality: "NOWHERE TOWN", receiverPostcode: "0999" }, async () => {
      expect((await rerateLines(db(), [rec.id]))[0]).toMatchObject({ status: "rerate_error", error: "Invalid receiver locality" });
    });
  });

  it("says 'No consignment found' when the reconciliation has no consignment", async () => {
    const rec = await recOf(DEMO_INVOICE_NUMBERS.auspost, 2);
    await db().update(reconciliations).set({ consignmentId: null }).where(eq(reconciliations.id, rec.id));
    expect(await rerateLines(db(), [rec.id])).toEqual([{ id: rec.id, status: "rerate_error", error: NO_CONSIGNMENT }]);
    expect(NO_CONSIGNMENT).toBe("No consignment found");
    await db().update(reconciliations).set({ consignmentId: rec.consignment_id }).where(eq(reconciliations.id, rec.id));
  });

  it("re-rates a zone line with the invoice's places and service, and skips ids that name nothing", async () => {
    const rec = await recOf(DEMO_INVOICE_NUMBERS.auspost, 2);
    const out = await rerateLines(db(), [rec.id, rec.id, 99_999_999]);
    expect(out).toEqual([{ id: rec.id, status: "rerated", error: null }]);
    const detail = (await stored(rec.id)).rerateDetail as { from_zone: string; to_zone: string };
    expect(detail.from_zone).toBeTruthy();
    expect(detail.to_zone).toBeTruthy();
  });
});
