import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consignments, customers, itemTypes, services, sites, userSites, users } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { loadLocalities } from "../../db/seed/localities";
import { seedRatingDemo } from "../../db/seed/rating-demo";
import { loadCurrentUser, type CurrentUser } from "../../app/modules/auth/current-user.server";
import { listCounters, listGroupRows, listGroups, listScreen, type ListScope } from "../../app/modules/consignments/list.server";
import { DATE_FILTERS, LIST_FILTERS, SORTS, type DateFilter, type GroupKey, type ListFilter, type SortKey } from "../../app/modules/consignments/list";
import { Client, startTestServer, type TestServer } from "../support/server";
import { todayIn } from "../../app/modules/calendar/site-time";

/**
 * The consignment list (spec 1 sections 2, 4, 7, 9): counters, filters, groups, keyset paging,
 * tenancy, GET /api/consignments and the screen's posts, against the real server. Consignments
 * are created through POST /api/consignments and /api/returns, so the list columns are the ones a
 * save writes.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

let server: TestServer;
let despatcher: Client;
let superDespatcher: Client;
let tester: Client;
let cartonTypeId: number;

const iso = (d: Date) => d.toISOString().slice(0, 10);
const plusDays = (date: string, n: number) => iso(new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000));
// the despatcher works at Melbourne: the list's today is Melbourne's
const today = todayIn("Australia/Melbourne");
/** A "today" three weeks or more ahead (a Wednesday): the date filters around it hold only future dates, which a save allows. */
const W = (() => {
  let d = plusDays(today, 21);
  while (new Date(`${d}T00:00:00Z`).getUTCDay() !== 3) d = plusDays(d, 1);
  return d;
})();

const receiver = { name: "Brisbane Hardware", address_line_1: "5 Ipswich Road", locality: "WOOLLOONGABBA", postcode: "4102", region: "QLD", country: "AUSTRALIA" };
const sender = { name: "Melbourne DC", address_line_1: "120 Frankston Dandenong Road", locality: "DANDENONG SOUTH", postcode: "3175", region: "VIC", country: "AUSTRALIA" };

const consignment = (over: Record<string, unknown> = {}) => ({
  site_code: "MEL",
  reference: "PO-1001",
  despatch_date: W,
  sender_address: sender,
  receiver_address: receiver,
  items: [{ quantity: 2, item_type_id: cartonTypeId, length: 40, width: 30, height: 30, weight_in_uom: "10", reference: "CTN-A" }],
  ...over,
});

async function create(client: Client, body: Record<string, unknown>, path = "/api/consignments"): Promise<Json> {
  const res = await client.json<Json>(path, { json: body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function userOf(email: string): Promise<CurrentUser> {
  const [row] = await server.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return (await loadCurrentUser(server.db, row!.id))!;
}

/** Every row id of a filter and date (all groups, all pages). */
async function idsIn(user: CurrentUser, scope: ListScope): Promise<number[]> {
  const groups = await listGroups(server.db, user, scope);
  const ids: number[] = [];
  for (const g of groups) {
    let after: string | null = null;
    do {
      const page: { rows: { id: number }[]; next: string | null } = await listGroupRows(server.db, user, scope, g.key, { sort: "despatch_date", dir: "asc", after });
      ids.push(...page.rows.map((r) => r.id));
      after = page.next;
    } while (after);
  }
  return ids.sort((a, b) => a - b);
}

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

// the consignments around W
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- filled in beforeAll, read by name
const c: Record<string, any> = {};
let despatcherUser: CurrentUser;
let superUser: CurrentUser;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  await loadLocalities(server.db);
  await seedRatingDemo(server.db);
  despatcher = new Client(server.url);
  await despatcher.signIn("despatcher@example.com");
  superDespatcher = new Client(server.url);
  await superDespatcher.signIn("superdespatcher@example.com");
  // the other customer's despatcher works at its Test Site
  const [tst] = await server.db.select({ id: sites.id }).from(sites).where(eq(sites.code, "TST"));
  const [testerRow] = await server.db.select({ id: users.id }).from(users).where(eq(users.email, "tester@example.com"));
  await server.db.insert(userSites).values({ userId: testerRow!.id, siteId: tst!.id });
  tester = new Client(server.url);
  await tester.signIn("tester@example.com");
  const [carton] = await server.db.select({ id: itemTypes.id }).from(itemTypes).where(eq(itemTypes.name, "Carton"));
  cartonTypeId = carton!.id;

  c.ready = await create(despatcher, consignment({ reference: "PO-2024-000123-X", receiver_address: { ...receiver, name: "Perth Outdoor Supplies Pty" } }));
  c.open = await create(despatcher, consignment({ reference: "OPEN-1", receiver_address: null }));
  c.sydney = await create(despatcher, consignment({ site_code: "SYD", reference: "SYD-1" }));
  c.twoDaysAgo = await create(despatcher, consignment({ despatch_date: plusDays(W, -2), reference: "MINUS-2" }));
  c.tenDaysAgo = await create(despatcher, consignment({ despatch_date: plusDays(W, -10), reference: "MINUS-10" }));
  c.saturday = await create(despatcher, consignment({ despatch_date: plusDays(W, 3), reference: "PLUS-3" }));
  const info = { ready_at: `${W} 09:00`, closing_at: `${W} 17:00`, contact_name: "Pat Picker", phone_number: "07 3000 1111" };
  c.return = await create(despatcher, consignment({ sender_address: { ...receiver, name: "Returning Customer" }, receiver_address: sender, return_info: info, reference: "RET-1" }), "/api/returns");
  c.despatched = await create(despatcher, consignment({ reference: "GONE-1" }));
  c.failed = await create(despatcher, consignment({ reference: "FAIL-1" }));
  c.quote = await create(despatcher, { ...consignment({ reference: "QUOTE-1" }), is_quote: true });
  c.lax = await create(superDespatcher, consignment({ site_code: "LAX", reference: "LAX-1", receiver_address: null }));
  c.other = await create(tester, { site_code: "TST", reference: "OTHER-1", despatch_date: W, items: [{ quantity: 1, length: 10, width: 10, height: 10, weight_in_uom: "1" }] });

  // labels of the Sydney one are printed (Ready to despatch); two further on in their life
  expect((await despatcher.request(`/print/${c.sydney.id}/labels?format=html`, { method: "POST" })).status).toBe(200);
  // the despatch back end moves states; here the rows are moved there directly
  await server.db.update(consignments).set({ state: "despatched", consignmentNumber: "APMEL0000001" }).where(eq(consignments.id, c.despatched.id));
  await server.db.update(consignments).set({ state: "despatch_failure" }).where(eq(consignments.id, c.failed.id));

  despatcherUser = await userOf("despatcher@example.com");
  superUser = await userOf("superdespatcher@example.com");
}, 120_000);
afterAll(() => server.close());

describe("the created consignments", () => {
  it("are in the states the list sorts them by", () => {
    expect(c.ready.state).toBe("despatchable");
    expect(c.open.state).toBe("open");
    expect(c.sydney.state).toBe("despatchable");
    expect(c.return).toMatchObject({ state: "despatchable", return_type: "return" });
  });
});

describe("counters (site and date filter)", () => {
  it("count Not Ready, Labels to print and Ready to despatch in one statement", async () => {
    const all = await listCounters(server.db, despatcherUser, { dateFilter: "today", siteId: null, today: W });
    expect(all).toEqual({ not_ready: 1, labels_to_print: 2, ready: 1 });
    const melbourne = despatcherUser.sites.find((s) => s.code === "MEL")!.id;
    expect(await listCounters(server.db, despatcherUser, { dateFilter: "today", siteId: melbourne, today: W })).toEqual({ not_ready: 1, labels_to_print: 2, ready: 0 });
    expect(await listCounters(server.db, despatcherUser, { dateFilter: "last_3_days", siteId: null, today: W })).toEqual({ not_ready: 1, labels_to_print: 3, ready: 1 });
  });
});

describe("state filters", () => {
  const expectations: Record<ListFilter, string[]> = {
    metadata: ["ready", "open", "sydney", "return", "despatched", "failed"],
    incomplete: ["open"],
    labels_to_print: ["ready", "return"],
    complete: ["sydney"],
    despatched: ["despatched"],
    failed: ["failed"],
  };
  for (const filter of LIST_FILTERS) {
    it(`${filter} lists ${expectations[filter].join(", ")} (never quotes, other sites or customers)`, async () => {
      const ids = await idsIn(despatcherUser, { filter, dateFilter: "today", siteId: null, today: W });
      expect(ids).toEqual(sorted(expectations[filter].map((k) => c[k]!.id)));
    });
  }
});

describe("date filters", () => {
  const expectations: Record<DateFilter, string[]> = {
    today: ["ready", "open", "sydney", "return", "despatched", "failed"],
    last_3_days: ["ready", "open", "sydney", "return", "despatched", "failed", "twoDaysAgo"],
    last_7_days: ["ready", "open", "sydney", "return", "despatched", "failed", "twoDaysAgo"],
    last_14_days: ["ready", "open", "sydney", "return", "despatched", "failed", "twoDaysAgo", "tenDaysAgo"],
    last_30_days: ["ready", "open", "sydney", "return", "despatched", "failed", "twoDaysAgo", "tenDaysAgo"],
    // W is a Wednesday: Monday W-2 to Sunday W+4
    this_week: ["ready", "open", "sydney", "return", "despatched", "failed", "twoDaysAgo", "saturday"],
    next_7_days: ["ready", "open", "sydney", "return", "despatched", "failed", "saturday"],
  };
  for (const dateFilter of DATE_FILTERS) {
    it(`${dateFilter} covers ${expectations[dateFilter].length} consignments`, async () => {
      const ids = await idsIn(despatcherUser, { filter: "metadata", dateFilter, siteId: null, today: W });
      expect(ids).toEqual(sorted(expectations[dateFilter].map((k) => c[k]!.id)));
    });
  }
});

describe("tenancy", () => {
  it("another site's and another customer's consignments never appear, in any filter or date", async () => {
    const seen = new Set<number>();
    for (const filter of LIST_FILTERS) for (const dateFilter of DATE_FILTERS) for (const id of await idsIn(despatcherUser, { filter, dateFilter, siteId: null, today: W })) seen.add(id);
    expect(seen.has(c.lax.id)).toBe(false);
    expect(seen.has(c.other.id)).toBe(false);
    expect(seen.has(c.quote.id)).toBe(false);
    // a site that is not the user's lists nothing rather than that site
    const lax = superUser.sites.find((s) => s.code === "LAX")!.id;
    expect(await idsIn(despatcherUser, { filter: "metadata", dateFilter: "today", siteId: lax, today: W })).toEqual([]);
    // the super despatcher has Los Angeles
    expect(await idsIn(superUser, { filter: "incomplete", dateFilter: "today", siteId: lax, today: W })).toEqual([c.lax.id]);
  });

  it("the API refuses a site that is not the user's", async () => {
    const lax = superUser.sites.find((s) => s.code === "LAX")!.id;
    const res = await despatcher.json<Json>(`/api/consignments?siteId=${lax}`);
    expect(res.status).toBe(422);
    expect(res.body.errors.siteId).toEqual(["Site is not one of yours"]);
    expect((await despatcher.json<Json>("/api/consignments?site=LAX")).body.errors.site).toEqual(["Site is not one of yours"]);
    // the other customer sees its own only
    const other = await tester.json<Json>("/api/consignments?dateFilter=next_7_days");
    expect(other.status).toBe(200);
    expect(other.body.consignments.every((r: Json) => r.id !== c.ready.id)).toBe(true);
  });
});

describe("groups", () => {
  it("one per carrier service, then no carrier service, then Returns/Third Party, each with its count", async () => {
    const groups = await listGroups(server.db, despatcherUser, { filter: "metadata", dateFilter: "today", siteId: null, today: W });
    const byKey = new Map(groups.map((g) => [g.key, g]));
    expect(byKey.get("returns")).toMatchObject({ label: "Returns/Third Party", count: 1 });
    expect(byKey.get("none")).toMatchObject({ label: "No carrier service", count: 1 });
    expect(groups.at(-1)!.key).toBe("returns");
    expect(groups.at(-2)!.key).toBe("none");
    const [svc] = await server.db.select({ id: services.id, name: services.name }).from(services).where(eq(services.code, c.ready.service_code));
    const serviceGroup = groups.find((g) => g.key === `s${svc!.id}`)!;
    expect(serviceGroup.label).toBe(`${c.ready.carrier_name} · ${svc!.name}`);
    expect(groups.reduce((n, g) => n + g.count, 0)).toBe(6);
  });

  it("rows load for expanded groups only", async () => {
    const screen = await listScreen(server.db, despatcherUser, { filter: "metadata", dateFilter: "today", siteId: null, today: W }, { sort: "despatch_date", dir: "desc", open: ["returns"], after: {} });
    for (const g of screen.groups) {
      if (g.key === "returns") expect(g.rows!.map((r) => r.id)).toEqual([c.return.id]);
      else expect(g.rows).toBeNull();
    }
    expect(screen.range).toEqual({ start: W, end: W });
  });

  it("a return lists its sender and links to the return screen", async () => {
    const { rows } = await listGroupRows(server.db, despatcherUser, { filter: "metadata", dateFilter: "today", siteId: null, today: W }, "returns", { sort: "party_name", dir: "asc" });
    expect(rows[0]).toMatchObject({ id: c.return.id, party_name: "Returning Customer", url: `/return/${c.return.id}`, consignment_number: "Pending" });
  });
});

describe("rows", () => {
  it("truncate the receiver to 19 and the reference to 12 characters, and format weight and volume", async () => {
    const { rows } = await listGroupRows(server.db, despatcherUser, { filter: "labels_to_print", dateFilter: "today", siteId: null, today: W }, `s${(await serviceIdOf(c.ready.service_code))}` as GroupKey, {
      sort: "reference",
      dir: "asc",
    });
    const row = rows.find((r) => r.id === c.ready.id)!;
    expect(row).toMatchObject({
      consignment_number: "Pending",
      party_name: "Perth Outdoor Suppl",
      party_name_full: "Perth Outdoor Supplies Pty",
      reference: "PO-2024-0001",
      reference_full: "PO-2024-000123-X",
      despatch_date: W,
      item_count: 2,
      weight: "10 kg",
      volume: "0.072 m³",
      hazardous: false,
      state: "despatchable",
      url: `/consignment/${c.ready.id}`,
      site_code: "MEL",
      labels_printed: false,
    });
  });

  it("carry item references only when the customer option view_item_references is on", async () => {
    const api = async () => (await despatcher.json<Json>(`/api/consignments?filter=labels_to_print&dateFilter=today`)).body.consignments as Json[];
    const todays = await create(despatcher, consignment({ despatch_date: today, reference: "REFS-1" }));
    const screen = `/consignments/labels_to_print/today?site=all&open=${await groupKeyOf(todays)}`;
    expect((await api()).find((r) => r.id === todays.id)!.item_references).toBe("CTN-A");
    expect(await (await despatcher.request(screen)).text()).toContain('title="CTN-A"');
    const [acme] = await server.db.select().from(customers).where(eq(customers.code, "ACME"));
    await server.db.update(customers).set({ options: { ...acme!.options, view_item_references: false } }).where(eq(customers.id, acme!.id));
    try {
      expect((await api()).find((r) => r.id === todays.id)!.item_references).toBeNull();
      expect(await (await despatcher.request(screen)).text()).not.toContain('data-testid="item-references"');
    } finally {
      await server.db.update(customers).set({ options: acme!.options }).where(eq(customers.id, acme!.id));
      await despatcher.request("/api/consignments/destroy_all", { json: { ids: [todays.id] } });
    }
  });
});

async function serviceIdOf(code: string) {
  const [svc] = await server.db.select({ id: services.id }).from(services).where(eq(services.code, code));
  return svc!.id;
}
async function groupKeyOf(x: Json): Promise<GroupKey> {
  if (x.return_type) return "returns";
  return x.service_code ? (`s${await serviceIdOf(x.service_code)}` as GroupKey) : "none";
}

describe("sorting and keyset paging", () => {
  // 130 consignments of one service at Sydney, three days from now: more than a page
  const day = plusDays(today, 3);
  const names = ["Zeta Traders", "alpha stores", "Alpha Stores", "Mid Co", "Óscar's Deli", "Brisbane Hardware", "Zeta Traders"];
  let ids: number[] = [];
  let groupKey: GroupKey;

  beforeAll(async () => {
    const bodies = Array.from({ length: 130 }, (_, i) =>
      consignment({
        site_code: "SYD",
        despatch_date: day,
        carrier_code: "NORTHLINE",
        service_code: "RXP",
        reference: i % 5 === 0 ? null : `R-${String((i * 37) % 101).padStart(3, "0")}`,
        receiver_address: { ...receiver, name: names[i % names.length] },
        items: [
          {
            quantity: 1 + (i % 3),
            item_type_id: cartonTypeId,
            length: 40,
            width: 30,
            height: 10 + (i % 4) * 10,
            weight_in_uom: String(5 + (i % 9)),
            dangerous_goods_items: i % 11 === 0 ? [{ un_number: "1263", proper_shipping_name: "PAINT", hazard_class: "3", weight_in_uom: "5" }] : [],
          },
        ],
      }),
    );
    for (let i = 0; i < bodies.length; i += 10) {
      const made = await Promise.all(bodies.slice(i, i + 10).map((b) => create(despatcher, b)));
      ids.push(...made.map((m) => m.id));
    }
    ids = sorted(ids);
    groupKey = `s${await serviceIdOf("RXP")}` as GroupKey;
  }, 120_000);

  it("the screen shows a page of 100, then Show more gives the rest, with no duplicates or gaps", async () => {
    const base = `/consignments/metadata/next_7_days?site=SYD&open=${groupKey}`;
    const first = await (await despatcher.request(base)).text();
    const rowIds = (html: string) => [...html.matchAll(/data-testid="consignment-row" data-id="(\d+)"/g)].map((m) => Number(m[1]));
    const page1 = rowIds(first);
    expect(page1).toHaveLength(100);
    const more = first.match(/href="([^"]*after_s\d+=[^"&]+[^"]*)"[^>]*>Show more</);
    expect(more).not.toBeNull();
    const second = await (await despatcher.request(more![1]!.replace(/&amp;/g, "&"))).text();
    const page2 = rowIds(second);
    expect(page2).toHaveLength(30);
    expect(second).not.toContain(">Show more<");
    expect(second).toContain(">First rows<");
    expect(sorted([...page1, ...page2])).toEqual(ids);
  });

  for (const sort of Object.keys(SORTS) as SortKey[]) {
    for (const dir of ["asc", "desc"] as const) {
      it(`by ${sort} ${dir}: pages of 17 join into the whole list, in order`, async () => {
        const all = (await despatcher.json<Json>(`/api/consignments?site=SYD&dateFilter=next_7_days&service_code=RXP&sort=${sort}&dir=${dir}&limit=1000`)).body;
        expect(all.meta.next).toBeNull();
        expect(sorted(all.consignments.map((r: Json) => r.id))).toEqual(ids);
        const paged: Json[] = [];
        let after: string | null = null;
        let pages = 0;
        do {
          const res: { body: Json } = await despatcher.json<Json>(`/api/consignments?site=SYD&dateFilter=next_7_days&service_code=RXP&sort=${sort}&dir=${dir}&limit=17${after ? `&after=${after}` : ""}`);
          paged.push(...res.body.consignments);
          after = res.body.meta.next;
          if (after) expect(res.body.meta.warning).toContain("after=");
          pages++;
        } while (after);
        expect(pages).toBe(Math.ceil(130 / 17));
        expect(paged.map((r) => r.id)).toEqual(all.consignments.map((r: Json) => r.id));
        // numeric and date columns checked against their values; ties broken by id the same way
        const value = (r: Json) => ({ item_count: r.item_count, weight: r.total_weight, volume: r.total_volume, hazardous: r.hazardous ? 1 : 0, despatch_date: r.despatch_date })[sort as string];
        if (value(paged[0]!) !== undefined) {
          for (let i = 1; i < paged.length; i++) {
            const [a, b] = [paged[i - 1]!, paged[i]!];
            const cmp = value(a) < value(b) ? -1 : value(a) > value(b) ? 1 : Math.sign(a.id - b.id);
            expect(dir === "asc" ? cmp : -cmp, `${a.id} before ${b.id}`).toBe(-1);
          }
        }
      });
    }
  }

  it("a cursor that is not ours is refused by the API", async () => {
    const res = await despatcher.json<Json>("/api/consignments?sort=weight&after=bogus");
    expect(res.status).toBe(422);
    expect(res.body.errors.after).toBeDefined();
  });
});

describe("GET /api/consignments", () => {
  let todays: Json;
  let todaysReturn: Json;
  beforeAll(async () => {
    todays = await create(despatcher, consignment({ despatch_date: today, reference: "API-1" }));
    const info = { ready_at: `${today} 23:00`, closing_at: `${today} 23:45`, contact_name: "Pat Picker", phone_number: "07 3000 1111" };
    todaysReturn = await create(despatcher, consignment({ despatch_date: today, sender_address: receiver, receiver_address: sender, return_info: info, reference: "API-RET" }), "/api/returns");
  });

  it("answers rows and meta for the filter, site and date", async () => {
    const res = await despatcher.json<Json>("/api/consignments?filter=labels_to_print&dateFilter=today");
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ date_start: today, date_end: today, warning: null, next: null });
    const ids = res.body.consignments.map((r: Json) => r.id);
    expect(ids).toEqual(expect.arrayContaining([todays.id, todaysReturn.id]));
    expect(res.body.meta.returns).toBeGreaterThanOrEqual(1);
    expect(res.body.meta.outbounds).toBeGreaterThanOrEqual(1);
    const row = res.body.consignments.find((r: Json) => r.id === todays.id);
    expect(Object.keys(row)).toEqual(expect.arrayContaining(["consignment_number", "party_name", "despatch_date", "reference", "item_count", "weight", "volume", "hazardous", "item_references", "state", "url"]));
  });

  it("returns=true lists returns only, returns=false outbound only; service_code narrows to a service", async () => {
    const onlyReturns = (await despatcher.json<Json>("/api/consignments?dateFilter=today&returns=true")).body;
    expect(onlyReturns.consignments.every((r: Json) => r.return_type)).toBe(true);
    expect(onlyReturns.consignments.map((r: Json) => r.id)).toContain(todaysReturn.id);
    const outbound = (await despatcher.json<Json>("/api/consignments?dateFilter=today&returns=false")).body;
    expect(outbound.consignments.every((r: Json) => !r.return_type)).toBe(true);
    const service = (await despatcher.json<Json>(`/api/consignments?dateFilter=today&service_code=${todays.service_code.toLowerCase()}`)).body;
    expect(service.consignments.map((r: Json) => r.id)).toContain(todays.id);
    const serviceId = await serviceIdOf(todays.service_code);
    expect(service.consignments.every((r: Json) => r.service_id === serviceId && !r.return_type)).toBe(true);
    expect((await despatcher.json<Json>("/api/consignments?dateFilter=today&service_code=NOPE")).body.consignments).toEqual([]);
  });

  it("auto_printing lists the labels still to print, oldest first; printed ones drop out", async () => {
    const url = `/api/consignments?filter=labels_to_print&auto_printing=1&siteId=all&dateFilter=today&timestamp=${Date.now()}`;
    const before = (await despatcher.json<Json>(url)).body.consignments.map((r: Json) => r.id);
    expect(before).toContain(todays.id);
    expect(before).toEqual([...before].sort((a, b) => a - b));
    const printed = await despatcher.request(`/print/labels?ids=${todays.id}&format=html`, { method: "POST" });
    expect(printed.status).toBe(200);
    expect(printed.headers.get("x-label-count")).toBe("2");
    const after = (await despatcher.json<Json>(url)).body.consignments.map((r: Json) => r.id);
    expect(after).not.toContain(todays.id);
    const melbourne = despatcherUser.sites.find((s) => s.code === "MEL")!.id;
    const complete = (await despatcher.json<Json>(`/api/consignments?filter=complete&siteId=${melbourne}`)).body.consignments;
    expect(complete.find((r: Json) => r.id === todays.id)).toMatchObject({ labels_printed: true, consignment_number: expect.stringMatching(/^[A-Z]{2}MEL\d{7}$/) });
  });

  it("validates its parameters with zod and answers JSON errors", async () => {
    const bad = async (query: string) => (await despatcher.json<Json>(`/api/consignments?${query}`)).body.errors;
    const status = async (query: string) => (await despatcher.json<Json>(`/api/consignments?${query}`)).status;
    expect(await status("filter=bogus")).toBe(422);
    expect((await bad("filter=bogus")).filter[0]).toMatch(/^filter must be one of metadata/);
    expect((await bad("dateFilter=yesterday")).dateFilter[0]).toMatch(/^dateFilter must be one of today/);
    expect((await bad("siteId=abc")).siteId).toEqual(["siteId must be a site id or all"]);
    expect((await bad("limit=0")).limit).toEqual(["limit must be at least 1"]);
    expect((await bad("limit=5000")).limit).toEqual(["limit must be at most 1000"]);
    expect((await bad("returns=maybe")).returns).toEqual(["returns must be true or false"]);
    expect((await bad("sort=colour")).sort[0]).toMatch(/^sort must be one of/);
    expect(await status("what=ever")).toBe(422);
    // a script without a session or token
    expect((await new Client(server.url).json<Json>("/api/consignments")).status).toBe(401);
  });

  it("the batch labels route refuses a consignment that cannot print, allocating nothing for the others", async () => {
    const open = await create(despatcher, consignment({ despatch_date: today, reference: "OPEN-API", receiver_address: null }));
    const fine = await create(despatcher, consignment({ despatch_date: today, reference: "FINE-API" }));
    const res = await despatcher.json<Json>(`/print/labels?ids=${fine.id},${open.id}&format=html`, { method: "POST" });
    expect(res.status).toBe(409);
    const [row] = await server.db.select().from(consignments).where(eq(consignments.id, fine.id));
    expect(row!.consignmentNumber).toBeNull();
    expect(row!.labelsPrintedAt).toBeNull();
    // another customer's consignment is not found
    expect((await tester.request(`/print/labels?ids=${fine.id}&format=html`, { method: "POST" })).status).toBe(404);
    // a GET reprints and changes nothing
    expect((await despatcher.request(`/print/labels?ids=${fine.id}&format=html`)).status).toBe(409);
  });
});

describe("the screen (server-rendered, no JavaScript)", () => {
  const page = async (client: Client, path: string) => {
    const res = await client.request(path);
    expect(res.status, path).toBe(200);
    return res.text();
  };

  it("says so when there is nothing to list", async () => {
    const html = await page(despatcher, "/consignments/failed/last_3_days?site=MEL");
    expect(html).toContain("There are no consignments to display.");
  });

  it("links each counter to its filter and keeps the site; Despatch is disabled in incomplete and labels_to_print", async () => {
    const html = await page(despatcher, "/consignments/incomplete/today?site=SYD");
    expect(html).toContain('href="/consignments/labels_to_print/today?site=SYD"');
    expect(html).toContain('href="/consignments/complete/today?site=SYD"');
    expect(html).toMatch(/<button[^>]*value="despatch"[^>]*disabled/);
    expect(html).toMatch(/<button[^>]*formAction="\/print\/labels"[^>]*disabled|<button[^>]*disabled[^>]*formAction="\/print\/labels"/i);
    // without JavaScript the forms post to this very list (its query included), so the action knows the view
    expect(html).toContain('action="/consignments/incomplete/today?site=SYD"');
    const complete = await page(despatcher, "/consignments/complete/today?site=SYD");
    expect(complete).not.toMatch(/<button[^>]*value="despatch"[^>]*disabled/);
  });

  it("unknown filters go back to the list", async () => {
    const res = await despatcher.request("/consignments/bogus");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/consignments");
    const date = await despatcher.request("/consignments/complete/yesterday");
    expect(date.headers.get("location")).toBe("/consignments/complete");
  });

  it("shows Bulk Uploader only with can_bulkupload or can_bulkquote", async () => {
    expect(await page(despatcher, "/consignments")).not.toContain(">Bulk Uploader<");
    await server.db.update(users).set({ canBulkquote: true }).where(eq(users.email, "despatcher@example.com"));
    try {
      expect(await page(despatcher, "/consignments")).toContain('href="/bulk_upload"');
    } finally {
      await server.db.update(users).set({ canBulkquote: false }).where(eq(users.email, "despatcher@example.com"));
    }
  });

  it("widens a counter of 1000 or more", async () => {
    // a thousand copies of a saved consignment at Los Angeles, six days on (the list columns are the saved ones)
    const lax = superUser.sites.find((s) => s.code === "LAX")!.id;
    const day = plusDays(todayIn("America/Los_Angeles"), 6);
    const [src] = await server.db.select().from(consignments).where(eq(consignments.id, c.ready.id));
    const { id: _id, ...copy } = src!;
    await server.db.insert(consignments).values(Array.from({ length: 1000 }, () => ({ ...copy, siteId: lax, despatchDate: day, labelsPrintedAt: null })));
    const html = await page(superDespatcher, "/consignments/metadata/next_7_days?site=LAX");
    expect(html).toMatch(/data-testid="count-labels_to_print" data-wide="true">1000</);
    expect(html).toMatch(/data-testid="count-incomplete">\d+</);
    await server.db.delete(consignments).where(sql`${consignments.siteId} = ${lax} and ${consignments.despatchDate} = ${day}`);
  });

  it("remembers a changed filter as user options, by a POST that redirects to the new URL", async () => {
    const res = await despatcher.request("/consignments/metadata/today?site=all&sort=weight&dir=asc", {
      form: { intent: "filters", filter: "incomplete", dateFilter: "last_7_days", site: "SYD" },
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/consignments/incomplete/last_7_days?site=SYD&sort=weight&dir=asc");
    const [row] = await server.db.select({ options: users.options }).from(users).where(eq(users.email, "despatcher@example.com"));
    const [syd] = await server.db.select({ id: sites.id }).from(sites).where(eq(sites.code, "SYD"));
    expect(row!.options).toMatchObject({ consignment_date_filter: "last_7_days", consignment_site_filter: String(syd!.id) });
    // with no path segments the list opens with what was remembered
    const html = await page(despatcher, "/consignments");
    expect(html).toMatch(/<option value="last_7_days" selected=""/);
    expect(html).toMatch(/<option value="SYD" selected=""/);
    // a GET never changes them
    await page(despatcher, "/consignments/metadata/today?site=MEL");
    const [again] = await server.db.select({ options: users.options }).from(users).where(eq(users.email, "despatcher@example.com"));
    expect(again!.options).toMatchObject({ consignment_date_filter: "last_7_days" });
    // back to the defaults for the other tests
    await despatcher.request("/consignments", { form: { intent: "filters", filter: "metadata", dateFilter: "today", site: "all" } });
  });

  it("deletes the selection and undoes it (reinstate)", async () => {
    const a = await create(despatcher, consignment({ despatch_date: today, reference: "DEL-A" }));
    const b = await create(despatcher, consignment({ despatch_date: today, reference: "DEL-B", receiver_address: null }));
    const res = await despatcher.request("/consignments/metadata/today?site=all", { form: { intent: "delete", ids: `${a.id},${b.id}` } });
    expect(res.status).toBe(302);
    const location = res.headers.get("location")!;
    expect(location).toBe(`/consignments/metadata/today?site=all&deleted=${a.id},${b.id}`);
    const gone = await server.db.select({ active: consignments.active, state: consignments.state }).from(consignments).where(sql`${consignments.id} in (${a.id}, ${b.id})`);
    expect(gone).toEqual([
      { active: false, state: "deleted" },
      { active: false, state: "deleted" },
    ]);
    const html = await page(despatcher, location);
    expect(html).toContain("2 consignments deleted.");
    expect(html).toMatch(/<button[^>]*value="reinstate"[^>]*>Undo</);
    const listed = (await despatcher.json<Json>("/api/consignments?dateFilter=today")).body.consignments.map((r: Json) => r.id);
    expect(listed).not.toContain(a.id);

    const undo = await despatcher.request(location, { form: { intent: "reinstate", ids: `${a.id},${b.id}` } });
    expect(undo.status).toBe(302);
    expect(undo.headers.get("location")).toBe("/consignments/metadata/today?site=all&reinstated=2");
    const [ra] = await server.db.select().from(consignments).where(eq(consignments.id, a.id));
    const [rb] = await server.db.select().from(consignments).where(eq(consignments.id, b.id));
    expect([ra!.state, ra!.active, rb!.state, rb!.active]).toEqual(["despatchable", true, "open", true]);
    expect(await page(despatcher, undo.headers.get("location")!)).toContain("2 consignments reinstated.");
  });

  it("refuses to delete a despatched consignment, saying why on the page", async () => {
    const res = await despatcher.request("/consignments/metadata/today?site=all", { form: { intent: "delete", ids: String(c.despatched.id) } });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("Only consignments that have not been despatched can be deleted");
    // another customer's consignment is not found
    const other = await despatcher.request("/consignments/metadata/today?site=all", { form: { intent: "delete", ids: String(c.other.id) } });
    expect(other.status).toBe(404);
  });

  it("despatches without JavaScript: the job's progress shows on the list with a Refresh link", async () => {
    const refused = await despatcher.request("/consignments/incomplete/today?site=all", { form: { intent: "despatch", ids: String(c.ready.id) } });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("Consignments cannot be despatched from this list.");
    const nothing = await despatcher.request("/consignments/complete/today?site=all", { form: { intent: "despatch" } });
    expect(await nothing.text()).toContain("No consignments have been selected for despatch.");
    const open = await create(despatcher, consignment({ despatch_date: today, reference: "NOT-READY", receiver_address: null }));
    const notDespatchable = await despatcher.request("/consignments/complete/today?site=all", { form: { intent: "despatch", ids: String(open.id) } });
    expect(await notDespatchable.text()).toContain("At least one of the consignments you have selected is not despatchable.");

    const ready = await create(despatcher, consignment({ despatch_date: today, reference: "GO-1" }));
    const res = await despatcher.request("/consignments/complete/today?site=all", { form: { intent: "despatch_manifest", ids: String(ready.id) } });
    expect(res.status).toBe(302);
    const location = res.headers.get("location")!;
    expect(location).toMatch(/^\/consignments\/complete\/today\?site=all&job=[0-9a-f-]{36}&print_manifest=1$/);
    const html = await page(despatcher, location);
    expect(html).toMatch(/data-job-status="(queued|working|complete)"/);
    expect(html).toMatch(/>Refresh<|Print manifest/);
  });
});
