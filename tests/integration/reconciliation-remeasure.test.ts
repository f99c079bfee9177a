/**
 * Issue 29 finding 3 (decision 027): a re-rate prices the consignment's own items re-measured to
 * what the carrier billed, so the demo's Acme Northline surcharges by longest side (levels 1 and 2)
 * and by weight (level 3) apply as the carrier's would. Each case checks the stored re-rate
 * against the rating engine's own price for the re-measured goods.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addresses, consignments, invoiceDetails, reconciliations, services, sites } from "../../db/schema";
import { seedDemoIfEmpty } from "../../db/seed/demo";
import { DEMO_INVOICE_NUMBERS } from "../../db/seed/invoices";
import { loadLocalities } from "../../db/seed/localities";
import { rerateLines } from "../../app/modules/reconciliation/rerate.server";
import { ratingPayloadSchema } from "../../app/modules/rating/payload";
import { rateAtSite } from "../../app/modules/rating/rating.server";
import type { RatingDetail } from "../../app/modules/rating/engine";
import { rowsOf } from "../../app/utils/sql-rows";
import { createTestDatabase, type TestDatabase } from "../support/database";

let test: TestDatabase;
const db = () => test.database.db;

/** Northline line 1: one pallet, 120 x 120 x 150 cm, 280 kg, billed heavier than rated */
async function firstNorthlineLine() {
  const [row] = rowsOf<{ id: number; invoice_detail_id: number; consignment_id: number }>(
    await db().execute(sql`select r.id, r.invoice_detail_id, r.consignment_id from reconciliations r join invoice_details d on d.id = r.invoice_detail_id join invoices i on i.id = d.invoice_id
      where i.invoice_number = ${DEMO_INVOICE_NUMBERS.NORTHLINE} and d.line_number = 1`),
  );
  const [c] = await db().select().from(consignments).where(eq(consignments.id, row!.consignment_id));
  return { rec: row!, c: c! };
}

/** What the engine prices the consignment at with `items` (as a despatcher's rating would), for its own service. */
async function engineFor(c: typeof consignments.$inferSelect, items: Array<{ quantity: number; length: number; width: number; height: number; weight_in_uom: number }>) {
  const [site] = await db().select().from(sites).where(eq(sites.id, c.siteId));
  const [sender] = await db().select().from(addresses).where(eq(addresses.id, c.senderAddressId!));
  const [receiver] = await db().select().from(addresses).where(eq(addresses.id, c.receiverAddressId!));
  const payload = ratingPayloadSchema.parse({
    despatch_date: new Date().toISOString().slice(0, 10),
    site_code: site!.code,
    items,
    sender_locality: sender!.locality,
    sender_postcode: sender!.postcode,
    receiver_locality: receiver!.locality,
    receiver_postcode: receiver!.postcode,
  });
  const response = await rateAtSite(db(), c.customerId, site!, { ...payload, despatch_date: c.despatchDate! });
  const [service] = await db().select().from(services).where(eq(services.id, c.serviceId!));
  const rate = response.carriers.find((r) => r.code === "NORTHLINE" && r.service_code === service!.code);
  return rate!.rating_detail!;
}

async function rerated(recId: number, line: Partial<typeof invoiceDetails.$inferInsert>, detailId: number) {
  await db().update(invoiceDetails).set(line).where(eq(invoiceDetails.id, detailId));
  expect(await rerateLines(db(), [recId])).toEqual([{ id: recId, status: "rerated", error: null }]);
  const [r] = await db().select().from(reconciliations).where(eq(reconciliations.id, recId));
  return r!.rerateDetail as unknown as RatingDetail;
}

const measures = (d: RatingDetail) => ({ buy: d.buy, total_buy: d.total_buy, dead_weight: d.dead_weight, cubic_weight: d.cubic_weight, charge_weight: d.charge_weight, volume: d.volume });
const oversize = (d: RatingDetail) => d.buy.filter((l) => l.category === "oversize_surcharge").map((l) => l.description);

beforeAll(async () => {
  test = await createTestDatabase();
  await loadLocalities(db());
  expect(await seedDemoIfEmpty(db())).toBe(true);
}, 180_000);
afterAll(() => test.drop());

describe("re-rating re-measures the consignment's own items", () => {
  it("a charge weight above the dead weight is bigger goods: the longest-side level applies, the weight level does not", async () => {
    const { rec, c } = await firstNorthlineLine();
    const rating = c.ratingDetail as unknown as RatingDetail;
    expect(rating.cubic_weight).toBeGreaterThan(rating.dead_weight);
    // the carrier measured the pallet at 150 x 150 x 187.5 cm (each side x 1.25): its cubic is what it billed
    const billed = Math.round(1.5 * 1.5 * 1.875 * rating.lane!.cubicFactor * 1000) / 1000;
    const detail = await rerated(rec.id, { totalWeightInUom: "280", totalChargeWeight: String(billed), totalVolumeInUomCubed: null }, rec.invoice_detail_id);
    const expected = await engineFor(c, [{ quantity: 1, length: 150, width: 150, height: 187.5, weight_in_uom: 280 }]);
    expect(measures(detail)).toEqual(measures(expected));
    // longest side 1.875 m: level 1 (1.5 to 2.4 m); 280 kg a pallet is under level 3's 500 kg
    expect(oversize(detail)).toEqual(["Oversize level 1"]);
    expect(detail.dead_weight).toBe(280);
  });

  it("an invoice dead weight above the rated one is heavier goods of the same size: the weight level applies", async () => {
    const { rec, c } = await firstNorthlineLine();
        // 800 kg is above the pallet's cubic: the charge weight is the dead weight, the size stays
    expect((c.ratingDetail as unknown as RatingDetail).cubic_weight).toBeLessThan(800);
    const detail = await rerated(rec.id, { totalWeightInUom: "800", totalChargeWeight: "800", totalVolumeInUomCubed: null }, rec.invoice_detail_id);
    const expected = await engineFor(c, [{ quantity: 1, length: 120, width: 120, height: 150, weight_in_uom: 800 }]);
    expect(measures(detail)).toEqual(measures(expected));
    // 800 kg a pallet: level 3 (from 500 kg), the highest level reached
    expect(oversize(detail)).toEqual(["Oversize level 3"]);
    expect(detail.volume).toBeCloseTo(2.16, 4);
  });

  it("an invoice volume sizes the goods: 2.16 m3 x 1.953125 is 1.25 on each side", async () => {
    const { rec, c } = await firstNorthlineLine();
    const rating = c.ratingDetail as unknown as RatingDetail;
    const billed = Math.round(4.21875 * rating.lane!.cubicFactor * 1000) / 1000;
    const detail = await rerated(rec.id, { totalWeightInUom: null, totalChargeWeight: String(billed), totalVolumeInUomCubed: "4.2188" }, rec.invoice_detail_id);
    const expected = await engineFor(c, [{ quantity: 1, length: 150, width: 150, height: 187.5, weight_in_uom: 280 }]);
    expect(measures(detail)).toEqual(measures(expected));
  });
});
