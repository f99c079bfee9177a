/**
 * Checkout rates benchmark (issue 17 item 6): POST /api/store/{external_id}/rates as an online
 * store's cart calls it (Shopify's carrier callback shape, the store's key as a Bearer token),
 * with 10 concurrent callers from a separate process, beside the floor (an empty request). The
 * store's site is the demo Melbourne site with its ten services; the store has 1,000 products.
 * Target: p95 under 30 ms with 10 callers. `checkoutRatesSection` answers the lines of
 * docs/performance.md; alone: `npx tsx bench/checkout-rates.ts` (after `npx remix build`),
 * against DATABASE_URL when set, else PGlite.
 */
import os from "node:os";
import type { DbOrTx } from "../db/client.server";
import { itemTypes, storeProducts, stores } from "../db/schema";
import { tokenDigest } from "../app/modules/auth/tokens.server";
import { RATES_TIME_BUDGET_MS } from "../app/modules/stores/checkout";
import { startTestServer } from "../tests/support/server";
import { loadFrom, medianOfThree, tableRows, TABLE_HEAD } from "./measure";
import { prepareBench, type Bench } from "./setup";

const PRODUCTS = 1000;
const KEY = "fdsk_bench-checkout-rates-key-0123456789abcdef";

/** A cart as Shopify's callback sends it: three lines by SKU, to one of a few destinations. */
function cart(n: number) {
  const destinations = [
    { postal_code: "4102", city: "Woolloongabba", province: "QLD" },
    { postal_code: "2000", city: "Sydney", province: "NSW" },
    { postal_code: "5000", city: "Adelaide", province: "SA" },
    { postal_code: "6000", city: "Perth", province: "WA" },
  ];
  const sku = (i: number) => `BENCH-${String(((n * 7 + i * 131) % PRODUCTS) + 1).padStart(5, "0")}`;
  return {
    rate: {
      origin: { country: "AU", postal_code: "3175", province: "VIC", city: "Dandenong South", name: null, address1: "120 Frankston Dandenong Road" },
      destination: { country: "AU", ...destinations[n % destinations.length]!, name: "Bench Buyer", address1: "1 Bench Street" },
      items: [0, 1, 2].map((i) => ({ name: `Product ${i}`, sku: sku(i), quantity: 1 + i, grams: 800, price: 2500, vendor: "Bench", requires_shipping: true, taxable: true, fulfillment_service: "manual", properties: null, product_id: 1000 + i, variant_id: 2000 + i })),
      currency: "AUD",
      locale: "en",
    },
  };
}

/**
 * The bench's store: a Shopify cart of `customerId` sending from `siteId` with its key and
 * ${PRODUCTS} products, and the carts its callback sends. bench/requests.ts uses it too.
 */
export async function benchStore(db: DbOrTx, customerId: number, siteId: number) {
  const [store] = await db
    .insert(stores)
    .values({ customerId, cartType: "shopify", ratePresentation: "full_list", siteId, externalId: "bench-shop", apiKeyHash: tokenDigest(KEY), apiKeyHint: KEY.slice(-4) })
    .returning();
  const [type] = await db.insert(itemTypes).values({ customerId, description: "Bench carton", length: "40", width: "30", height: "20", weight: "3" }).returning();
  // a third of the products take their item type's measures
  const products = Array.from({ length: PRODUCTS }, (_, i) => ({
    storeId: store!.id,
    sku: `BENCH-${String(i + 1).padStart(5, "0")}`,
    name: `Bench product ${i + 1}`,
    itemTypeId: type!.id,
    ...(i % 3 === 0 ? {} : { length: String(10 + (i % 50)), width: String(10 + (i % 30)), height: String(5 + (i % 20)), weight: String(0.5 + (i % 10)) }),
  }));
  for (let i = 0; i < products.length; i += 500) await db.insert(storeProducts).values(products.slice(i, i + 500));
  return {
    path: "/api/store/bench-shop/rates",
    headers: { "content-type": "application/json", authorization: `Bearer ${KEY}`, "accept-encoding": "identity" },
    bodies: Array.from({ length: 40 }, (_, n) => JSON.stringify(cart(n))),
  };
}

export async function checkoutRatesSection(bench: Pick<Bench, "server" | "demo" | "headers">): Promise<string[]> {
  const { server, demo } = bench;
  const db = server.db;
  const shop = await benchStore(db, demo.acme.id, demo.sites.melbourne.id);
  const url = `${server.url}${shop.path}`;
  const { headers, bodies } = shop;
  // every cart must be rated (not a fast 4xx): check each once, and warm up
  for (const body of bodies.slice(0, 4)) {
    const res = await fetch(url, { method: "POST", headers, body });
    const answer = (await res.json()) as { rates?: unknown[] };
    if (res.status !== 200 || !answer.rates?.length) throw new Error(`checkout rates answered ${res.status}: ${JSON.stringify(answer).slice(0, 300)}`);
  }
  await loadFrom({ url, method: "POST", headers, bodies, total: 100, concurrency: 10 });
  const { median: rated, runs } = await medianOfThree(() => loadFrom({ url, method: "POST", headers, bodies, total: 1000, concurrency: 10 }));
  const one = await loadFrom({ url, method: "POST", headers, bodies, total: 300, concurrency: 1 });
  const wrongKey = await loadFrom({ url, method: "POST", headers: { ...headers, authorization: "Bearer wrong" }, bodies, total: 300, concurrency: 10, expect: [401, 401] });
  const floor = await loadFrom({ url: `${server.url}/api/users/current`, headers: { ...bench.headers, "accept-encoding": "identity" }, total: 1000, concurrency: 10 });
  const met = rated.p95 < 30 ? "met" : "NOT met";
  return [
    "## Checkout rates",
    "",
    `Target (issue 17): POST /api/store/{external_id}/rates p95 under 30 ms with 10 concurrent callers. Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, callers in a separate process; the store's site is the demo Melbourne site (ten services), ${PRODUCTS.toLocaleString("en")} products, carts of three SKUs to four capital cities in turn. Time budget in the code: ${RATES_TIME_BUDGET_MS} ms, then 503 JSON.`,
    "",
    ...TABLE_HEAD,
    ...tableRows([
      ["POST /api/store/{external_id}/rates, 10 callers (median p95 of three runs)", rated],
      ["the same, 1 caller", one],
      ["the same with a wrong key (401), 10 callers", wrongKey],
      ["floor: GET /api/users/current, 10 callers", floor],
    ]),
    "",
    `- checkout rates p95 with 10 callers under 30 ms: ${rated.p95.toFixed(1)} ms (runs: ${runs.map((r) => r.p95.toFixed(1)).join(", ")} ms; floor ${floor.p95.toFixed(1)} ms), ${met}`,
    "",
  ];
}

// alone: its own server and the bench data
if (import.meta.url === `file://${process.argv[1]}`) {
  const server = await startTestServer();
  try {
    const bench = await prepareBench(server);
    console.log((await checkoutRatesSection(bench)).join("\n"));
  } finally {
    await server.close();
  }
}
