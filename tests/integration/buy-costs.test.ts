import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { itemTypes, users } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { loadLocalities } from "../../db/seed/localities";
import { seedRatingDemo } from "../../db/seed/rating-demo";
import { loadCurrentUser } from "../../app/modules/auth/current-user.server";
import { quickQuote } from "../../app/modules/consignments/quick-quote.server";
import { Client, startTestServer, type TestServer } from "../support/server";
import { MEL_TO_BNE } from "../support/rating";

/**
 * Issue 12 finding 10, docs/decisions/009: buy price, lane and markups reach the provider's staff
 * and finance users only; a customer's despatcher sees the sell side of every rate.
 */
let server: TestServer;
let carton: number;
let consignmentId: number;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  await loadLocalities(server.db);
  await seedRatingDemo(server.db);
  carton = (await server.db.select({ id: itemTypes.id }).from(itemTypes).where(eq(itemTypes.name, "Carton")))[0]!.id;
  const d = await signedIn("despatcher@example.com");
  const created = await d.json<{ id: number }>("/api/consignments", { json: consignment() });
  expect(created.status).toBe(201);
  consignmentId = created.body.id;
}, 120_000);
afterAll(() => server.close());

const date = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
const items = [{ quantity: 2, length: 40, width: 30, height: 30, weight_in_uom: 10 }];
const consignment = () => ({
  site_code: "MEL",
  despatch_date: date,
  sender_address: { name: "Melbourne DC", address_line_1: "1", locality: "DANDENONG SOUTH", postcode: "3175", region: "VIC" },
  receiver_address: { name: "Brisbane Hardware", address_line_1: "5 Ipswich Road", locality: "WOOLLOONGABBA", postcode: "4102", region: "QLD" },
  items: items.map((i) => ({ ...i, item_type_id: carton })),
});

async function signedIn(email: string) {
  const c = new Client(server.url);
  expect((await c.signIn(email)).status).toBe(200);
  return c;
}

/** Every buy-side key anywhere in a JSON value, with its path. */
const BUY_SIDE = new Set(["buy", "total_buy", "markup", "surcharge_markup", "surcharges_markup", "lane", "basic", "perKg", "per_kg", "perItem", "minimum"]);
function buySideKeys(value: unknown, path = "$"): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => buySideKeys(v, `${path}[${i}]`));
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([k, v]) => [...(BUY_SIDE.has(k) ? [`${path}.${k}`] : []), ...buySideKeys(v, `${path}.${k}`)]);
}

/** What each surface answers this user: the rates, the consignment, the list, the screen. */
async function surfaces(email: string) {
  const c = await signedIn(email);
  const rates = await c.json<{ carriers: { rating_detail: Record<string, unknown> | null }[] }>("/api/carrier_selection", {
    json: { despatch_date: date, ...MEL_TO_BNE, items },
  });
  expect(rates.status).toBe(200);
  const one = await c.json<{ rating_detail: Record<string, unknown> | null }>(`/api/consignments/${consignmentId}`);
  expect(one.status).toBe(200);
  const saved = await c.json<{ id: number }>("/api/consignments", { json: consignment() });
  expect(saved.status).toBe(201);
  const list = await c.json("/api/consignments");
  expect(list.status).toBe(200);
  const [row] = await server.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  const quick = await quickQuote(server.db, (await loadCurrentUser(server.db, row!.id))!, { despatch_date: date, ...MEL_TO_BNE, items });
  // the consignment screen carries its loader data in the page
  const screen = await (await c.request(`/consignment/${consignmentId}`)).text();
  return { rates: rates.body, one: one.body, saved: saved.body, list: list.body, quick, screen };
}

describe("who sees buy costs", () => {
  it("a despatcher's answers hold no buy price, lane or markup anywhere, but keep the sell side", async () => {
    const s = await surfaces("despatcher@example.com");
    const rated = s.rates.carriers.filter((r) => r.rating_detail);
    expect(rated.length).toBeGreaterThan(0);
    expect(rated[0]!.rating_detail).toEqual(expect.objectContaining({ sell: expect.any(Array), total_sell: expect.any(Number), total_sell_incl_gst: expect.any(Number) }));
    expect(s.one.rating_detail).toEqual(expect.objectContaining({ total_sell: expect.any(Number) }));
    for (const [surface, value] of Object.entries({ rates: s.rates, one: s.one, saved: s.saved, list: s.list, quick: s.quick })) {
      expect({ surface, keys: buySideKeys(value) }).toEqual({ surface, keys: [] });
    }
    expect(s.screen).toContain("total_sell");
    expect(s.screen).not.toMatch(/total_buy|surcharge_markup|\\?"buy\\?"|\\?"lane\\?"/);
  });

  it("the provider's staff and finance users (can_reconcile) still see them", async () => {
    for (const email of ["customerservice@example.com", "admin@example.com", "finance@example.com"]) {
      const s = await surfaces(email);
      const detail = s.rates.carriers.find((r) => r.rating_detail)!.rating_detail!;
      expect(detail).toEqual(expect.objectContaining({ buy: expect.any(Array), total_buy: expect.any(Number), markup: expect.any(Number), lane: expect.any(Object) }));
      expect(s.one.rating_detail).toEqual(expect.objectContaining({ buy: expect.any(Array), total_buy: expect.any(Number), markup: expect.any(Number) }));
      expect(buySideKeys(s.quick).length).toBeGreaterThan(0);
      expect(s.screen).toContain("total_buy");
    }
  });
});
