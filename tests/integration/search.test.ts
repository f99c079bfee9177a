import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addresses, consignmentChanges, consignments, services, sites, users, userSites } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { NO_CARRIER, RANGE_REVERSED, RANGE_TOO_WIDE, SEARCH_LIMIT } from "../../app/modules/search/search";
import { Client, startTestServer, type TestServer } from "../support/server";

/**
 * Consignment search (issue 15 items 2 and 3; spec 1 sections 3, 5, 9; spec 2 sections 5, 9):
 * GET /api/consignments/search and POST /api/consignments/advanced_search, with their scoping
 * by customer and by a despatcher's sites, the date range rules and messages, and the /advanced
 * screen without JavaScript.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

let server: TestServer;
let demo: Awaited<ReturnType<typeof seedDemo>>;
const clients = {} as Record<"superAdmin" | "admin" | "despatcher" | "tester", Client>;
let ids = {} as { road: number; parcel: number; adminUser: number; despatcherUser: number; testSite: number };

const D = "2026-03-10";

/** A consignment straight into the table, with a receiver address when named. */
async function make(c: Partial<typeof consignments.$inferInsert> & { receiver?: Partial<typeof addresses.$inferInsert> }) {
  const { receiver, ...row } = c;
  const customerId = row.customerId ?? demo.acme.id;
  const [address] = receiver ? await server.db.insert(addresses).values({ customerId, isRecipient: false, name: "Receiver", ...receiver }).returning() : [];
  const [made] = await server.db
    .insert(consignments)
    .values({ customerId, siteId: demo.sites.melbourne.id, despatchDate: D, receiverAddressId: address?.id, partyName: receiver?.name ?? null, ...row })
    .returning();
  return made!;
}

const search = (q: string, client = clients.despatcher) => client.json<Json>(`/api/consignments/search?query=${encodeURIComponent(q)}`);
const numbers = (body: Json) => (body.consignments as Json[]).map((c) => c.consignment_number);
const advanced = (query: Json, client = clients.despatcher) => client.json<Json>("/api/consignments/advanced_search", { json: { query } });

beforeAll(async () => {
  server = await startTestServer();
  demo = await seedDemo(server.db);
  for (const [k, email] of Object.entries({ superAdmin: "superadmin@example.com", admin: "admin@example.com", despatcher: "despatcher@example.com", tester: "tester@example.com" })) {
    const client = new Client(server.url);
    expect((await client.signIn(email)).status).toBe(200);
    clients[k as keyof typeof clients] = client;
  }
  const svc = async (code: string) => (await server.db.select().from(services).where(eq(services.code, code)))[0]!.id;
  const user = async (email: string) => (await server.db.select().from(users).where(eq(users.email, email)))[0]!.id;
  const [tst] = await server.db.select().from(sites).where(eq(sites.code, "TST"));
  // the other customer's despatcher works at its one site
  await server.db.insert(userSites).values({ userId: await user("tester@example.com"), siteId: tst!.id });
  ids = { road: await svc("GEN"), parcel: await svc("PP"), adminUser: await user("admin@example.com"), despatcherUser: await user("despatcher@example.com"), testSite: tst!.id };
}, 120_000);
afterAll(() => server?.close());

describe("GET /api/consignments/search", () => {
  it("finds by the start of the number, the reference or the receiver name, case aside, with the result fields", async () => {
    const c = await make({
      consignmentNumber: "HSQ000001",
      reference: "ORDER-77",
      state: "despatched",
      serviceId: ids.road,
      serviceRate: "12.50",
      itemCount: 3,
      receiver: { name: "Harbour Supplies", code: "HS-1", addressLine1: "1 Quay St", locality: "SYDNEY", postcode: "2000", region: "NSW" },
    });
    for (const q of ["hsq0", "HSQ000001", "order-7", "ORDER", "harb", "HARBOUR sup"]) expect(numbers((await search(q)).body), q).toEqual(["HSQ000001"]);
    // the middle of a field is not its start
    expect(numbers((await search("000001")).body)).toEqual([]);
    expect(numbers((await search("bour")).body)).toEqual([]);
    const { status, body } = await search("hsq");
    expect(status).toBe(200);
    expect(body.consignments[0]).toEqual({
      id: c.id,
      consignment_number: "HSQ000001",
      reference: "ORDER-77",
      receiver_reference: "HS-1",
      receiver_address: { name: "Harbour Supplies", address_line_1: "1 Quay St", locality: "SYDNEY", postcode: "2000", region: "NSW", country: "AUSTRALIA" },
      state: "despatched",
      carrier_name: "Northline",
      despatch_date: D,
      total_quantity: 3,
      service_name: "General Road",
      service_rate: 12.5,
      return_type: null,
      active: true,
      url: `/consignment/${c.id}`,
    });
  });

  it("shows Pending without a number and 'no carrier assigned' without a service; returns open on their screen", async () => {
    const c = await make({ reference: "PENDQ-1", returnType: "return" });
    const [r] = (await search("pendq")).body.consignments as Json[];
    expect(r).toMatchObject({ id: c.id, consignment_number: "Pending", carrier_name: NO_CARRIER, service_name: null, service_rate: null, url: `/return/${c.id}` });
    const t = await make({ reference: "PENDQ-2", returnType: "third_party" });
    expect(((await search("pendq-2")).body.consignments as Json[])[0]).toMatchObject({ id: t.id, url: `/thirdparty/${t.id}` });
  });

  it("answers at most 10, numbers first, and nothing under 3 characters", async () => {
    for (let i = 0; i < 12; i++) await make({ consignmentNumber: `CAPQ${String(i).padStart(3, "0")}` });
    await make({ reference: "CAPQ-REF" });
    const { body } = await search("capq");
    expect(body.consignments).toHaveLength(SEARCH_LIMIT);
    expect(numbers(body)).toEqual(Array.from({ length: 10 }, (_, i) => `CAPQ${String(i).padStart(3, "0")}`));
    expect((await search("ca")).body).toEqual({ consignments: [] });
    expect((await search("  ca  ")).body).toEqual({ consignments: [] });
    expect((await search("x".repeat(101))).status).toBe(422);
  });

  it("takes % and _ in a term literally", async () => {
    await make({ reference: "WILD%1" });
    await make({ reference: "WILDX1" });
    await make({ reference: "WILD_2" });
    expect(((await search("wild%")).body.consignments as Json[]).map((c) => c.reference)).toEqual(["WILD%1"]);
    expect(((await search("wild_")).body.consignments as Json[]).map((c) => c.reference)).toEqual(["WILD_2"]);
    // in byte order of the lower-cased field (text_pattern_ops)
    expect(((await search("wil")).body.consignments as Json[]).map((c) => c.reference)).toEqual(["WILD%1", "WILD_2", "WILDX1"]);
    expect((await search("'; drop table consignments; --")).status).toBe(200);
  });

  it("is scoped to the customer and to a despatcher's sites; quotes are left out, inactive ones shown without a link", async () => {
    await make({ consignmentNumber: "SCPQ-MEL" });
    await make({ consignmentNumber: "SCPQ-LAX", siteId: demo.sites.losAngeles.id });
    await make({ consignmentNumber: "SCPQ-OTHER", customerId: demo.testCustomer.id, siteId: ids.testSite });
    await make({ consignmentNumber: "SCPQ-QUOTE", isQuote: true, state: "quote" });
    const deleted = await make({ consignmentNumber: "SCPQ-ZDEL", state: "deleted", active: false });
    // the despatcher works at Melbourne and Sydney
    expect(numbers((await search("scpq")).body)).toEqual(["SCPQ-MEL", "SCPQ-ZDEL"]);
    expect(numbers((await search("scpq", clients.admin)).body)).toEqual(["SCPQ-LAX", "SCPQ-MEL", "SCPQ-ZDEL"]);
    expect(numbers((await search("scpq", clients.tester)).body)).toEqual(["SCPQ-OTHER"]);
    expect(((await search("scpq-zdel")).body.consignments as Json[])[0]).toMatchObject({ id: deleted.id, state: "deleted", active: false, url: null });
  });

  it("needs a session", async () => {
    expect((await new Client(server.url).json("/api/consignments/search?query=abc")).status).toBe(401);
  });
});

describe("POST /api/consignments/advanced_search", () => {
  it("requires both dates and a range under 2 months, from not after to", async () => {
    const missing = await advanced({});
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors).sort()).toEqual(["from_date", "to_date"]);
    expect((await advanced({ from_date: "2026-02-30", to_date: "2026-03-01" })).body.errors.from_date).toEqual(["From date must be a date (YYYY-MM-DD)"]);
    // exactly 2 months is not less than 2 months; a day under is
    const wide = await advanced({ from_date: "2026-01-15", to_date: "2026-03-15" });
    expect(wide.status).toBe(422);
    expect(wide.body.errors).toEqual({ to_date: [RANGE_TOO_WIDE] });
    expect((await advanced({ from_date: "2026-01-15", to_date: "2026-03-14" })).status).toBe(200);
    // month ends clamp: 31 December + 2 months is 28 February
    expect((await advanced({ from_date: "2025-12-31", to_date: "2026-02-27" })).status).toBe(200);
    expect((await advanced({ from_date: "2025-12-31", to_date: "2026-02-28" })).body.errors).toEqual({ to_date: [RANGE_TOO_WIDE] });
    const reversed = await advanced({ from_date: "2026-03-02", to_date: "2026-03-01" });
    expect(reversed.status).toBe(422);
    expect(reversed.body.errors).toEqual({ from_date: [RANGE_REVERSED] });
    expect((await advanced({ from_date: D, to_date: D })).status).toBe(200);
    expect((await clients.despatcher.json("/api/consignments/advanced_search", { json: { query: "x" } })).status).toBe(422);
    expect((await clients.despatcher.json("/api/consignments/advanced_search")).status).toBe(405);
  });

  it("defaults to normal despatch type and active consignments, within the dates", async () => {
    const normal = await make({ reference: "DEF-N", despatchDate: "2026-04-10" });
    const ret = await make({ reference: "DEF-R", returnType: "return", despatchDate: "2026-04-10" });
    const third = await make({ reference: "DEF-T", returnType: "third_party", despatchDate: "2026-04-10" });
    const inactive = await make({ reference: "DEF-I", state: "deleted", active: false, despatchDate: "2026-04-10" });
    await make({ reference: "DEF-OUT", despatchDate: "2026-04-11" });
    await make({ reference: "DEF-Q", isQuote: true, state: "quote", despatchDate: "2026-04-10" });
    const day = { from_date: "2026-04-10", to_date: "2026-04-10", reference: "def-" };
    const got = async (q: Json) => ((await advanced({ ...day, ...q })).body.consignments as Json[]).map((c) => c.id);
    expect(await got({})).toEqual([normal.id]);
    expect(await got({ despatch_type: "return" })).toEqual([ret.id]);
    expect(await got({ despatch_type: "third_party" })).toEqual([third.id]);
    expect(await got({ active: false })).toEqual([inactive.id]);
    const [row] = (await advanced({ ...day, active: "false" })).body.consignments as Json[];
    expect(row).toMatchObject({ id: inactive.id, url: null, state: "deleted" });
    expect((await advanced({ ...day, despatch_type: "outbound" })).status).toBe(422);
  });

  it("filters by each criterion", async () => {
    const day = { from_date: "2026-05-05", to_date: "2026-05-06" };
    const a = await make({ despatchDate: "2026-05-05", consignmentNumber: "FLT-A-001", reference: "PO-ALPHA", customReference: "CR-RED", state: "despatched", serviceId: ids.road, receiver: { name: "Alpha Foods", locality: "GEELONG", postcode: "3220" } });
    const b = await make({ despatchDate: "2026-05-06", consignmentNumber: "FLT-B-002", reference: "PO-BETA", customReference: "CR-BLUE", state: "open", serviceId: ids.parcel, siteId: demo.sites.sydney.id, receiver: { name: "Beta Hardware", locality: "PARRAMATTA", postcode: "2150" } });
    const got = async (q: Json, client = clients.despatcher) => ((await advanced({ ...day, ...q }, client)).body.consignments as Json[]).map((c) => c.id).sort();
    expect(await got({})).toEqual([a.id, b.id].sort());
    expect(await got({ state: "open" })).toEqual([b.id]);
    expect(await got({ site: "syd" })).toEqual([b.id]);
    expect(await got({ carrier: "northline" })).toEqual([a.id]);
    expect(await got({ service: "PP" })).toEqual([b.id]);
    expect(await got({ reference: "alpha" })).toEqual([a.id]);
    expect(await got({ custom_reference: "blue" })).toEqual([b.id]);
    expect(await got({ receiver_name: "HARDWARE" })).toEqual([b.id]);
    expect(await got({ postcode: "32" })).toEqual([a.id]);
    expect(await got({ postcode: "22" })).toEqual([]);
    expect(await got({ locality: "geel" })).toEqual([a.id]);
    expect(await got({ consignment_number: "b-00" })).toEqual([b.id]);
    expect(await got({ reference: "%" })).toEqual([]);
    // a site that is not the user's is named as the error
    const lax = await advanced({ ...day, site: "LAX" });
    expect(lax.status).toBe(422);
    expect(lax.body.errors.site).toEqual(["Site is not one of yours"]);
    expect((await advanced({ ...day, state: "quote" })).status).toBe(422);
  });

  it("is scoped to the customer and a despatcher's sites", async () => {
    const day = { from_date: "2026-06-01", to_date: "2026-06-01" };
    const mel = await make({ despatchDate: "2026-06-01", reference: "SCOPE-MEL" });
    const lax = await make({ despatchDate: "2026-06-01", reference: "SCOPE-LAX", siteId: demo.sites.losAngeles.id });
    const other = await make({ despatchDate: "2026-06-01", reference: "SCOPE-OTHER", customerId: demo.testCustomer.id, siteId: ids.testSite });
    const got = async (client: Client) => ((await advanced(day, client)).body.consignments as Json[]).map((c) => c.id).sort();
    expect(await got(clients.despatcher)).toEqual([mel.id]);
    expect(await got(clients.admin)).toEqual([mel.id, lax.id].sort());
    expect(await got(clients.tester)).toEqual([other.id]);
  });

  it("sorts by the column asked for, each way", async () => {
    const day = { from_date: "2026-07-01", to_date: "2026-07-03" };
    const x = await make({ despatchDate: "2026-07-01", reference: "s-b", itemCount: 5, receiver: { name: "zulu" } });
    const y = await make({ despatchDate: "2026-07-02", reference: "S-C", itemCount: 1, receiver: { name: "Alpha" } });
    const z = await make({ despatchDate: "2026-07-03", reference: "s-a", itemCount: 3, receiver: { name: "mike" } });
    const order = async (sort: string, dir: string) => ((await advanced({ ...day, sort, dir })).body.consignments as Json[]).map((c) => c.id);
    expect(await order("despatch_date", "desc")).toEqual([z.id, y.id, x.id]);
    expect(await order("reference", "asc")).toEqual([z.id, x.id, y.id]);
    expect(await order("receiver_name", "asc")).toEqual([y.id, z.id, x.id]);
    expect(await order("total_quantity", "desc")).toEqual([x.id, z.id, y.id]);
    expect((await advanced({ ...day })).body.consignments.map((c: Json) => c.id)).toEqual([z.id, y.id, x.id]);
    expect((await advanced({ ...day, sort: "weight" })).status).toBe(422);
  });

  it("offers the Admin filter (changed by staff) to super admins only", async () => {
    const day = { from_date: "2026-08-01", to_date: "2026-08-01" };
    const byStaff = await make({ despatchDate: "2026-08-01", reference: "ADM-STAFF" });
    const byDespatcher = await make({ despatchDate: "2026-08-01", reference: "ADM-DESP" });
    await make({ despatchDate: "2026-08-01", reference: "ADM-NONE" });
    await server.db.insert(consignmentChanges).values([
      { consignmentId: byStaff.id, version: 2, field: "reference", fromValue: "x", toValue: "ADM-STAFF", changedBy: ids.adminUser },
      { consignmentId: byDespatcher.id, version: 2, field: "reference", fromValue: "x", toValue: "ADM-DESP", changedBy: ids.despatcherUser },
    ]);
    const got = async (q: Json, client: Client) => ((await advanced({ ...day, ...q }, client)).body.consignments as Json[]).map((c) => c.id);
    expect((await got({}, clients.superAdmin)).length).toBe(3);
    expect(await got({ admin: true }, clients.superAdmin)).toEqual([byStaff.id]);
    for (const client of [clients.admin, clients.despatcher]) expect((await advanced({ ...day, admin: true }, client)).status).toBe(403);
  });

  it("answers at most 500 rows and says there were more", async () => {
    const rows = Array.from({ length: 501 }, (_, i) => ({ customerId: demo.acme.id, siteId: demo.sites.melbourne.id, despatchDate: "2026-09-01", reference: `CAP-${i}` }));
    await server.db.insert(consignments).values(rows);
    const { body } = await advanced({ from_date: "2026-09-01", to_date: "2026-09-01" });
    expect(body.consignments).toHaveLength(500);
    expect(body.meta).toMatchObject({ limit: 500, truncated: true });
    expect((await advanced({ from_date: "2026-09-01", to_date: "2026-09-01", reference: "cap-50" })).body.meta.truncated).toBe(false);
  });
});

describe("the /advanced screen", () => {
  it("runs the search from its URL, in the site's date format, and shows the range message", async () => {
    await make({ despatchDate: "2026-10-01", consignmentNumber: "SCREEN-1", reference: "SCR-REF" });
    const page = async (qs: string) => (await clients.despatcher.request(`/advanced?${qs}`)).text();
    const found = await page("from_date=01/10/2026&to_date=01/10/2026&reference=scr");
    expect(found).toContain("SCREEN-1");
    const wide = await page("from_date=01/10/2026&to_date=01/12/2026");
    expect(wide).toContain(RANGE_TOO_WIDE);
    expect(wide).not.toContain("SCREEN-1");
    // without criteria it shows the form with today's dates and runs nothing
    expect(await page("")).toContain('name="from_date"');
  });

  it("the script-less header search lists the matches", async () => {
    await make({ consignmentNumber: "NOJSQ-1" });
    const html = await (await clients.despatcher.request("/search?query=nojsq")).text();
    expect(html).toContain("NOJSQ-1");
  });

  it("counts one item as '1 item' and more as 'items' (issue 31 item 8)", async () => {
    await make({ consignmentNumber: "ONEITEM-1", itemCount: 1 });
    await make({ consignmentNumber: "ONEITEM-2", itemCount: 2 });
    const html = await (await clients.despatcher.request("/search?query=oneitem")).text();
    expect(html).toMatch(/ONEITEM-1<\/a>[\s\S]*?· 1 item<\/span>/);
    expect(html).toMatch(/ONEITEM-2<\/a>[\s\S]*?· 2 items<\/span>/);
    expect(html).not.toContain("1 items");
  });
});
