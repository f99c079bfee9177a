/**
 * Issue 31 #1 (decision 032) through the real server: the screens the last pass missed read, type
 * and default dates in the reader's clock. A staff user without a setting reads the provider's
 * Melbourne and DD/MM/YYYY (not the customer's first site, the demo's Los Angeles warehouse); one
 * who chose Los Angeles and MM/DD/YYYY on the user form reads those. Each loader is read as JSON
 * (Remix's `_data`), so the assertions name what the page renders from.
 */
import { eq, inArray } from "drizzle-orm";
import { decode } from "turbo-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sites, users } from "../../db/schema";
import { todayIn } from "../../app/modules/calendar/site-time";
import { DATES_REVERSED } from "../../app/modules/tracking/replay.server";
import type { Client, TestServer } from "../support/server";
import * as support from "../support/despatch";
import type { DespatchWorld, Json } from "../support/despatch";

let world: DespatchWorld;
let server: TestServer;
let c: DespatchWorld["clients"];
const MEL = "Australia/Melbourne";
const LA = "America/Los_Angeles";

/**
 * A route's loader (GET) or action (POST form) data, as the browser's single fetch reads it: the
 * page's `.data` twin, in Remix's turbo-stream encoding.
 */
async function routeData(client: Client, path: string, routeId: string, form?: Record<string, string>) {
  const [pathname, query] = path.split("?");
  const params = new URLSearchParams(query);
  if (!form) params.set("_routes", routeId);
  const res = await client.request(`${pathname}.data?${params}`, form ? { form } : {});
  const decoded = await decode(res.body!);
  await decoded.done;
  const value = decoded.value as Record<string, { data?: Json; error?: unknown }> & { data?: Json };
  const body = (form ? value.data : value[routeId]?.data) as Json;
  if (body === undefined) throw new Error(`${path}: ${res.status} ${JSON.stringify(value).slice(0, 500)}`);
  return { status: res.status, body };
}

const usersOf = async (email: string) => (await server.db.select().from(users).where(eq(users.email, email)))[0]!;

beforeAll(async () => {
  world = await support.startDespatchWorld();
  server = world.server;
  c = world.clients;
  // bookings are for users who may book
  await server.db.update(users).set({ canBook: true }).where(inArray(users.email, ["admin@example.com", "devs@example.com"]));
  // the devs user chooses Los Angeles and MM/DD/YYYY on the admin user form's API
  const devs = await usersOf("devs@example.com");
  const put = await c.devs.json<Json>(`/api/customers/${devs.customerId}/users/${devs.id}`, { method: "PUT", json: { timezone: LA, date_format: "MM/DD/YYYY" } });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
}, 480_000);
afterAll(() => server.close());

// the admin has no setting and no site: the provider's clock; devs chose Los Angeles
const readers = () =>
  [
    { who: "a staff user without a setting (the provider's Melbourne)", client: c.admin, zone: MEL, format: "DD/MM/YYYY" },
    { who: "a staff user who chose Los Angeles and MM/DD/YYYY", client: c.devs, zone: LA, format: "MM/DD/YYYY" },
  ] as const;

describe("the user form and /api carry the user's own clock", () => {
  it("stores and answers timezone and date_format; blank inherits; an unknown zone is refused", async () => {
    const devs = await usersOf("devs@example.com");
    expect(devs).toMatchObject({ timezone: LA, dateFormat: "MM/DD/YYYY" });
    const admin = await usersOf("admin@example.com");
    const got = await c.devs.json<Json>(`/api/customers/${admin.customerId}/users/${admin.id}`);
    expect(got.body).toMatchObject({ timezone: null, date_format: null });
    const bad = await c.devs.json<Json>(`/api/customers/${admin.customerId}/users/${admin.id}`, { method: "PUT", json: { timezone: "Mars/Olympus", date_format: "YYYY-MM-DD" } });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain("Choose a time zone from the list");
    // the form's "Default (…)": a staff user without a site inherits Melbourne, DD/MM/YYYY
    const form = await routeData(c.devs, `/customers/${admin.customerId}/users/${admin.id}`, "routes/_app+/_staff+/customers.$customerId.users.($userId)");
    expect(form.status).toBe(200);
    expect(form.body.clock.inherited).toMatchObject({ timeZone: MEL, dateFormat: "DD/MM/YYYY" });
    expect(form.body.clock.zones).toEqual(expect.arrayContaining([MEL, LA]));
    // the screen's post keeps the setting (blank inherits)
    const saved = await c.devs.request(`/customers/${admin.customerId}/users/${admin.id}`, {
      form: { intent: "save", email: admin.email, full_name: admin.fullName, role: admin.role, timezone: "Pacific/Auckland", date_format: "" },
    });
    expect(saved.status).toBe(302);
    expect(await usersOf("admin@example.com")).toMatchObject({ timezone: "Pacific/Auckland", dateFormat: null });
    // the form posted no permission boxes: give back the booking the screens below need
    await server.db.update(users).set({ timezone: null, dateFormat: null, canBook: true }).where(eq(users.id, admin.id));
  });
});

describe.each([0, 1])("the screens in each reader's clock (%s)", (i) => {
  const r = () => readers()[i]!;

  it("/search shows despatch dates in the reader's format", async () => {
    const { body } = await routeData(r().client, "/search?query=zzzz", "routes/_app+/search");
    expect(body.country).toBe(r().format);
  });

  it("/bookings types dates in the reader's format and defaults them to today in their zone", async () => {
    const { body } = await routeData(r().client, "/bookings", "routes/_app+/bookings");
    expect(body.dates).toEqual({ country: r().format, today: todayIn(r().zone) });
  });

  it("the rate editor and its check read and type in the reader's format", async () => {
    const editor = await routeData(r().client, "/rate_editor", "routes/_app+/_staff+/rate_editor._index");
    expect(editor.body.dates).toEqual({ country: r().format, today: todayIn(r().zone) });
    const check = await routeData(r().client, "/rate_editor/check", "routes/_app+/_staff+/rate_editor.check");
    expect(check.body.dateFormat).toBe(r().format);
  });

  it("/manage_tracking starts at today in the reader's zone and reads the dates typed in their format", async () => {
    const page = await routeData(r().client, "/manage_tracking", "routes/_app+/_staff+/manage_tracking");
    expect(page.body).toMatchObject({ today: todayIn(r().zone), dateFormat: r().format });
    const route = "routes/_app+/_staff+/manage_tracking";
    // 1 December then 30 November, each in the reader's format: read as they meant, the dates are reversed
    const [dec1, nov30] = r().format === "MM/DD/YYYY" ? ["12/01/2026", "11/30/2026"] : ["01/12/2026", "30/11/2026"];
    const reversed = await routeData(r().client, "/manage_tracking", route, { by: "carrier", carrier: "SIMEX", fromDate: dec1, toDate: nov30 });
    expect(reversed.status).toBe(422);
    expect(reversed.body.errors.fromDate).toEqual([DATES_REVERSED]);
    expect(reversed.body.values).toEqual({ fromDate: dec1, toDate: nov30 });
    // a date that is none in the reader's format is told in that format
    const wrong = await routeData(r().client, "/manage_tracking", route, { by: "carrier", carrier: "SIMEX", fromDate: "13/13/2026", toDate: nov30 });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.fromDate[0]).toContain(`(${r().format})`);
  });

  it("a carrier account's notes are formatted in the reader's clock", async () => {
    const [site] = await server.db.select().from(sites).limit(1);
    const { body } = await routeData(r().client, `/customers/${site!.customerId}/sites/${site!.id}/accounts`, "routes/_app+/_staff+/customers.$customerId.sites.$siteId.accounts.($accountId)");
    expect(body.clock).toEqual({ timeZone: r().zone, dateFormat: r().format });
  });
});
