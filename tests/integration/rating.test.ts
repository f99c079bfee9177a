import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { fuelLevies, localities, rateLanes, surchargeSets, zones } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { createCarrier, createCustomer, createService, createSite, createSiteService, createUser } from "../../db/seed/factories";
import { saveFuelLevy } from "../../app/modules/rating/fuel-levies.server";
import { MEL_TO_BNE, MEL_TO_BNE_LOCALITIES } from "../support/rating";
import { Client, startTestServer, type TestServer } from "../support/server";

let server: TestServer;
let demo: Awaited<ReturnType<typeof seedDemo>>;
let carrierId: number;
let serviceId: number;

/**
 * A carrier of its own with hand-set zones, lanes, levies and surcharges on the demo Melbourne
 * site, so every figure below is worked out by hand.
 */
beforeAll(async () => {
  // the figures below are worked by hand for a despatch on Monday 23 Nov 2026, and a despatch date
  // may not be in the past: the app (in this process) reads the clock of that morning in Melbourne
  vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-22T22:00:00Z"), shouldAdvanceTime: true });
  server = await startTestServer();
  demo = await seedDemo(server.db);
  const db = server.db;
  await db.insert(localities).values([
    ...MEL_TO_BNE_LOCALITIES,
    { country: "AUSTRALIA", locality: "ALICE SPRINGS", postcode: "0870", region: "NT", remoteTier: 3 },
    { country: "AUSTRALIA", locality: "WETHERILL PARK", postcode: "2164", region: "NSW", remoteTier: 0 },
  ]);
  const carrier = await createCarrier(db, { code: "HANDCO", name: "Hand Freight" });
  carrierId = carrier.id;
  const service = await createService(db, carrier.id, { code: "ROAD", name: "Hand Road", type: "road" });
  serviceId = service.id;
  await createSiteService(db, demo.sites.melbourne.id, service.id, { rateCode: "R1", markup: "10", surchargesMarkup: "20" });
  await db.insert(zones).values([
    { carrierId: carrier.id, postcode: "3175", code: "MEL" },
    { carrierId: carrier.id, postcode: "4102", code: "BNE" },
    { carrierId: carrier.id, postcode: "0870", code: "ASP" },
    { carrierId: carrier.id, postcode: "2164", code: "-" },
  ]);
  // the card changes on 2026-12-01
  const lane = { carrierId: carrier.id, serviceId: service.id, rateCode: "R1", fromZone: "MEL", perItem: "0", transitDays: 2, cubicFactor: "250" };
  await db.insert(rateLanes).values([
    { ...lane, toZone: "BNE", basic: "10", perKg: "0.5", minimum: "15", effectiveFrom: "2026-01-01" },
    { ...lane, toZone: "BNE", basic: "12", perKg: "0.6", minimum: "15", effectiveFrom: "2026-12-01" },
    { ...lane, toZone: "ASP", basic: "30", perKg: "1", minimum: "40", transitDays: 4, effectiveFrom: "2026-01-01" },
  ]);
  await db.insert(fuelLevies).values([
    { carrierId: carrier.id, percentage: "10", effectiveFrom: "2026-01-01" },
    { carrierId: carrier.id, percentage: "20", effectiveFrom: "2026-12-01" },
  ]);
  await db.insert(surchargeSets).values({
    customerId: demo.acme.id,
    name: "Hand",
    code: "HAND",
    carrierId: carrier.id,
    dgSurcharge: { surcharge: 25, is_percentage: false, add_fuel_levy: true },
    remoteSurcharges: [{ tier: 3, surcharge: 50, is_percentage: true }],
  });
});
afterAll(async () => {
  await server.close();
  vi.useRealTimers();
});

const payload = (over: Record<string, unknown> = {}) => ({
  despatch_date: "2026-11-23",
  ...MEL_TO_BNE,
  items: [{ quantity: 2, item_type: "Carton", length: 40, width: 30, height: 20, weight_in_uom: 20 }],
  ...over,
});

type Rate = { code: string; service_code: string; total: number | null; total_exclusive: number | null; is_poa: boolean; estimated_delivery_date: string | null; rating_detail: { from_zone: string; to_zone: string; buy: { category: string; amount: number }[]; sell: { category: string; amount: number }[]; lane: { effectiveFrom: string } } };

async function rateAs(email: string, body: Record<string, unknown>) {
  const c = new Client(server.url);
  await c.signIn(email);
  return c.json<{ carriers: Rate[]; selected_index: number | null; rule_applied: string; errors?: Record<string, string[]> }>("/api/carrier_selection", { json: body });
}
const hand = (carriers: Rate[]) => carriers.find((c) => c.code === "HANDCO")!;

describe("POST /api/carrier_selection", () => {
  it("prices with the zones, lane, levy, markups and GST in force (worked by hand)", async () => {
    const { status, body } = await rateAs("finance@example.com", payload());
    expect(status).toBe(200);
    const r = hand(body.carriers);
    // charge 20 kg (cube 0.048 m3 x 250 = 12 kg); freight 10 + 0.5 x 20 = 20; fuel 10 % = 2
    expect(r.rating_detail.from_zone).toBe("MEL");
    expect(r.rating_detail.to_zone).toBe("BNE");
    expect(r.rating_detail.buy).toEqual([
      { category: "freight_charge", description: "Freight MEL to BNE", amount: 20 },
      { category: "fuel_charge", description: "Fuel levy 10%", amount: 2 },
    ]);
    // markup 10 % on freight and fuel: 22 + 2.2 = 24.20; GST 2.42
    expect(r.total_exclusive).toBe(24.2);
    expect(r.total).toBe(26.62);
    // 2 business days after Monday 23 Nov 2026 in VIC
    expect(r.estimated_delivery_date).toBe("2026-11-25");
  });

  it("refuses a despatch date before today at the sending site, though UTC is still on that day", async () => {
    vi.setSystemTime(new Date("2026-11-23T20:00:00Z")); // 07:00 on Tuesday 24 Nov in Melbourne
    try {
      const { status, body } = await rateAs("despatcher@example.com", payload());
      expect(status).toBe(422);
      expect(body.errors?.despatch_date).toEqual(["Despatch date cannot be in the past"]);
    } finally {
      vi.setSystemTime(new Date("2026-11-22T22:00:00Z"));
    }
  });

  it("uses the card and levy in force on the despatch date", async () => {
    const { body } = await rateAs("finance@example.com", payload({ despatch_date: "2026-12-02" }));
    const r = hand(body.carriers);
    // 12 + 0.6 x 20 = 24; fuel 20 % = 4.80; sell (24 + 4.8) x 1.1 = 31.68
    expect(r.rating_detail.lane.effectiveFrom).toBe("2026-12-01");
    expect(r.rating_detail.buy.map((l) => l.amount)).toEqual([24, 4.8]);
    expect(r.total_exclusive).toBe(31.68);
  });

  it("applies the customer's surcharges: dangerous goods with fuel, remote tier 3 at 50 %", async () => {
    const { body } = await rateAs(
      "finance@example.com",
      payload({
        receiver_locality: "ALICE SPRINGS",
        receiver_postcode: "0870",
        items: [{ quantity: 1, length: 10, width: 10, height: 10, weight_in_uom: 50, dangerous_goods: true }],
      }),
    );
    const r = hand(body.carriers);
    // freight max(40, 30 + 1 x 50) = 80; dg 25 (fuel applies); remote 50 % of 80 = 40; fuel 10 % of (80 + 25) = 10.50
    expect(Object.fromEntries(r.rating_detail.buy.map((l) => [l.category, l.amount]))).toEqual({
      freight_charge: 80,
      fuel_charge: 10.5,
      dangerous_goods_surcharge: 25,
      remote_surcharge: 40,
    });
    // sell: (80 + 10.5) x 1.1 + (25 + 40) x 1.2 = 99.55 + 78 = 177.55
    expect(r.total_exclusive).toBe(177.55);
    expect(r.estimated_delivery_date).toBe("2026-11-27");
  });

  it("leaves out a service whose zone is '-' and prices the demo carriers too", async () => {
    const { body } = await rateAs("despatcher@example.com", payload({ receiver_locality: "WETHERILL PARK", receiver_postcode: "2164" }));
    expect(body.carriers.find((c) => c.code === "HANDCO")).toBeUndefined();
  });

  it("is POA when no lane exists between the zones", async () => {
    await server.db.insert(zones).values({ carrierId, postcode: "4102", code: "NOWHERE", serviceId });
    try {
      const { body } = await rateAs("despatcher@example.com", payload());
      expect(hand(body.carriers)).toMatchObject({ is_poa: true, total: null });
    } finally {
      await server.db.delete(zones).where(and(eq(zones.carrierId, carrierId), eq(zones.code, "NOWHERE")));
    }
  });

  it("refuses an unknown locality with the spec's messages", async () => {
    const { status, body } = await rateAs("despatcher@example.com", payload({ sender_locality: "NOWHERE", receiver_postcode: "9999" }));
    expect(status).toBe(422);
    expect(body.errors).toEqual({ sender_locality: ["Invalid sender locality"], receiver_locality: ["Invalid receiver locality"] });
  });

  it("answers the hints when items do not qualify", async () => {
    const { status, body } = await rateAs("despatcher@example.com", payload({ items: [{ quantity: 0, length: 10, width: 10, height: 10, weight_in_uom: 0 }] }));
    expect(status).toBe(422);
    expect(body.errors!["items.0.quantity"]).toEqual(["Must have quantity"]);
    expect(body.errors!["items.0.weight_in_uom"]).toEqual(["Must have weight"]);
  });

  it("rates only from the user's own sites, and never with another customer's surcharges", async () => {
    const other = await createCustomer(server.db, { code: "RATEOTHER" });
    const site = await createSite(server.db, other.id, { code: "OTH" });
    const stranger = await createUser(server.db, other.id, { email: "rate-stranger@example.com", siteIds: [site.id] });
    const refused = await rateAs(stranger.email, payload());
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ site_code: ["Site is not one of yours"] });
    // the despatcher is not assigned to the US site
    const notMine = await rateAs("despatcher@example.com", payload({ site_code: "LAX" }));
    expect(notMine.status).toBe(422);
  });

  it("answers 401 without a session and validates the body", async () => {
    const res = await fetch(`${server.url}/api/carrier_selection`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(401);
    const { status, body } = await rateAs("despatcher@example.com", { items: [] });
    expect(status).toBe(422);
    expect(Object.keys(body.errors!)).toEqual(expect.arrayContaining(["despatch_date", "site_code", "items"]));
  });
});

describe("zone import and export", () => {
  const lanesFor = async () => Number(((await server.db.select({ n: count() }).from(zones).where(eq(zones.carrierId, carrierId))) as [{ n: number }])[0].n);

  it("imports in three steps, reports created, changed, deleted and invalid, and rating follows", async () => {
    const c = new Client(server.url);
    await c.signIn("admin@example.com");
    const csv = ["postcode,locality,country,zone", "3175,,AUSTRALIA,MEL", "4102,,AUSTRALIA,BNE2", "0870,,AUSTRALIA,ASP", "12,,AUSTRALIA,BAD", "3175,,MARS,X", "4103,,AUSTRALIA,"].join("\n");
    const form = new FormData();
    form.set("carrier_code", "HANDCO");
    form.set("file", new File([csv], "zones.csv", { type: "text/csv" }));
    const started = await fetch(`${server.url}/api/zones/import`, { method: "POST", body: form, headers: { cookie: c.cookie } });
    const { uuid, length } = (await started.json()) as { uuid: string; length: number };
    expect(length).toBe(6);
    const step1 = await c.json<{ processed: number; complete: boolean }>("/api/zones/continue_import", { json: { uuid, length: 4 } });
    expect(step1.body).toMatchObject({ processed: 4, complete: false });
    // nothing is written while lines are checked
    expect((await server.db.select().from(zones).where(and(eq(zones.carrierId, carrierId), eq(zones.code, "BNE2")))).length).toBe(0);
    const step2 = await c.json<{ processed: number; complete: boolean }>("/api/zones/continue_import", { json: { uuid, length: 4 } });
    expect(step2.body).toMatchObject({ processed: 6, complete: true });
    const done = await c.json<{ created: unknown[]; changed: { postcode: string; from: string; to: string }[]; deleted: { postcode: string }[]; invalid: { line: number; errors: string[] }[] }>(
      "/api/zones/finish_import",
      { json: { uuid } },
    );
    expect(done.status).toBe(200);
    expect(done.body.changed).toEqual([{ postcode: "4102", locality: null, from: "BNE", to: "BNE2" }]);
    expect(done.body.created).toEqual([]);
    expect(done.body.deleted.map((d) => d.postcode)).toEqual(["2164"]);
    expect(done.body.invalid.map((i) => i.line)).toEqual([5, 6, 7]);
    expect(await lanesFor()).toBe(3);
    // finishing twice is refused
    expect((await c.json("/api/zones/finish_import", { json: { uuid } })).status).toBe(409);

    const exported = await c.request("/api/zones/export", { json: { carrier_code: "HANDCO" } });
    expect(exported.headers.get("content-type")).toMatch(/text\/csv/);
    expect(await exported.text()).toBe("postcode,locality,sublocality,region,country,zone\n0870,,,,AUSTRALIA,ASP\n3175,,,,AUSTRALIA,MEL\n4102,,,,AUSTRALIA,BNE2\n");
    // restore for the rating tests
    await server.db.update(zones).set({ code: "BNE" }).where(and(eq(zones.carrierId, carrierId), eq(zones.code, "BNE2")));
    await server.db.insert(zones).values({ carrierId, postcode: "2164", code: "-" });
  });

  it("saves zone edits of a scope: change, add and delete in one transaction", async () => {
    const c = new Client(server.url);
    await c.signIn("admin@example.com");
    const page = await c.json<{ zones: Array<{ id: number; postcode: string; code: string }> }>("/api/zones?carrier_code=HANDCO");
    const asp = page.body.zones.find((z) => z.postcode === "0870")!;
    const bad = await c.json<{ errors: Record<string, string[]> }>("/api/zones", {
      json: { carrier_code: "HANDCO", zones: [{ id: asp.id, code: "ASP9" }, { postcode: "1", code: "X" }] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors["zones.1.postcode"]).toEqual(["postcode must be 3 to 10 letters or digits"]);
    expect((await c.json<{ zones: Array<{ id: number; code: string }> }>("/api/zones?carrier_code=HANDCO")).body.zones.find((z) => z.id === asp.id)!.code).toBe("ASP");

    const saved = await c.json<{ created: number; updated: number; deleted: number }>("/api/zones", {
      json: { carrier_code: "HANDCO", zones: [{ id: asp.id, code: "ASP9" }, { postcode: "0872", code: "ASP" }] },
    });
    expect(saved.body).toEqual({ created: 1, updated: 1, deleted: 0 });
    const after = await c.json<{ zones: Array<{ id: number; postcode: string; code: string }> }>("/api/zones?carrier_code=HANDCO");
    expect(after.body.zones.find((z) => z.postcode === "0870")!.code).toBe("ASP9");
    const added = after.body.zones.find((z) => z.postcode === "0872")!;
    const removed = await c.json<{ deleted: number }>("/api/zones", { json: { carrier_code: "HANDCO", zones: [{ id: added.id, _destroy: true }, { id: asp.id, code: "ASP" }] } });
    expect(removed.body.deleted).toBe(1);
    // an id from another scope is not found, and nothing of the save is applied
    const other = await c.json("/api/zones", { json: { carrier_code: "NORTHLINE", zones: [{ id: asp.id, code: "HIJACK" }] } });
    expect(other.status).toBe(404);
    const cs = new Client(server.url);
    await cs.signIn("customerservice@example.com");
    const refused = await cs.json<{ errors: { base: string[] } }>("/api/zones", { json: { carrier_code: "HANDCO", zones: [{ id: asp.id, code: "Z" }] } });
    expect(refused.body.errors.base).toEqual(["Your privilege level does not allow this"]);
    expect((await cs.json("/api/zones?carrier_code=HANDCO")).status).toBe(200);
  });

  it("needs a file and a carrier; saving needs admin, super_admin or devs", async () => {
    const c = new Client(server.url);
    await c.signIn("admin@example.com");
    const noCarrier = await c.json<{ errors: Record<string, string[]> }>("/api/zones/import", { method: "POST", headers: { "content-type": "text/csv" } });
    expect(noCarrier.status).toBe(422);
    const cs = new Client(server.url);
    await cs.signIn("customerservice@example.com");
    const refused = await cs.json<{ errors: { base: string[] } }>("/api/zones/import?carrier_code=HANDCO", {
      method: "POST",
      headers: { "content-type": "text/csv" },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.errors.base).toEqual(["Your privilege level does not allow this"]);
    const d = new Client(server.url);
    await d.signIn("despatcher@example.com");
    expect((await d.json("/api/zones/export", { json: { carrier_code: "HANDCO" } })).status).toBe(403);
    expect((await c.json<{ errors: Record<string, string[]> }>("/api/zones/export", { json: {} })).body.errors.carrier_code).toEqual(["Carrier is required"]);
  });
});

describe("rate card import, export and delete", () => {
  const laneCount = async () => Number(((await server.db.select({ n: count() }).from(rateLanes).where(eq(rateLanes.carrierId, carrierId))) as [{ n: number }])[0].n);
  const header = "carrier_code,service_code,rate_code,from_zone,to_zone,basic,per_kg,per_item,minimum,transit_days,cubic_factor,effective_from";

  const post = (c: Client, csv: string, filename = "hand.csv") =>
    fetch(`${server.url}/api/rate_editor/import?filename=${filename}`, { method: "POST", headers: { cookie: c.cookie, "content-type": "text/csv" }, body: csv }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as { created: number; updated: number; errors: Record<string, string[]> },
    }));

  it("refuses a malformed file whole and reports every bad line", async () => {
    const c = new Client(server.url);
    await c.signIn("admin@example.com");
    const before = await laneCount();
    const missing = await post(c, "carrier_code,service_code\nHANDCO,ROAD");
    expect(missing.status).toBe(422);
    expect(missing.body.errors.file![0]).toMatch(/^Missing columns: rate_code, from_zone, to_zone, basic/);
    const bad = await post(
      c,
      [
        header,
        "HANDCO,ROAD,R1,MEL,ASP,31,1,0,40,4,250,01/01/2027", // good
        "HANDCO,ROAD,R1,MEL,BNE,ten,0.5,0,15,2,250,2027-01-01", // bad number
        "HANDCO,ROAD,R1,MEL,PERTH,10,0.5,0,15,2,250,2027-01-01", // unknown zone
        "HANDCO,NOPE,R1,MEL,BNE,10,0.5,0,15,2,250,2027-01-01", // unknown service
        "HANDCO,ROAD,R1,MEL,BNE,10,0.5,0,15,2,250,31/02/2027", // impossible date
        "HANDCO,ROAD,R1,MEL,BNE,10,0.5,0,15,2,250,31/12/9999", // a date no card runs from
      ].join("\n"),
    );
    expect(bad.status).toBe(422);
    expect(bad.body.errors.file).toEqual(["Nothing was imported: 5 line(s) have errors."]);
    expect(bad.body.errors["line 3"]).toEqual(["basic must be a number of at most 4 decimals, 0 or more"]);
    expect(bad.body.errors["line 4"]).toEqual(["Unknown zone PERTH for HANDCO"]);
    expect(bad.body.errors["line 5"]).toEqual(["Unknown service NOPE for HANDCO"]);
    expect(bad.body.errors["line 6"]).toEqual(["effective_from must be a date (DD/MM/YYYY or YYYY-MM-DD)"]);
    expect(bad.body.errors["line 7"]).toEqual(["effective_from must be in the years 2000 to 2100"]);
    expect(await laneCount()).toBe(before); // the good line was not applied either
  });

  it("refuses a fuel levy from a date outside the years 2000 to 2100", async () => {
    await expect(saveFuelLevy(server.db, { carrier_code: "HANDCO", percentage: "5", effective_from: "9999-01-01" })).rejects.toThrow("Effective from must be in the years 2000 to 2100");
    expect((await saveFuelLevy(server.db, { carrier_code: "HANDCO", percentage: "5", effective_from: "2100-01-01" })).effective_from).toBe("2100-01-01");
  });

  it("imports a good file, replaces on re-import, exports in the same template and deletes by file", async () => {
    const c = new Client(server.url);
    await c.signIn("admin@example.com");
    const before = await laneCount();
    const csv = [header, "HANDCO,ROAD,R1,MEL,ASP,31,1,0,40,4,250,01/01/2027", "HANDCO,ROAD,R1,ASP,MEL,=1+2,1,0,40,4,250,2027-01-01"].join("\n");
    const rejected = await post(c, csv);
    expect(rejected.status).toBe(422); // a formula is not a number
    const good = [header, "HANDCO,ROAD,R1,MEL,ASP,31,1,0,40,4,250,01/01/2027", "HANDCO,ROAD,R1,ASP,MEL,29.5,1,0,40,4,250,2027-01-01"].join("\n");
    const first = await post(c, good, "hand-2027.csv");
    expect(first.body).toMatchObject({ created: 2, updated: 0 });
    const again = await post(c, good, "hand-2027.csv");
    expect(again.body).toMatchObject({ created: 0, updated: 2 });
    expect(await laneCount()).toBe(before + 2);

    const exported = await c.request("/api/rate_editor/download", { json: { filename: "hand-2027.csv" } });
    expect(await exported.text()).toBe(
      `${header},som\nHANDCO,ROAD,R1,ASP,MEL,29.5,1,0,40,4,250,2027-01-01,metric\nHANDCO,ROAD,R1,MEL,ASP,31,1,0,40,4,250,2027-01-01,metric\n`,
    );
    const deleted = await c.json<{ deleted: number }>("/api/rate_editor/delete?filename=hand-2027.csv", { method: "POST", json: {} });
    expect(deleted.body.deleted).toBe(2);
    expect(await laneCount()).toBe(before);
  });

  it("is for staff only", async () => {
    const d = new Client(server.url);
    await d.signIn("despatcher@example.com");
    expect((await post(d, header)).status).toBe(403);
    expect((await d.json("/api/rate_editor/export", { json: {} })).status).toBe(403);
  });
});
