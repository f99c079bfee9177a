import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localities, rateLanes, storeProducts, stores, zones } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { createCarrier, createCustomer, createItemType, createService, createSite, createSiteService } from "../../db/seed/factories";
import { CHECKOUT_MESSAGES } from "../../app/modules/stores/checkout";
import { STORE_MESSAGES } from "../../app/modules/stores/stores";
import { MEL_TO_BNE_LOCALITIES } from "../support/rating";
import { Client, startTestServer, type TestServer } from "../support/server";

/**
 * Online store (issue 17 item 6): store setup and its key, products import and edit, and the
 * checkout-rates call in Shopify's carrier-callback shape, priced by the engine from a store site
 * whose only services are this file's hand-set carrier (figures worked by hand below).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

let server: TestServer;
let demo: Awaited<ReturnType<typeof seedDemo>>;
let admin: Client;
let despatcher: Client;
let siteId: number;
let otherCustomer: { id: number };
let otherSiteId: number;
let bigBoxTypeId: number;
let otherTypeId: number;

beforeAll(async () => {
  server = await startTestServer();
  demo = await seedDemo(server.db);
  const db = server.db;
  await db.insert(localities).values([...MEL_TO_BNE_LOCALITIES, { country: "AUSTRALIA", locality: "EAST BRISBANE", postcode: "4169", region: "QLD", remoteTier: 0 }]);
  // a store site with this file's services only: the demo site's services would add rates of their own
  const site = await createSite(db, demo.acme.id, { code: "SHOP", name: "Shop DC", locality: "DANDENONG SOUTH", postcode: "3175", region: "VIC", timezone: "Australia/Melbourne" });
  siteId = site.id;
  const carrier = await createCarrier(db, { code: "SHOPCO", name: "Shop Freight" });
  const road = await createService(db, carrier.id, { code: "ROAD", name: "Road", type: "road" });
  const saver = await createService(db, carrier.id, { code: "SAVER", name: "Road Saver", type: "road" });
  const express = await createService(db, carrier.id, { code: "EXP", name: "Express", type: "overnight" });
  for (const s of [road, saver, express]) await createSiteService(db, site.id, s.id, { rateCode: "R1", markup: "0", surchargesMarkup: "0" });
  await db.insert(zones).values([
    { carrierId: carrier.id, postcode: "3175", code: "MEL" },
    { carrierId: carrier.id, postcode: "4102", code: "BNE" },
    { carrierId: carrier.id, postcode: "4169", code: "BNE" },
  ]);
  const lane = { carrierId: carrier.id, rateCode: "R1", fromZone: "MEL", toZone: "BNE", perItem: "0", minimum: "0", transitDays: 2, cubicFactor: "250", effectiveFrom: "2020-01-01" };
  await db.insert(rateLanes).values([
    { ...lane, serviceId: road.id, basic: "10", perKg: "1" },
    { ...lane, serviceId: saver.id, basic: "8", perKg: "1" },
    { ...lane, serviceId: express.id, basic: "30", perKg: "2", transitDays: 1 },
  ]);
  bigBoxTypeId = (await createItemType(db, demo.acme.id, { description: "Big Box", length: "50", width: "40", height: "30", weight: "2" })).id;
  otherCustomer = await createCustomer(db);
  otherSiteId = (await createSite(db, otherCustomer.id)).id;
  otherTypeId = (await createItemType(db, otherCustomer.id, { description: "Big Box" })).id;
  admin = new Client(server.url);
  expect((await admin.signIn("admin@example.com")).status).toBe(200);
  despatcher = new Client(server.url);
  expect((await despatcher.signIn("despatcher@example.com")).status).toBe(200);
}, 120_000);
afterAll(() => server?.close());

const storeUrl = (customerId: number) => `/api/customers/${customerId}/store`;
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

async function importCsv(customerId: number, csv: string) {
  const res = await fetch(`${server.url}/api/customers/${customerId}/store/products/import`, {
    method: "POST",
    headers: { cookie: admin.cookie, "content-type": "text/csv", accept: "application/json" },
    body: csv,
  });
  return { status: res.status, body: (await res.json()) as Json };
}

/** A cart as Shopify's carrier service callback sends it. */
const cart = (items: Array<{ sku: string; quantity: number; grams?: number }>, destination: Json = {}) => ({
  rate: {
    origin: { country: "AU", postal_code: "3175", province: "VIC", city: "Dandenong South", name: null, address1: "1 Shop Street", address2: "", address3: null, phone: null, fax: null, email: null, address_type: null, company_name: "Shop" },
    destination: { country: "AU", postal_code: "4102", province: "QLD", city: "Woolloongabba", name: "Pat Buyer", address1: "2 Buyer Street", address2: "", address3: null, phone: null, fax: null, email: null, address_type: null, company_name: null, ...destination },
    items: items.map((i, n) => ({ name: `Item ${n}`, sku: i.sku, quantity: i.quantity, grams: i.grams ?? 500, price: 1999, vendor: "Shop", requires_shipping: true, taxable: true, fulfillment_service: "manual", properties: null, product_id: 48447225880 + n, variant_id: 258644705304 + n })),
    currency: "AUD",
    locale: "en",
  },
});

async function rates(externalId: string, key: string | null, body: unknown) {
  const res = await fetch(`${server.url}/api/store/${externalId}/rates`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(key === null ? {} : { authorization: `Bearer ${key}` }) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

let key = "";
let storeId = 0;

describe("store setup", () => {
  it("refuses a bad setup with field errors and the site of another customer", async () => {
    const bad = await admin.json(storeUrl(demo.acme.id), { method: "PUT", json: { cart_type: "ebay", site_id: siteId, external_id: "has space" } });
    expect(bad.status).toBe(422);
    expect(Object.keys((bad.body as Json).errors)).toEqual(expect.arrayContaining(["cart_type", "external_id"]));
    const foreign = await admin.json(storeUrl(demo.acme.id), { method: "PUT", json: { cart_type: "shopify", site_id: otherSiteId, external_id: "acme-shop" } });
    expect(foreign.status).toBe(422);
    expect((foreign.body as Json).errors.site_id).toEqual(["Choose a site of this customer"]);
    expect(await server.db.select().from(stores)).toHaveLength(0);
  });

  it("sets up the store, shows the key once and keeps only its SHA-256 and last 4", async () => {
    const res = await admin.json<Json>(storeUrl(demo.acme.id), { method: "PUT", json: { cart_type: "shopify", rate_presentation: "full_list", site_id: siteId, external_id: "acme-shop" } });
    expect(res.status).toBe(200);
    key = res.body.api_key;
    storeId = res.body.store.id;
    expect(key).toMatch(/^fdsk_[A-Za-z0-9_-]{40,}$/);
    expect(res.body.store).toMatchObject({ cart_type: "shopify", rate_presentation: "full_list", site_id: siteId, external_id: "acme-shop", api_key_hint: key.slice(-4) });
    const [row] = await server.db.select().from(stores).where(eq(stores.id, storeId));
    expect(row!.apiKeyHash).toBe(sha256(key));
    expect(JSON.stringify(row)).not.toContain(key);
    // read back: the hint, never the key
    const read = await admin.json<Json>(storeUrl(demo.acme.id));
    expect(read.body.store.api_key_hint).toBe(key.slice(-4));
    expect(JSON.stringify(read.body)).not.toContain(key);
    // a change without generate_key keeps the key (and answers none)
    const changed = await admin.json<Json>(storeUrl(demo.acme.id), { method: "PUT", json: { cart_type: "woocommerce", site_id: siteId, external_id: "acme-shop" } });
    expect(changed.body.api_key).toBeUndefined();
    expect(changed.body.store).toMatchObject({ id: storeId, cart_type: "woocommerce" });
    expect(await server.db.select().from(stores).where(eq(stores.customerId, demo.acme.id))).toHaveLength(1);
  });

  it("refuses an external id another store uses, and despatchers", async () => {
    const other = await admin.json<Json>(storeUrl(otherCustomer.id), { method: "PUT", json: { cart_type: "magento", site_id: otherSiteId, external_id: "ACME-SHOP".toLowerCase() } });
    expect(other.status).toBe(422);
    expect(other.body.errors.external_id).toEqual(["This external id is already used by another store"]);
    expect((await despatcher.json(storeUrl(demo.acme.id))).status).toBe(403);
    expect((await despatcher.json(storeUrl(demo.acme.id), { method: "PUT", json: { cart_type: "shopify", site_id: siteId, external_id: "x" } })).status).toBe(403);
  });

  it("the screen answers the customer's store only (another's store id is 404) and shows a new key once", async () => {
    const page = await admin.request(`/customers/${demo.acme.id}/store/${storeId}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`A key ending in ${key.slice(-4)} is set.`);
    expect(html).not.toContain(key);
    const otherStore = await admin.json<Json>(storeUrl(otherCustomer.id), { method: "PUT", json: { cart_type: "magento", site_id: otherSiteId, external_id: "other-shop" } });
    expect((await admin.request(`/customers/${demo.acme.id}/store/${otherStore.body.store.id}`)).status).toBe(404);
    expect((await admin.request(`/customers/${demo.acme.id}/store/${otherStore.body.store.id}/products`)).status).toBe(404);
    // a refused save keeps what was typed and says the spec's words
    const refused = await admin.request(`/customers/${demo.acme.id}/store/${storeId}`, { form: { intent: "save", cart_type: "shopify", rate_presentation: "full_list", site_id: String(siteId), external_id: "bad id!" } });
    expect(refused.status).toBe(422);
    const refusedHtml = await refused.text();
    expect(refusedHtml).toContain(STORE_MESSAGES.failed);
    expect(refusedHtml).toContain('value="bad id!"');
  });
});

describe("products import and edit", () => {
  it("imports good lines, lists every skipped line with its reason, and updates by SKU", async () => {
    const csv = [
      "sku,name,item type,length,width,height,weight",
      "MUG-1,Coffee mug,,10,10,10,0.5",
      "BOX-1,Boxed kettle,Big Box,,,,",
      ",No sku,,1,1,1,1",
      "HEAVY,Anvil,,10,10,10,100000",
      "ODD,Odd thing,Crate,1,1,1,1",
      "mug-1,Mug again,,1,1,1,1",
    ].join("\n");
    const res = await importCsv(demo.acme.id, csv);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 2, updated: 0, skipped_total: 4 });
    expect(res.body.skipped).toEqual([
      { line: 4, errors: ["SKU is required"] },
      { line: 5, errors: ["Weight must be at most 99999"] },
      { line: 6, errors: ['Item type "Crate" is not one of this customer\'s item types'] },
      { line: 7, errors: ["SKU mug-1 is already on line 2"] },
    ]);
    const again = await importCsv(demo.acme.id, "sku,name,weight\nmug-1,Coffee mug (large),0.5\nNEW-1,New thing,1\n");
    expect(again.body).toMatchObject({ created: 1, updated: 1, skipped_total: 0 });
    const rows = await server.db.select().from(storeProducts).where(eq(storeProducts.storeId, storeId));
    expect(rows.map((r) => r.sku).sort()).toEqual(["BOX-1", "MUG-1", "NEW-1"]);
    expect(rows.find((r) => r.sku === "MUG-1")!.name).toBe("Coffee mug (large)");
    expect(rows.find((r) => r.sku === "BOX-1")!.itemTypeId).toBe(bigBoxTypeId);
  });

  it("refuses a file without the sku column, and a file of another type", async () => {
    const res = await importCsv(demo.acme.id, "name,weight\nMug,1\n");
    expect(res.status).toBe(422);
    expect(res.body.errors.file[0]).toContain("missing: sku");
    const png = await fetch(`${server.url}/api/customers/${demo.acme.id}/store/products/import`, { method: "POST", headers: { cookie: admin.cookie, "content-type": "image/png" }, body: "x" });
    expect(png.status).toBe(422);
  });

  it("the import screen says 'Products imported' and 'Error starting import.'", async () => {
    const form = new FormData();
    form.set("intent", "import");
    form.set("file", new File(["sku,name,weight\nSCR-1,Screen thing,1\n"], "products.csv", { type: "text/csv" }));
    const ok = await fetch(`${server.url}/customers/${demo.acme.id}/store/${storeId}/products`, { method: "POST", headers: { cookie: admin.cookie }, body: form });
    expect(await ok.text()).toContain(`${STORE_MESSAGES.imported}: 1 added, 0 updated, 0 skipped.`);
    const none = new FormData();
    none.set("intent", "import");
    none.set("file", new File(["hello"], "products.txt", { type: "text/plain" }));
    const refused = await fetch(`${server.url}/customers/${demo.acme.id}/store/${storeId}/products`, { method: "POST", headers: { cookie: admin.cookie }, body: none });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain(STORE_MESSAGES.importNotStarted);
  });

  it("edits item type and measures within the limits; the name is not changed", async () => {
    const list = await admin.json<Json>(`${storeUrl(demo.acme.id)}/products`);
    const mug = list.body.products.find((p: Json) => p.sku === "MUG-1");
    const tooBig = await admin.json<Json>(`${storeUrl(demo.acme.id)}/products`, { json: { products: [{ id: mug.id, length: 10000, width: 10, height: 10, weight: 100000, name: "Renamed" }] } });
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.errors["products.0.length"]).toEqual(["Length must be at most 9999"]);
    expect(tooBig.body.errors["products.0.weight"]).toEqual(["Dead weight must be at most 99999"]);
    const foreignType = await admin.json<Json>(`${storeUrl(demo.acme.id)}/products`, { json: { products: [{ id: mug.id, item_type_id: otherTypeId }] } });
    expect(foreignType.status).toBe(422);
    const ok = await admin.json<Json>(`${storeUrl(demo.acme.id)}/products`, { json: { products: [{ id: mug.id, item_type_id: "", length: 10, width: 10, height: 10, weight: 0.5, name: "Renamed" }] } });
    expect(ok.status).toBe(200);
    expect(ok.body.products[0]).toMatchObject({ sku: "MUG-1", name: "Coffee mug (large)", length: 10, weight: 0.5, item_type_id: null });
    // another store's product is not this customer's to edit
    const [foreignStore] = await server.db.select().from(stores).where(eq(stores.customerId, otherCustomer.id));
    const [foreign] = await server.db.insert(storeProducts).values({ storeId: foreignStore!.id, sku: "F-1", name: "Foreign" }).returning();
    expect((await admin.json(`${storeUrl(demo.acme.id)}/products`, { json: { products: [{ id: foreign!.id, length: 1 }] } })).status).toBe(404);
  });
});

describe("checkout rates (Shopify's carrier service callback)", () => {
  it("answers every service rated, in the callback's shape, priced by the engine", async () => {
    await admin.json(storeUrl(demo.acme.id), { method: "PUT", json: { cart_type: "shopify", rate_presentation: "full_list", site_id: siteId, external_id: "acme-shop" } });
    // 2 mugs of 0.5 kg, 10 cm cubes: dead 1 kg beats cubic 0.5 kg; road 10 + 1 x 1 = 11 + 10 % GST
    const res = await rates("acme-shop", key, cart([{ sku: "mug-1", quantity: 2 }]));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["rates"]);
    expect(res.body.rates.map((r: Json) => [r.service_code, r.total_price])).toEqual([
      ["SHOPCO-SAVER", "990"],
      ["SHOPCO-ROAD", "1210"],
      ["SHOPCO-EXP", "3520"],
    ]);
    for (const r of res.body.rates) {
      expect(Object.keys(r).sort()).toEqual(["currency", "description", "max_delivery_date", "min_delivery_date", "service_code", "service_name", "total_price"]);
      expect(r.currency).toBe("AUD");
      expect(typeof r.total_price).toBe("string");
      expect(r.min_delivery_date).toMatch(/^\d{4}-\d{2}-\d{2} 12:00:00 \+0000$/);
    }
    expect(res.body.rates[1].service_name).toBe("Shop Freight Road");
  });

  it("uses the item type's measures for a product without its own", async () => {
    // Big Box 50 x 40 x 30 cm: cubic 0.06 m3 x 250 = 15 kg beats its 2 kg; road 10 + 15 = 25 + GST
    const res = await rates("acme-shop", key, cart([{ sku: "BOX-1", quantity: 1 }]));
    expect(res.body.rates.find((r: Json) => r.service_code === "SHOPCO-ROAD").total_price).toBe("2750");
  });

  it("grouped: the cheapest service of each group", async () => {
    await admin.json(storeUrl(demo.acme.id), { method: "PUT", json: { cart_type: "shopify", rate_presentation: "grouped", site_id: siteId, external_id: "acme-shop" } });
    const res = await rates("acme-shop", key, cart([{ sku: "MUG-1", quantity: 2 }]));
    expect(res.status).toBe(200);
    expect(res.body.rates.map((r: Json) => [r.service_name, r.service_code, r.total_price, r.description])).toEqual([
      ["Road", "road", "990", "Shop Freight Road Saver"],
      ["Overnight", "overnight", "3520", "Shop Freight Express"],
    ]);
  });

  it("a destination whose city is not the postcode's locality is rated at the postcode's place", async () => {
    const res = await rates("acme-shop", key, cart([{ sku: "MUG-1", quantity: 2 }], { postal_code: "4169", city: "Kangaroo Point" }));
    expect(res.status).toBe(200);
    expect(res.body.rates).toHaveLength(2);
  });

  it("unknown SKUs, unknown postcodes, a wrong or missing key and an unknown store are clear 4xx JSON", async () => {
    const sku = await rates("acme-shop", key, cart([{ sku: "MUG-1", quantity: 1 }, { sku: "NOPE-1", quantity: 1 }, { sku: "NOPE-2", quantity: 1 }]));
    expect(sku).toEqual({ status: 422, body: { errors: { items: [CHECKOUT_MESSAGES.unknownSkus(["NOPE-1", "NOPE-2"])] } } });
    const postcode = await rates("acme-shop", key, cart([{ sku: "MUG-1", quantity: 1 }], { postal_code: "9999", city: "Nowhere" }));
    expect(postcode).toEqual({ status: 422, body: { errors: { destination: [CHECKOUT_MESSAGES.unknownPostcode("9999", "AU")] } } });
    const country = await rates("acme-shop", key, cart([{ sku: "MUG-1", quantity: 1 }], { country: "FR" }));
    expect(country.status).toBe(422);
    expect(await rates("acme-shop", `${key}x`, cart([{ sku: "MUG-1", quantity: 1 }]))).toEqual({ status: 401, body: { errors: { base: [CHECKOUT_MESSAGES.wrongKey] } } });
    expect((await rates("acme-shop", null, cart([{ sku: "MUG-1", quantity: 1 }]))).status).toBe(401);
    // an unknown external id answers as a wrong key, with a key, a wrong one or none (issue 35 finding 10)
    const wrongKey = { status: 401, body: { errors: { base: [CHECKOUT_MESSAGES.wrongKey] } } };
    for (const k of [key, `${key}x`, null]) expect(await rates("nobody-shop", k, cart([{ sku: "MUG-1", quantity: 1 }]))).toEqual(wrongKey);
    expect(await rates("acme-shop", null, cart([{ sku: "MUG-1", quantity: 1 }]))).toEqual(wrongKey);
    const bad = await rates("acme-shop", key, { rate: { destination: { country: "AU" }, items: [{ sku: "MUG-1", quantity: 0 }] } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).length).toBeGreaterThan(0);
    const notJson = await fetch(`${server.url}/api/store/acme-shop/rates`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${key}` }, body: "{not json" });
    expect(notJson.status).toBe(400);
  });

  it("a new key replaces the old one", async () => {
    const res = await admin.json<Json>(storeUrl(demo.acme.id), { method: "PUT", json: { cart_type: "shopify", rate_presentation: "full_list", site_id: siteId, external_id: "acme-shop", generate_key: true } });
    const fresh: string = res.body.api_key;
    expect(fresh).not.toBe(key);
    expect((await rates("acme-shop", key, cart([{ sku: "MUG-1", quantity: 1 }]))).status).toBe(401);
    expect((await rates("acme-shop", fresh, cart([{ sku: "MUG-1", quantity: 1 }]))).status).toBe(200);
    key = fresh;
  });
});
