import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consignments, sites, users } from "../../db/schema";
import { type CurrentUser } from "../../app/modules/auth/current-user.server";
import { SORTS, type GroupKey, type SortKey } from "../../app/modules/consignments/list";
import { Client, type TestServer } from "../support/server";
import { todayIn } from "../../app/modules/calendar/site-time";
import { plusDays, receiver, sender, sorted, startListWorld, today, type Json, type ListWorld } from "../support/list-world";

/** The consignment list, part 2: sorting and keyset paging, GET /api/consignments and the server-rendered screen (world: tests/support/list-world.ts). */

let server: TestServer;
let despatcher: Client;
let superDespatcher: Client;
let tester: Client;
let cartonTypeId: number;
let c: ListWorld["c"];
let despatcherUser: CurrentUser;
let superUser: CurrentUser;
let consignment: ListWorld["consignment"];
let create: ListWorld["create"];
let serviceIdOf: ListWorld["serviceIdOf"];

beforeAll(async () => {
  ({ server, despatcher, superDespatcher, tester, cartonTypeId, c, despatcherUser, superUser, consignment, create, serviceIdOf } = await startListWorld());
}, 120_000);
afterAll(() => server.close());

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
    // each copy gets its own public tracking token (the column is unique)
    const { id: _id, publicTrackingToken: _token, ...copy } = src!;
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
