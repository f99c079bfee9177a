import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customers, services } from "../../db/schema";
import { type CurrentUser } from "../../app/modules/auth/current-user.server";
import { listCounters, listGroupRows, listGroups, listScreen } from "../../app/modules/consignments/list.server";
import { DATE_FILTERS, LIST_FILTERS, type DateFilter, type GroupKey, type ListFilter } from "../../app/modules/consignments/list";
import { Client, type TestServer } from "../support/server";
import { sorted, startListWorld, today, W, type Json, type ListWorld } from "../support/list-world";

/**
 * The consignment list, part 1 (spec 1 sections 2, 4, 7, 9): counters, filters, groups, rows and
 * tenancy, against the real server (part 2 in consignment-list-paging.test.ts; the consignments
 * they share in tests/support/list-world.ts).
 */

let server: TestServer;
let despatcher: Client;
let tester: Client;
let c: ListWorld["c"];
let despatcherUser: CurrentUser;
let superUser: CurrentUser;
let consignment: ListWorld["consignment"];
let create: ListWorld["create"];
let idsIn: ListWorld["idsIn"];
let serviceIdOf: ListWorld["serviceIdOf"];
let groupKeyOf: ListWorld["groupKeyOf"];

beforeAll(async () => {
  ({ server, despatcher, tester, c, despatcherUser, superUser, consignment, create, idsIn, serviceIdOf, groupKeyOf } = await startListWorld());
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
