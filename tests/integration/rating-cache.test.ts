import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carrierAccounts, carriers, fuelLevies, localities, rateLanes, ratingDataVersion, services, siteServices, surchargeSets, zones } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { createCarrier, createCarrierAccount, createService, createSiteService } from "../../db/seed/factories";
import { loadCurrentUser, type CurrentUser } from "../../app/modules/auth/current-user.server";
import { rateWithCosts } from "../../app/modules/rating/rating.server";
import { createTestDatabase, type TestDatabase } from "../support/database";
import { MEL_TO_BNE, MEL_TO_BNE_LOCALITIES } from "../support/rating";

/**
 * The rating reference data cache (rating-data.server.ts): whatever changes the data a rate shop
 * reads, in whichever statement, the next rate shop prices with it; a rolled-back change is never
 * served.
 */
let test: TestDatabase;
let db: TestDatabase["database"]["db"];
let user: CurrentUser;
let serviceId: number;
let carrierId: number;
let siteServiceId: number;
let accountId: number;

beforeAll(async () => {
  test = await createTestDatabase();
  db = test.database.db;
  const demo = await seedDemo(db);
  await db.insert(localities).values([...MEL_TO_BNE_LOCALITIES]);
  const carrier = await createCarrier(db, { code: "CACHECO", name: "Cache Freight" });
  carrierId = carrier.id;
  const service = await createService(db, carrier.id, { code: "ROAD", name: "Cache Road", type: "road" });
  serviceId = service.id;
  const account = await createCarrierAccount(db, demo.sites.melbourne.id, carrier.id);
  accountId = account.id;
  const ss = await createSiteService(db, demo.sites.melbourne.id, service.id, { rateCode: "R1", markup: "0", surchargesMarkup: "0", carrierAccountId: account.id });
  siteServiceId = ss.id;
  await db.insert(zones).values([
    { carrierId, postcode: "3175", code: "MEL" },
    { carrierId, postcode: "4102", code: "BNE" },
  ]);
  await db.insert(rateLanes).values({ carrierId, serviceId, rateCode: "R1", fromZone: "MEL", toZone: "BNE", basic: "10", perKg: "0", perItem: "0", minimum: "0", transitDays: 2, cubicFactor: "250", effectiveFrom: "2026-01-01" });
  const [row] = await db.select({ id: sql<number>`id` }).from(sql`users`).where(sql`email = 'despatcher@example.com'`);
  user = (await loadCurrentUser(db, row!.id))!;
}, 60_000);
afterAll(() => test.drop());

const payload = {
  // tomorrow: a despatch date may not be in the past (the lane runs from 2026-01-01)
  despatch_date: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
  ...MEL_TO_BNE,
  items: [{ quantity: 1, length: 10, width: 10, height: 10, weight_in_uom: 1, dangerous_goods: true }],
};

/** The cache carrier's rate: its freight (buy) and its total. */
async function cacheRate(on: typeof db = db) {
  const res = await rateWithCosts(on, user, payload);
  const r = res.carriers.find((c) => c.code === "CACHECO");
  if (!r) return null;
  const freight = r.rating_detail?.buy.find((l) => l.category === "freight_charge")?.amount ?? null;
  return { freight, total: r.total, poa: r.is_poa, hidden: r.is_na, fromZone: r.rating_detail?.from_zone };
}

const version = async () => (await db.select({ v: ratingDataVersion.version }).from(ratingDataVersion))[0]!.v;

describe("rating data version", () => {
  it("every statement that changes rating data bumps it; number allocation does not", async () => {
    const changes: Array<[string, () => Promise<unknown>]> = [
      ["localities", () => db.update(localities).set({ region: "VIC" }).where(eq(localities.postcode, "3175"))],
      ["zones", () => db.update(zones).set({ updatedAt: new Date() }).where(eq(zones.carrierId, carrierId))],
      ["rate_lanes", () => db.update(rateLanes).set({ transitDays: 2 }).where(eq(rateLanes.serviceId, serviceId))],
      ["fuel_levies", () => db.delete(fuelLevies).where(eq(fuelLevies.carrierId, carrierId))],
      ["surcharge_sets", () => db.delete(surchargeSets).where(eq(surchargeSets.carrierId, carrierId))],
      ["carriers", () => db.update(carriers).set({ name: "Cache Freight" }).where(eq(carriers.id, carrierId))],
      ["services", () => db.update(services).set({ name: "Cache Road" }).where(eq(services.id, serviceId))],
      ["site_services", () => db.update(siteServices).set({ markup: "0" }).where(eq(siteServices.id, siteServiceId))],
      ["carrier_accounts options", () => db.update(carrierAccounts).set({ options: {} }).where(eq(carrierAccounts.id, accountId))],
    ];
    for (const [table, change] of changes) {
      const before = await version();
      await change();
      expect(await version(), table).toBe(before + 1);
    }
    const before = await version();
    await db.update(carrierAccounts).set({ consignmentCurrent: sql`coalesce(${carrierAccounts.consignmentCurrent}, 0) + 1` }).where(eq(carrierAccounts.id, accountId));
    expect(await version()).toBe(before);
  });
});

describe("the rate shop after a change", () => {
  it("prices with each changed table at once", async () => {
    const base = await cacheRate();
    expect(base).toMatchObject({ freight: 10, poa: false, fromZone: "MEL" });
    expect(await cacheRate()).toEqual(base); // served again, from the cache

    await db.update(rateLanes).set({ basic: "25" }).where(eq(rateLanes.serviceId, serviceId));
    expect((await cacheRate())!.freight).toBe(25);

    // a newer card in force on the date
    await db.insert(rateLanes).values({ carrierId, serviceId, rateCode: "R1", fromZone: "MEL", toZone: "BNE", basic: "40", perKg: "0", perItem: "0", minimum: "0", transitDays: 2, cubicFactor: "250", effectiveFrom: "2026-11-01" });
    expect((await cacheRate())!.freight).toBe(40);

    const noLevy = (await cacheRate())!.total!;
    await db.insert(fuelLevies).values({ carrierId, percentage: "10", effectiveFrom: "2026-01-01" });
    expect((await cacheRate())!.total!).toBeGreaterThan(noLevy);

    const noSurcharge = (await cacheRate())!.total!;
    const [set] = await db
      .insert(surchargeSets)
      .values({ customerId: user.customer.id, name: "Cache", code: "CACHE", carrierId, dgSurcharge: { surcharge: 30, is_percentage: false, add_fuel_levy: false } })
      .returning();
    expect((await cacheRate())!.total!).toBeGreaterThan(noSurcharge + 30);
    await db.delete(surchargeSets).where(eq(surchargeSets.id, set!.id));
    expect((await cacheRate())!.total!).toBe(noSurcharge);

    const unmarked = (await cacheRate())!.total!;
    await db.update(siteServices).set({ markup: "50" }).where(eq(siteServices.id, siteServiceId));
    expect((await cacheRate())!.total!).toBeGreaterThan(unmarked);

    await db.update(carrierAccounts).set({ options: { hide_rates: true } as never }).where(eq(carrierAccounts.id, accountId));
    expect((await cacheRate())!.hidden).toBe(true);
    await db.update(carrierAccounts).set({ options: {} }).where(eq(carrierAccounts.id, accountId));

    // "-": the service must not rate from there
    await db.update(zones).set({ code: "-" }).where(eq(zones.postcode, "3175"));
    expect(await cacheRate()).toBeNull();
    await db.update(zones).set({ code: "MEL" }).where(eq(zones.postcode, "3175"));

    await db.update(services).set({ dangerousGoodsProhibited: true }).where(eq(services.id, serviceId));
    expect(await cacheRate()).toBeNull();
    await db.update(services).set({ dangerousGoodsProhibited: false }).where(eq(services.id, serviceId));

    await db.update(siteServices).set({ enabled: false }).where(eq(siteServices.id, siteServiceId));
    expect(await cacheRate()).toBeNull();
    await db.update(siteServices).set({ enabled: true }).where(eq(siteServices.id, siteServiceId));

    await db.update(localities).set({ postcode: "4103" }).where(eq(localities.locality, "WOOLLOONGABBA"));
    await expect(cacheRate()).rejects.toThrow("Invalid receiver locality");
    await db.update(localities).set({ postcode: "4102" }).where(eq(localities.locality, "WOOLLOONGABBA"));
    expect((await cacheRate())!.freight).toBe(40);
  });

  it("inside a transaction sees its own changes, and a rolled-back change is never served", async () => {
    await db.update(rateLanes).set({ basic: "40" }).where(eq(rateLanes.serviceId, serviceId));
    expect((await cacheRate())!.freight).toBe(40);
    const committed = await version();
    await expect(
      db.transaction(async (tx) => {
        await tx.update(rateLanes).set({ basic: "500" }).where(eq(rateLanes.serviceId, serviceId));
        expect((await cacheRate(tx as unknown as typeof db))!.freight).toBe(500);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    // the next committed change takes the rolled-back one's version number
    await db.update(rateLanes).set({ basic: "200" }).where(eq(rateLanes.serviceId, serviceId));
    expect(await version()).toBe(committed + 1);
    expect((await cacheRate())!.freight).toBe(200);
    // and rolling back leaves the committed figures
    await db.transaction(async (tx) => {
      await tx.update(rateLanes).set({ basic: "700" }).where(eq(rateLanes.serviceId, serviceId));
      expect((await cacheRate(tx as unknown as typeof db))!.freight).toBe(700);
      tx.rollback();
    }).catch(() => {});
    expect((await cacheRate())!.freight).toBe(200);
  });
});
