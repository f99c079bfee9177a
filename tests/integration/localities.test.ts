import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localities } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { createAddress, createCustomer, createSite, createUser } from "../../db/seed/factories";
import { nextBusinessDay } from "../../app/modules/calendar/business-days";
import { todayIn } from "../../app/modules/calendar/site-time";
import { loadLocalities, remoteTier } from "../../db/seed/localities";
import { Client, startTestServer, type TestServer } from "../support/server";

let server: TestServer;
let demo: Awaited<ReturnType<typeof seedDemo>>;
let loaded: Awaited<ReturnType<typeof loadLocalities>>;

beforeAll(async () => {
  server = await startTestServer();
  demo = await seedDemo(server.db);
  loaded = await loadLocalities(server.db);
});
afterAll(() => server.close());

async function signedIn(email = "despatcher@example.com") {
  const c = new Client(server.url);
  await c.signIn(email);
  return c;
}
type Place = { locality: string; sublocality: string | null; postcode: string; region: string | null; country: string };
const search = async (c: Client, q: string, country?: string) =>
  (await c.json<{ localities: Place[] }>(`/api/address_selection/search_locality?query=${encodeURIComponent(q)}${country ? `&country=${encodeURIComponent(country)}` : ""}`)).body.localities;

describe("loading localities", () => {
  it("loads every country from real data, with charge zones and remoteness, once", async () => {
    expect(loaded.AUSTRALIA).toBeGreaterThan(15_000);
    expect(loaded["UNITED STATES OF AMERICA"]).toBeGreaterThan(30_000);
    expect(loaded["NEW ZEALAND"]).toBeGreaterThanOrEqual(100);
    const tiers = await server.db
      .select({ tier: localities.remoteTier, n: count() })
      .from(localities)
      .where(eq(localities.country, "AUSTRALIA"))
      .groupBy(localities.remoteTier);
    expect(tiers.map((t) => t.tier).sort()).toEqual([0, 1, 2, 3, 4]);
    const [{ zoned }] = (await server.db
      .select({ zoned: count() })
      .from(localities)
      .where(sql`${localities.country} = 'AUSTRALIA' and ${localities.chargeZone} is not null`)) as [{ zoned: number }];
    expect(Number(zoned)).toBeGreaterThan(15_000);
    expect(await loadLocalities(server.db)).toEqual({});
    // NZ places carry a sublocality and no region
    const [nz] = await server.db.select().from(localities).where(eq(localities.country, "NEW ZEALAND")).limit(1);
    expect(nz!.region).toBeNull();
    expect(nz!.sublocality).toBeTruthy();
  });

  it("maps remoteness codes to tiers 0..4", () => {
    expect(remoteTier("10", "1")).toBe(0);
    expect(remoteTier("12", "3")).toBe(2);
    expect(remoteTier("14", "5")).toBe(4);
    expect(remoteTier("", "4")).toBe(3);
    expect(remoteTier("", "")).toBe(0);
  });
});

describe("GET /api/address_selection/search_locality", () => {
  it("suggests up to 6 places by name prefix, exact matches first", async () => {
    const c = await signedIn();
    const melbourne = await search(c, "melbourne");
    expect(melbourne.length).toBeLessThanOrEqual(6);
    expect(melbourne[0]).toMatchObject({ locality: "MELBOURNE", region: "VIC", country: "AUSTRALIA" });
    expect(melbourne.every((p) => p.locality.startsWith("MELBOURNE"))).toBe(true);
    const dand = await search(c, "Dandenong S");
    expect(dand.map((p) => `${p.locality} ${p.postcode}`)).toContain("DANDENONG SOUTH 3175");
  });

  it("searches postcodes by digits", async () => {
    const c = await signedIn();
    const places = await search(c, "3175");
    expect(places.length).toBeGreaterThan(0);
    expect(places.every((p) => p.postcode === "3175")).toBe(true);
    const prefix = await search(c, "300");
    expect(prefix.every((p) => p.postcode.startsWith("300"))).toBe(true);
    expect(prefix).toHaveLength(6);
  });

  it("answers nothing under 3 characters, and takes % and _ literally", async () => {
    const c = await signedIn();
    expect(await search(c, "me")).toEqual([]);
    expect(await search(c, "%%%")).toEqual([]);
    expect(await search(c, "___")).toEqual([]);
  });

  it("searches other countries: US ZIP codes and NZ suburbs", async () => {
    const c = await signedIn();
    expect((await search(c, "90021", "UNITED STATES OF AMERICA"))[0]).toMatchObject({ locality: "LOS ANGELES", region: "CA" });
    expect((await search(c, "ponsonby", "NEW ZEALAND"))[0]).toMatchObject({ locality: "AUCKLAND", sublocality: "PONSONBY", region: null });
  });

  it("validates the country and needs a session", async () => {
    const c = await signedIn();
    expect((await c.json("/api/address_selection/search_locality?query=abc&country=MARS")).status).toBe(422);
    expect((await fetch(`${server.url}/api/address_selection/search_locality?query=abc`)).status).toBe(401);
  });
});

describe("GET /api/localities and /api/address_selection", () => {
  it("lists the places of a postcode", async () => {
    const c = await signedIn();
    const { body } = await c.json<{ localities: Place[] }>("/api/localities?query=4102&type=postcode");
    expect(body.localities.map((l) => l.locality)).toContain("WOOLLOONGABBA");
  });

  it("offers the working customer's recipients only", async () => {
    const other = await createCustomer(server.db, { code: "ADDROTHER" });
    await createAddress(server.db, other.id, { name: "Brisbane Rival" });
    await createAddress(server.db, demo.acme.id, { name: "Brisbane Depot" });
    const c = await signedIn();
    const { body } = await c.json<{ addresses: Array<{ name: string }> }>("/api/address_selection?query=brisbane&type=recipient");
    expect(body.addresses.map((a) => a.name)).toEqual(["Brisbane Depot", "Brisbane Hardware"]);
  });

  it("offers the user's own sites, and postcode places as addresses", async () => {
    const c = await signedIn();
    const sites = await c.json<{ addresses: Array<{ code: string }> }>("/api/address_selection?query=&type=site");
    expect(sites.body.addresses.map((s) => s.code).sort()).toEqual(["MEL", "SYD"]); // not the US site
    const places = await c.json<{ addresses: Array<{ locality: string }> }>("/api/address_selection?query=2164&type=postcode");
    expect(places.body.addresses.map((a) => a.locality)).toContain("WETHERILL PARK");
    expect((await c.json("/api/address_selection?query=abc&type=planet")).status).toBe(422);
  });
});

describe("GET /api/next_business_day", () => {
  it("answers the next business day of the state, and validates its input", async () => {
    const c = await signedIn();
    expect((await c.json("/api/next_business_day?country=AUSTRALIA&region=VIC&date=2026-11-02")).body).toEqual({ date: "2026-11-04" });
    expect((await c.json("/api/next_business_day?country=AUSTRALIA&region=NSW&date=2026-11-02")).body).toEqual({ date: "2026-11-03" });
    expect((await c.json("/api/next_business_day?country=NEW%20ZEALAND&date=2026-02-05")).body).toEqual({ date: "2026-02-09" });
    const bad = await c.json<{ errors: Record<string, string[]> }>("/api/next_business_day?country=AUSTRALIA&region=XX&date=2026-13-40");
    expect(bad.status).toBe(422);
    expect(bad.body.errors.date).toEqual(["Date must be YYYY-MM-DD"]);
    expect(bad.body.errors.region).toEqual(["Region must be one of VIC, NSW, QLD, NT, WA, SA, TAS, ACT"]);
    const badRegion = await c.json<{ errors: Record<string, string[]> }>("/api/next_business_day?country=AUSTRALIA&region=XYZ&date=2026-11-02");
    expect(badRegion.body.errors.region).toEqual(["Region must be one of VIC, NSW, QLD, NT, WA, SA, TAS, ACT"]);
  });

  it("counts from the caller's today at their default site when no date is given, not UTC's", async () => {
    // a day apart or more at every hour (UTC+14 and UTC-11), so at least one is not UTC's today;
    // (a UTC default would still pass when both todays lead to the same Monday)
    for (const timezone of ["Pacific/Kiritimati", "Pacific/Pago_Pago"]) {
      const customer = await createCustomer(server.db);
      const site = await createSite(server.db, customer.id, { timezone });
      const user = await createUser(server.db, customer.id, { siteIds: [site.id], defaultSiteId: site.id });
      const c = await signedIn(user.email);
      const before = nextBusinessDay(todayIn(timezone), "UNITED STATES OF AMERICA");
      const answer = (await c.json<{ date: string }>("/api/next_business_day?country=UNITED%20STATES%20OF%20AMERICA")).body.date;
      // the zone's midnight may fall during the request
      expect([before, nextBusinessDay(todayIn(timezone), "UNITED STATES OF AMERICA")]).toContain(answer);
    }
  });
});

describe("POST /api/localities/import", () => {
  it("adds and updates good lines and reports every skipped line by number", async () => {
    const admin = await signedIn("admin@example.com");
    const csv = [
      "country,locality,sublocality,postcode,region,latitude,longitude",
      "NEW ZEALAND,NELSON,THE WOOD,7010,,-41.27,173.29",
      "AUSTRALIA,DANDENONG SOUTH,,3175,VIC,-38.02,145.24",
      "MARS,OLYMPUS,,1234,,,",
      "AUSTRALIA,,,3000,VIC,,",
      "AUSTRALIA,NOWHERE,,1,VIC,,",
      "AUSTRALIA,FARAWAY,,0872,NT,-123,0",
    ].join("\n");
    const res = await fetch(`${server.url}/api/localities/import`, { method: "POST", headers: { cookie: admin.cookie, "content-type": "text/csv" }, body: csv });
    expect(res.status).toBe(200);
    const report = (await res.json()) as { created: number; updated: number; skipped: Array<{ line: number; errors: string[] }> };
    expect(report.created).toBe(1);
    expect(report.updated).toBe(1);
    expect(report.skipped).toEqual([
      { line: 4, errors: ["country must be one of AUSTRALIA, NEW ZEALAND, UNITED STATES OF AMERICA"] },
      { line: 5, errors: ["locality is required"] },
      { line: 6, errors: ["postcode must be 3 to 10 letters or digits"] },
      { line: 7, errors: ["latitude must be between -90 and 90"] },
    ]);
    const c = await signedIn();
    expect((await search(c, "the wood", "NEW ZEALAND"))[0]).toMatchObject({ locality: "NELSON", sublocality: "THE WOOD", postcode: "7010" });
  });

  it("is for staff only and needs the columns", async () => {
    const d = await signedIn();
    expect((await fetch(`${server.url}/api/localities/import`, { method: "POST", headers: { cookie: d.cookie, "content-type": "text/csv" }, body: "x" })).status).toBe(403);
    const admin = await signedIn("admin@example.com");
    const res = await fetch(`${server.url}/api/localities/import`, { method: "POST", headers: { cookie: admin.cookie, "content-type": "text/csv" }, body: "name,zip\na,1" });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { errors: { file: string[] } }).errors.file).toEqual(["Missing columns: country, locality, postcode"]);
  });
});
