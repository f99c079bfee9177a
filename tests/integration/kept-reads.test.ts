import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChangeFeed } from "../../db/changes.server";
import { itemTypes, localities, rateLanes, storeProducts, stores, trackingGuessCounts, zones } from "../../db/schema";
import { createCarrier, createService, createSiteService } from "../../db/seed/factories";
import { seedDemo } from "../../db/seed/demo";
import { TRACKING_GUESSES } from "../../server/tracking-limits";
import { tokenDigest } from "../../app/modules/auth/tokens.server";
import { todayIn } from "../../app/modules/calendar/site-time";
import { MEL_TO_BNE, MEL_TO_BNE_LOCALITIES } from "../support/rating";
import { startSecondProcess } from "../support/second-process";
import { Client, startTestServer, type TestServer } from "../support/server";

/**
 * Issue 32: the rating data's version stamp, the online stores and their products, and the public
 * tracking limiter's counts, kept in memory by each web process (rating-data.server.ts,
 * stores/checkout.server.ts, auth/sign-in-counts.server.ts) with the change feed of migration 0043,
 * never outlive a change. Two web processes (A, the test server, and B, a second app with its
 * own database handle, feed and caches) over one PostgreSQL database; each change is made by a
 * third connection, as a script or another host would, and B is asked at once.
 */
const postgres = Boolean(process.env.DATABASE_URL);
if (!postgres) console.warn("rating-store-feed.test.ts skipped: the change feed listens on PostgreSQL (set DATABASE_URL).");

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

let server: TestServer;
let b: Awaited<ReturnType<typeof startSecondProcess>>;
let despatcher: Client;
const KEY = "fdsk_feed-test-store-key-0123456789abcdef";

beforeAll(async () => {
  if (!postgres) return;
  server = await startTestServer();
  const demo = await seedDemo(server.db);
  await server.db.insert(localities).values([...MEL_TO_BNE_LOCALITIES]);
  // a carrier of this file's with two priced services from Melbourne to Brisbane
  const carrier = await createCarrier(server.db, { code: "FEEDCO", name: "Feed Freight" });
  await server.db.insert(zones).values([
    { carrierId: carrier.id, postcode: "3175", code: "MEL" },
    { carrierId: carrier.id, postcode: "4102", code: "BNE" },
  ]);
  for (const [code, type, basic] of [["ROAD", "road", "10"], ["EXP", "overnight", "30"]] as const) {
    const service = await createService(server.db, carrier.id, { code, name: code, type });
    await createSiteService(server.db, demo.sites.melbourne.id, service.id, { rateCode: "R1", markup: "0", surchargesMarkup: "0" });
    await server.db.insert(rateLanes).values({ carrierId: carrier.id, serviceId: service.id, rateCode: "R1", fromZone: "MEL", toZone: "BNE", basic, perKg: "1", perItem: "0", minimum: "0", transitDays: 2, cubicFactor: "250", effectiveFrom: "2020-01-01" });
  }
  const [store] = await server.db
    .insert(stores)
    .values({ customerId: demo.acme.id, cartType: "shopify", ratePresentation: "full_list", siteId: demo.sites.melbourne.id, externalId: "feed-shop", apiKeyHash: tokenDigest(KEY), apiKeyHint: KEY.slice(-4) })
    .returning();
  const [type] = await server.db.insert(itemTypes).values({ customerId: demo.acme.id, description: "Feed carton", length: "40", width: "30", height: "20", weight: "3" }).returning();
  await server.db.insert(storeProducts).values({ storeId: store!.id, sku: "FEED-1", name: "Feed product", itemTypeId: type!.id });
  b = await startSecondProcess(server);
  despatcher = new Client(b.url);
  expect((await despatcher.signIn("despatcher@example.com")).status).toBe(200);
}, 120_000);
afterAll(async () => {
  await b?.close();
  await server?.close();
});

/** Runs `change` with `trigger` on `table` switched off: nothing tells the processes. */
async function unheard(table: string, trigger: string, change: () => Promise<unknown>) {
  await server.db.execute(sql.raw(`alter table ${table} disable trigger ${trigger}`));
  try {
    await change();
  } finally {
    await server.db.execute(sql.raw(`alter table ${table} enable trigger ${trigger}`));
  }
}

/** B's rate shop, Melbourne to Brisbane: each service's total by code. */
async function totalsOnB(): Promise<Record<string, number | null>> {
  const item = { quantity: 1, length: 40, width: 30, height: 30, weight_in_uom: 12 };
  const despatchDate = todayIn("Australia/Melbourne", new Date(Date.now() + 86_400_000));
  const res = await despatcher.json<{ carriers: Json[] }>("/api/carrier_selection", { json: { despatch_date: despatchDate, ...MEL_TO_BNE, items: [item] } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return Object.fromEntries(res.body.carriers.map((c) => [`${c.code}:${c.service_code}`, c.total]));
}

/** B's checkout rates for one carton to Brisbane. */
async function checkoutOnB(key = KEY) {
  const body = {
    rate: {
      origin: { country: "AU", postal_code: "3175", province: "VIC", city: "Dandenong South" },
      destination: { country: "AU", postal_code: "4102", province: "QLD", city: "Woolloongabba" },
      items: [{ name: "Feed product", sku: "FEED-1", quantity: 1, grams: 800, price: 2500, requires_shipping: true }],
      currency: "AUD",
    },
  };
  const res = await fetch(`${b.url}/api/store/feed-shop/rates`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Json };
}

const raiseLanes = (by: number) => server.db.execute(sql`update rate_lanes set basic = basic + ${by}`);

describe.skipIf(!postgres)("the rating data's stamp kept by every web process", () => {
  it("is kept: a change to the rates nobody is told of is not priced (so the trigger is what the next case tests)", async () => {
    const before = await totalsOnB();
    expect(await totalsOnB()).toEqual(before);
    await unheard("rating_data_version", "rating_data_version_changed", () => raiseLanes(50));
    expect(await totalsOnB()).toEqual(before);
    // the next change that is heard prices both
    await raiseLanes(50);
    const after = await totalsOnB();
    const priced = Object.keys(before).filter((k) => before[k] !== null);
    expect(priced).toEqual(expect.arrayContaining(["FEEDCO:ROAD", "FEEDCO:EXP"]));
    for (const k of priced) expect(after[k]).toBeGreaterThan(before[k]!);
  });

  it("prices a change made by another connection at B's next rate shop", async () => {
    const before = await totalsOnB();
    await raiseLanes(25);
    const after = await totalsOnB();
    for (const k of Object.keys(before).filter((k) => before[k] !== null)) expect(after[k]).toBeGreaterThan(before[k]!);
    // and a change rolled back is never priced
    await server.db
      .transaction(async (tx) => {
        await tx.execute(sql`update rate_lanes set basic = basic + 1000`);
        throw new Error("rolled back");
      })
      .catch(() => {});
    expect(await totalsOnB()).toEqual(after);
  });
});

describe.skipIf(!postgres)("a store kept by every web process", () => {
  it("is kept: a change to the store nobody is told of is not seen", async () => {
    const first = await checkoutOnB();
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.rates.length).toBeGreaterThan(1);
    await unheard("stores", "stores_changed", () => server.db.update(stores).set({ ratePresentation: "grouped" }).where(eq(stores.externalId, "feed-shop")));
    expect((await checkoutOnB()).body.rates).toHaveLength(first.body.rates.length);
    // heard: the store is read again, grouped
    await server.db.update(stores).set({ cartType: "shopify" }).where(eq(stores.externalId, "feed-shop"));
    const grouped = await checkoutOnB();
    expect(grouped.status).toBe(200);
    expect(grouped.body.rates.map((r: Json) => r.service_code)).not.toEqual(first.body.rates.map((r: Json) => r.service_code));
    await server.db.update(stores).set({ ratePresentation: "full_list" }).where(eq(stores.externalId, "feed-shop"));
  });

  it("prices a product's new measures, and its item type's, at B's next call; a change nobody is told of is not seen", async () => {
    const total = async () => {
      const res = await checkoutOnB();
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return Number(res.body.rates.find((r: Json) => r.service_code === "FEEDCO-ROAD").total_price);
    };
    const first = await total();
    expect(await total()).toBe(first);
    // the product has no measures of its own: its item type's count
    await server.db.update(itemTypes).set({ weight: "30" }).where(eq(itemTypes.description, "Feed carton"));
    const heavier = await total();
    expect(heavier).toBeGreaterThan(first);
    await server.db.update(storeProducts).set({ weight: "60" }).where(eq(storeProducts.sku, "FEED-1"));
    const own = await total();
    expect(own).toBeGreaterThan(heavier);
    await unheard("store_products", "store_products_changed", () => server.db.update(storeProducts).set({ weight: "90" }).where(eq(storeProducts.sku, "FEED-1")));
    expect(await total()).toBe(own);
    await server.db.update(storeProducts).set({ weight: null }).where(eq(storeProducts.sku, "FEED-1"));
    expect(await total()).toBe(heavier);
  });

  it("refuses the old key at B's next call once the key is replaced, and every key once the store is gone", async () => {
    expect((await checkoutOnB()).status).toBe(200);
    const NEW_KEY = "fdsk_feed-test-store-key-replaced-000000000";
    await server.db.update(stores).set({ apiKeyHash: tokenDigest(NEW_KEY), apiKeyHint: NEW_KEY.slice(-4) }).where(eq(stores.externalId, "feed-shop"));
    expect((await checkoutOnB()).status).toBe(401);
    expect((await checkoutOnB(NEW_KEY)).status).toBe(200);
    await server.db.delete(storeProducts);
    await server.db.delete(stores).where(eq(stores.externalId, "feed-shop"));
    expect((await checkoutOnB(NEW_KEY)).status).toBe(401);
  });
});

describe.skipIf(!postgres)("the tracking limiter's count kept by every web process", () => {
  const page = async (token: string) => (await fetch(`${b.url}/track/${token}`)).status;

  it("refuses a real link on B at once when the address has guessed too often on A, and serves it again once the count is gone", async () => {
    // a consignment's link, once it has left
    const despatchDate = todayIn("Australia/Melbourne", new Date(Date.now() + 86_400_000));
    const made = await despatcher.json<Json>("/api/consignments", { json: { site_code: "MEL", reference: "KEPT-LINK", despatch_date: despatchDate, items: [] } });
    expect(made.status).toBe(201);
    const token = crypto.randomUUID();
    await server.db.execute(sql`update consignments set public_tracking_token = ${token}, state = 'despatched' where id = ${made.body.id}`);
    expect(await page(token)).toBe(200);
    expect(await page(token)).toBe(200);
    // kept: a count nobody is told of is not seen
    await unheard("tracking_guess_counts", "tracking_guess_counts_changed", () =>
      server.db.insert(trackingGuessCounts).values({ key: "127.0.0.1", hits: TRACKING_GUESSES, resetAt: new Date(Date.now() + 600_000) }).onConflictDoNothing(),
    );
    expect(await page(token)).toBe(200);
    await server.db.delete(trackingGuessCounts);
    // guesses on A, counted against this address
    for (let i = 0; i < TRACKING_GUESSES; i++) expect((await fetch(`${server.url}/track/00000000-0000-4000-8000-${String(i).padStart(12, "0")}`)).status).toBe(404);
    const [count] = await server.db.select().from(trackingGuessCounts);
    // the address the unheard count above was written for
    expect(count).toMatchObject({ key: "127.0.0.1", hits: TRACKING_GUESSES });
    expect(await page(token)).toBe(429);
    // the count removed (the window's sweep, or by hand): B serves the link again
    await server.db.delete(trackingGuessCounts);
    expect(await page(token)).toBe(200);
  });
});

describe.skipIf(!postgres)("a request's mark in the change feed", () => {
  it("is heard since only once a sync sent after it has answered", async () => {
    const feed = createChangeFeed(server.test.database.url!);
    try {
      const early = feed.mark();
      expect(feed.heardSince(early)).toBe(false);
      // a sync asked for in the same turn as the mark is sent after it: it vouches for it
      expect(await feed.sync()).toBe(true);
      expect(feed.heardSince(early)).toBe(true);
      const late = feed.mark();
      expect(feed.heardSince(late)).toBe(false);
      expect(await feed.sync()).toBe(true);
      expect(feed.heardSince(late)).toBe(true);
      await feed.close();
      // a closed feed vouches for nothing
      expect(feed.heardSince(early)).toBe(false);
    } finally {
      await feed.close();
    }
  });
});
