// @engines: PostgreSQL and PGlite in CI, because array_agg answers arrays through either driver.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carrierAccounts, carriers, consignments, customers, itemTypes, manifests, sites, users, userSites } from "../../db/schema";
import { createCarrierAccount } from "../../db/seed/factories";
import { seedDemo } from "../../db/seed/demo";
import { loadLocalities } from "../../db/seed/localities";
import { seedRatingDemo } from "../../db/seed/rating-demo";
import { loadCurrentUser, type CurrentUser } from "../../app/modules/auth/current-user.server";
import { DATE_RANGE_TOO_LARGE, addMonths, resolveDateRange } from "../../app/modules/despatch/manifest-dates";
import { UNKNOWN_SITE, listManifests } from "../../app/modules/despatch/manifests.server";
import type { ManifestRow } from "../../app/modules/despatch/manifest-rows.server";
import { todayIn } from "../../app/modules/calendar/site-time";
import { Client, startTestServer, type TestServer } from "../support/server";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

let server: TestServer;
let despatcher: Client; // Melbourne and Sydney
let superDespatcher: Client; // every Acme site, Los Angeles too
let tester: Client; // another customer
let dana: CurrentUser;
let siteId: Record<"MEL" | "SYD" | "LAX" | "TST", number>;
let carton: number;
let pallet: number;

/** Fixed past days (Melbourne and Sydney are UTC+11 in March): 01:00Z is midday there. */
const DAY = "2025-03-10";
const NEXT_DAY = "2025-03-11";
const at = (iso: string) => new Date(iso);

const sender = {
  MEL: { name: "Melbourne DC", address_line_1: "120 Frankston Dandenong Road", locality: "DANDENONG SOUTH", postcode: "3175", region: "VIC" },
  SYD: { name: "Sydney DC", address_line_1: "45 Victoria Street", locality: "WETHERILL PARK", postcode: "2164", region: "NSW" },
};
const receiver = (name: string) => ({ name, address_line_1: "5 Ipswich Road", locality: "WOOLLOONGABBA", postcode: "4102", region: "QLD" });
const future = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);

/** A consignment made as the screen makes it (so the list columns are real), then despatched onto a manifest in SQL. */
async function consignment(site: "MEL" | "SYD", receiverName: string, lines: "cartons" | "dangerous pallet", reference: string) {
  const items =
    lines === "cartons"
      ? [{ quantity: 2, item_type_id: carton, length: 40, width: 30, height: 30, weight_in_uom: 10 }]
      : [
          {
            quantity: 1,
            item_type_id: pallet,
            length: 120,
            width: 120,
            height: 150,
            weight_in_uom: 300,
            dangerous_goods_items: [{ un_number: "1203", proper_shipping_name: "MOTOR SPIRIT", hazard_class: "3", packing_group: "II", weight_in_uom: 20 }],
          },
        ];
  const res = await despatcher.json<Json>("/api/consignments", {
    json: { site_code: site, reference, despatch_date: future, sender_address: sender[site], receiver_address: receiver(receiverName), items },
  });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

let manifestSeq = 0;
/** A manifest as despatch writes one, on the site's account with the carrier, carrying `ids`. */
async function manifest(site: keyof typeof siteId, carrierCode: string, despatchTime: Date, ids: number[], extra: Partial<typeof manifests.$inferInsert> = {}) {
  const [account] = await server.db
    .select({ id: carrierAccounts.id, customerId: sites.customerId })
    .from(carrierAccounts)
    .innerJoin(carriers, eq(carriers.id, carrierAccounts.carrierId))
    .innerJoin(sites, eq(sites.id, carrierAccounts.siteId))
    .where(and(eq(carrierAccounts.siteId, siteId[site]), eq(carriers.code, carrierCode)));
  manifestSeq++;
  const [m] = await server.db
    .insert(manifests)
    .values({ customerId: account!.customerId, siteId: siteId[site], carrierAccountId: account!.id, number: `MT${String(manifestSeq).padStart(5, "0")}`, despatchTime, status: "ready", ...extra })
    .returning();
  for (const [i, id] of ids.entries()) {
    await server.db
      .update(consignments)
      .set({ manifestId: m!.id, state: extra.failedDespatch ? "despatch_failure" : "despatched", consignmentNumber: `${m!.number}-C${i + 1}` })
      .where(eq(consignments.id, id));
  }
  return m!;
}

/** The rendered page, without the data the page carries for its script. */
async function page(client: Client, query: string) {
  const res = await client.request(`/manifests${query}`);
  expect(res.status).toBe(200);
  const html = await res.text();
  return html.split("window.__remixContext")[0]!;
}

const numbers = (groups: { manifests: ManifestRow[] }[]) => groups.flatMap((g) => g.manifests.map((m) => m.number));

let melNorthline: typeof manifests.$inferSelect; // 2 consignments, one with dangerous goods
let melAuspost: typeof manifests.$inferSelect; // failed despatch
let sydNorthline: typeof manifests.$inferSelect;
let laxSimex: typeof manifests.$inferSelect; // a site the despatcher does not have
let nextDay: typeof manifests.$inferSelect; // 20:00Z on DAY is 07:00 on NEXT_DAY in Sydney
let otherCustomer: typeof manifests.$inferSelect;
let today: typeof manifests.$inferSelect;
let c: Record<string, number>;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  await loadLocalities(server.db);
  await seedRatingDemo(server.db);
  despatcher = new Client(server.url);
  await despatcher.signIn("despatcher@example.com");
  superDespatcher = new Client(server.url);
  await superDespatcher.signIn("superdespatcher@example.com");
  tester = new Client(server.url);
  await tester.signIn("tester@example.com");
  const types = await server.db.select().from(itemTypes);
  carton = types.find((t) => t.name === "Carton")!.id;
  pallet = types.find((t) => t.name === "Pallet")!.id;
  const siteRows = await server.db.select({ id: sites.id, code: sites.code }).from(sites);
  siteId = Object.fromEntries(siteRows.map((s) => [s.code, s.id])) as typeof siteId;
  const [dana_] = await server.db.select({ id: users.id }).from(users).where(eq(users.email, "despatcher@example.com"));
  dana = (await loadCurrentUser(server.db, dana_!.id))!;

  c = {
    brisbane: await consignment("MEL", "Brisbane Hardware", "cartons", "PO-1"),
    fuel: await consignment("MEL", "Fuel Depot", "dangerous pallet", "PO-2"),
    failed: await consignment("MEL", "Hobart Marine", "cartons", "PO-3"),
    sydney: await consignment("SYD", "Adelaide Office Co", "cartons", "PO-4"),
    early: await consignment("SYD", "Perth Outdoor", "cartons", "PO-5"),
    now: await consignment("MEL", "Today Traders", "cartons", "PO-6"),
  };
  melNorthline = await manifest("MEL", "NORTHLINE", at(`${DAY}T01:00:00Z`), [c.brisbane!, c.fuel!]);
  melAuspost = await manifest("MEL", "auspost", at(`${DAY}T02:00:00Z`), [c.failed!], { failedDespatch: true, failureReason: "Carrier refused the manifest", status: "failed" });
  sydNorthline = await manifest("SYD", "NORTHLINE", at(`${DAY}T03:00:00Z`), [c.sydney!], { status: "pending" });
  nextDay = await manifest("SYD", "NORTHLINE", at(`${DAY}T20:00:00Z`), [c.early!]);
  today = await manifest("MEL", "NORTHLINE", new Date(), [c.now!]);
  laxSimex = await manifest("LAX", "SIMEX", at(`${DAY}T20:00:00Z`), []); // 13:00 on DAY in Los Angeles

  // another customer's site, account and manifest on the same day
  const [testco] = await server.db.select({ id: customers.id }).from(customers).where(eq(customers.code, "TESTCO"));
  const [northline] = await server.db.select({ id: carriers.id }).from(carriers).where(eq(carriers.code, "NORTHLINE"));
  const account = await createCarrierAccount(server.db, siteId.TST, northline!.id, { consignmentRangeStart: 1, consignmentRangeEnd: 9, manifestRangeStart: 1, manifestRangeEnd: 9 });
  // the other customer's despatcher works at its one site
  const [terry] = await server.db.select({ id: users.id }).from(users).where(eq(users.email, "tester@example.com"));
  await server.db.insert(userSites).values({ userId: terry!.id, siteId: siteId.TST });
  [otherCustomer] = await server.db
    .insert(manifests)
    .values({ customerId: testco!.id, siteId: siteId.TST, carrierAccountId: account.id, number: "OTHER-CUST-1", despatchTime: at(`${DAY}T01:30:00Z`), status: "ready" })
    .returning() as [typeof manifests.$inferSelect];
}, 180_000);
afterAll(() => server.close());

describe("the date rule (spec 1 section 5)", () => {
  it("blank dates are today; from after to moves to; more than 2 months apart is refused", () => {
    expect(resolveDateRange({}, "2025-03-10")).toEqual({ from: "2025-03-10", to: "2025-03-10", errors: {} });
    expect(resolveDateRange({ from: "2025-03-12", to: "2025-03-10" }, "2025-03-10")).toEqual({ from: "2025-03-12", to: "2025-03-12", errors: {} });
    expect(resolveDateRange({ from: "2025-01-10", to: "2025-03-10" }, DAY).errors).toEqual({});
    expect(resolveDateRange({ from: "2025-01-10", to: "2025-03-11" }, DAY).errors).toEqual({ to: [DATE_RANGE_TOO_LARGE] });
    expect(resolveDateRange({ from: "2025-02-30", to: "x" }, DAY).errors).toEqual({ from: ["Enter a date as YYYY-MM-DD"], to: ["Enter a date as YYYY-MM-DD"] });
    expect(addMonths("2024-12-31", 2)).toBe("2025-02-28");
    expect(todayIn("Australia/Melbourne", at("2025-03-10T14:00:00Z"))).toBe("2025-03-11");
    expect(todayIn("America/Los_Angeles", at("2025-03-10T14:00:00Z"))).toBe("2025-03-10");
  });
});

describe("listManifests", () => {
  it("groups the day's manifests per carrier, with totals from their consignments", async () => {
    const list = await listManifests(server.db, dana, { from: DAY, to: DAY });
    expect(list.errors).toEqual({});
    expect(list.groups.map((g) => g.carrier_name)).toEqual(["Australia Post", "Northline"]);
    // newest first within a carrier
    expect(numbers(list.groups)).toEqual([melAuspost.number, sydNorthline.number, melNorthline.number]);
    const m = list.groups[1]!.manifests.find((x) => x.id === melNorthline.id)!;
    // 2 cartons of 10 kg and 0.072 m3; a 300 kg pallet of 2.16 m3 with dangerous goods
    expect(m).toMatchObject({
      number: melNorthline.number,
      carrier_name: "Northline",
      despatch_time: `${DAY}T01:00:00.000Z`,
      despatch_time_local: "10/03/2025 12:00",
      total_consignments: 2,
      total_items: 3,
      total_weight: 310,
      total_volume: 2.232,
      hazardous_goods: 1,
      failed_despatch: false,
      print_connote: false,
      print_dangerous_goods_documents: false,
      consignments_ids: [c.brisbane, c.fuel],
      som: "metric",
    });
    expect(list.groups[0]!.manifests[0]).toMatchObject({ failed_despatch: true, total_consignments: 1, total_items: 2, hazardous_goods: 0 });
  });

  it("filters by one of the user's sites; another site is an error, not someone else's list", async () => {
    const syd = await listManifests(server.db, dana, { site: String(siteId.SYD), from: DAY, to: NEXT_DAY });
    expect(numbers(syd.groups)).toEqual([nextDay.number, sydNorthline.number]);
    const lax = await listManifests(server.db, dana, { site: String(siteId.LAX), from: DAY, to: DAY });
    expect(lax.errors).toEqual({ site: [UNKNOWN_SITE] });
    expect(lax.groups).toEqual([]);
  });

  it("a manifest's day is its site's local date", async () => {
    expect(numbers((await listManifests(server.db, dana, { from: NEXT_DAY, to: NEXT_DAY })).groups)).toEqual([nextDay.number]);
    expect(numbers((await listManifests(server.db, dana, { from: DAY, to: DAY })).groups)).not.toContain(nextDay.number);
  });

  it("defaults to today", async () => {
    const list = await listManifests(server.db, dana, {});
    expect(list.filters.from).toBe(todayIn("Australia/Melbourne"));
    expect(numbers(list.groups)).toEqual([today.number]);
  });

  it("shows the consignments of the open manifests only", async () => {
    const list = await listManifests(server.db, dana, { from: DAY, to: DAY, open: `${melNorthline.id},${otherCustomer.id},abc` });
    expect(list.filters.open).toEqual([melNorthline.id, otherCustomer.id]);
    expect(Object.keys(list.consignments)).toEqual([String(melNorthline.id)]);
    expect(list.consignments[melNorthline.id]).toEqual([
      expect.objectContaining({ id: c.brisbane, consignment_number: `${melNorthline.number}-C1`, party_name: "Brisbane Hardware", reference: "PO-1", item_count: 2, total_weight: 10, state: "despatched", url: `/consignment/${c.brisbane}` }),
      expect.objectContaining({ id: c.fuel, party_name: "Fuel Depot", item_count: 1, total_weight: 300, hazardous: true }),
    ]);
  });
});

describe("tenancy", () => {
  it("another customer's manifests, and sites the user lacks, never appear", async () => {
    const list = await listManifests(server.db, dana, { from: DAY, to: NEXT_DAY });
    expect(numbers(list.groups)).not.toContain(otherCustomer.number);
    expect(numbers(list.groups)).not.toContain(laxSimex.number);
    const html = await page(despatcher, `?from=${DAY}&to=${NEXT_DAY}&open=${otherCustomer.id},${laxSimex.id}`);
    expect(html).not.toContain(otherCustomer.number);
    expect(html).not.toContain(laxSimex.number);

    // the super despatcher has Los Angeles (13:00 there on DAY); the other customer sees only theirs
    expect(await page(superDespatcher, `?from=${DAY}&to=${DAY}`)).toContain(laxSimex.number);
    const theirs = await tester.json<Json>(`/api/manifests?fromDate=${DAY}&toDate=${DAY}`);
    expect(theirs.body.carriers).toEqual([{ carrier_name: "Northline", carrier_code: "NORTHLINE", count: 1 }]);
    expect((await tester.json(`/api/manifests?ids=${melNorthline.id}`)).status).toBe(404);
    expect((await tester.json(`/api/manifests/consignments?ids=${melNorthline.id}`)).status).toBe(404);
    expect((await tester.json(`/api/manifests/${melNorthline.id}/ready_for_print`)).status).toBe(404);
    expect((await despatcher.json(`/api/manifests?ids=${melNorthline.id},${otherCustomer.id}`)).status).toBe(404);
    expect((await despatcher.json(`/api/manifests/${laxSimex.id}/ready_for_print`)).status).toBe(404);
  });
});

describe("the /manifests screen", () => {
  it("shows groups, totals, the failed marker and an expanded manifest's consignments", async () => {
    const html = await page(despatcher, `?from=${DAY}&to=${DAY}&open=${melNorthline.id}`);
    expect(html).toContain("Australia Post");
    expect(html).toMatch(new RegExp(`Show consignments of ${melAuspost.number}`));
    expect(html).toMatch(new RegExp(`Hide consignments of ${melNorthline.number}`));
    expect(html).toContain("310 kg");
    expect(html).toContain("2.232 m³");
    expect(html).toContain("10/03/2025 12:00");
    expect(html.match(/data-testid="failed-despatch"/g)).toHaveLength(1);
    expect(html).toContain("Carrier refused the manifest");
    expect(html).toContain(`Consignments of ${melNorthline.number}`);
    expect(html).toContain(`href="/consignment/${c.brisbane}"`);
    expect(html).toContain("Fuel Depot");
    // closing it again: the link drops it from open
    expect(html).toContain(`href="/manifests?from=${DAY}&amp;to=${DAY}"`);
    expect(html).not.toContain("Adelaide Office Co"); // Sydney's manifest is not open
  });

  it("says when there is nothing, and shows the date errors by the fields", async () => {
    expect(await page(despatcher, "?from=2024-01-01&to=2024-01-02")).toContain("There are no manifests to display.");
    const tooWide = await page(despatcher, "?from=2025-01-01&to=2025-03-02");
    expect(tooWide).toContain(DATE_RANGE_TOO_LARGE);
    expect(tooWide).toMatch(/id="date-error"/);
    expect(tooWide).not.toContain("There are no manifests to display.");
    expect(await page(despatcher, `?site=${siteId.LAX}&from=${DAY}&to=${DAY}`)).toContain(UNKNOWN_SITE);
  });

  it("from after to moves the other date, in the address too", async () => {
    const res = await despatcher.request(`/manifests?from=${NEXT_DAY}&to=${DAY}`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/manifests?from=${NEXT_DAY}&to=${NEXT_DAY}`);
  });

  it("prints without a script: the selection goes to the user's printer's document", async () => {
    const manifestsRes = await despatcher.request(`/manifests?from=${DAY}&to=${DAY}&print=manifests&m=${melNorthline.id}&m=${sydNorthline.id}`);
    expect(manifestsRes.status).toBe(302);
    expect(manifestsRes.headers.get("location")).toBe(`/print/despatch_manifest_report?ids=${melNorthline.id},${sydNorthline.id}`);
    const notes = await despatcher.request(`/manifests?from=${DAY}&to=${DAY}&print=connotes&m=${melNorthline.id}`);
    expect(notes.headers.get("location")).toBe(`/print/consignment_notes?ids=${[c.brisbane, c.fuel].join(",")}`);
    expect(await page(despatcher, `?from=${DAY}&to=${DAY}&print=manifests`)).toContain("Select the manifests to print.");
    // another customer's manifest is not printable from here either
    expect(await page(despatcher, `?from=${DAY}&to=${DAY}&print=manifests&m=${otherCustomer.id}`)).toContain("Manifest not found");
    expect(await page(superDespatcher, `?from=${DAY}&to=${DAY}&print=connotes&m=${laxSimex.id}`)).toContain("The selected manifests have no consignments.");
    // and the report itself prints
    const pdf = await despatcher.request(`/print/despatch_manifest_report?ids=${melNorthline.id}`);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
  });

  it("needs a signed-in user", async () => {
    const res = await new Client(server.url).request("/manifests");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login?redirectTo=%2Fmanifests");
  });
});

describe("GET /api/manifests/{id}/ready_for_print", () => {
  it("answers the status and whether it is ready", async () => {
    expect((await despatcher.json(`/api/manifests/${melNorthline.id}/ready_for_print`)).body).toEqual({ status: "ready", ready: true });
    expect((await despatcher.json(`/api/manifests/${sydNorthline.id}/ready_for_print`)).body).toEqual({ status: "pending", ready: false });
    expect((await despatcher.json(`/api/manifests/${melAuspost.id}/ready_for_print`)).body).toEqual({ status: "failed", ready: false });
    await server.db.update(manifests).set({ status: "ready" }).where(eq(manifests.id, sydNorthline.id));
    expect((await despatcher.json(`/api/manifests/${sydNorthline.id}/ready_for_print`)).body).toEqual({ status: "ready", ready: true });
    const bad = await despatcher.json<Json>("/api/manifests/abc/ready_for_print");
    expect(bad.status).toBe(422);
    expect(bad.body.errors.id).toEqual(["Manifest id must be a positive number"]);
    expect((await despatcher.json("/api/manifests/999999/ready_for_print")).status).toBe(404);
    expect((await new Client(server.url).json(`/api/manifests/${melNorthline.id}/ready_for_print`)).status).toBe(401);
  });
});

describe("GET /api/manifests", () => {
  it("counts manifests by carrier in a range and site", async () => {
    const all = await despatcher.json<Json>(`/api/manifests?fromDate=${DAY}&toDate=${NEXT_DAY}`);
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      from_date: DAY,
      to_date: NEXT_DAY,
      site_id: null,
      carriers: [
        { carrier_name: "Australia Post", carrier_code: "auspost", count: 1 },
        { carrier_name: "Northline", carrier_code: "NORTHLINE", count: 3 },
      ],
      total: 4,
    });
    const syd = await despatcher.json<Json>(`/api/manifests?fromDate=${DAY}&toDate=${DAY}&siteId=${siteId.SYD}`);
    expect(syd.body.carriers).toEqual([{ carrier_name: "Northline", carrier_code: "NORTHLINE", count: 1 }]);
    expect((await despatcher.json<Json>(`/api/manifests?fromDate=${DAY}&toDate=${DAY}&siteId=ALL`)).body.total).toBe(3);
    // blank dates are today
    expect((await despatcher.json<Json>("/api/manifests")).body).toMatchObject({ total: 1, carriers: [{ carrier_name: "Northline", count: 1 }] });
  });

  it("fetches manifests and their consignments by ids", async () => {
    const res = await despatcher.json<Json>(`/api/manifests?ids=${sydNorthline.id},${melNorthline.id}`);
    expect(res.status).toBe(200);
    expect(res.body.manifests.map((m: Json) => m.id)).toEqual([sydNorthline.id, melNorthline.id]);
    expect(res.body.manifests[1]).toMatchObject({ number: melNorthline.number, total_consignments: 2, total_weight: 310, hazardous_goods: 1, consignments_ids: [c.brisbane, c.fuel] });
    const members = await despatcher.json<Json>(`/api/manifests/consignments?ids=${melNorthline.id},${melAuspost.id}`);
    expect(members.body.consignments.map((x: Json) => [x.manifest_id, x.id])).toEqual([
      [melNorthline.id, c.brisbane],
      [melNorthline.id, c.fuel],
      [melAuspost.id, c.failed],
    ]);
    expect(members.body.consignments[2]).toMatchObject({ state: "despatch_failure", url: `/consignment/${c.failed}` });
  });

  it("refuses bad input with JSON errors per field", async () => {
    const cases: Array<[string, string, string]> = [
      [`fromDate=2025-01-01&toDate=2025-03-02`, "toDate", DATE_RANGE_TOO_LARGE],
      [`fromDate=10/03/2025&toDate=${DAY}`, "fromDate", "Enter a date as YYYY-MM-DD"],
      [`fromDate=${DAY}&toDate=${DAY}&siteId=${siteId.LAX}`, "siteId", UNKNOWN_SITE],
      [`fromDate=${DAY}&toDate=${DAY}&siteId=abc`, "siteId", UNKNOWN_SITE],
      ["ids=", "ids", "ids are required"],
      ["ids=1,abc", "ids", "ids must be manifest ids separated by commas"],
      ["ids=0", "ids", "ids must be manifest ids"],
    ];
    for (const [query, field, message] of cases) {
      const res = await despatcher.json<Json>(`/api/manifests?${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.errors[field], query).toContain(message);
    }
    const missing = await despatcher.json<Json>("/api/manifests/consignments");
    expect(missing.status).toBe(422);
    expect(missing.body.errors.ids).toEqual(["ids are required"]);
    expect((await new Client(server.url).json("/api/manifests")).status).toBe(401);
  });

  it("the from-after-to rule applies to the API as well", async () => {
    const res = await despatcher.json<Json>(`/api/manifests?fromDate=${NEXT_DAY}&toDate=${DAY}`);
    expect(res.body).toMatchObject({ from_date: NEXT_DAY, to_date: NEXT_DAY, total: 1 });
  });
});

