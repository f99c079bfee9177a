import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consignmentItems, consignments, customers, manifests, sites } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { createCarrier, createCarrierAccount, createCustomer, createSite } from "../../db/seed/factories";
import { MESSAGES } from "../../app/modules/customers/admin";
import { Client, signInAll, startTestServer, type TestServer } from "../support/server";

/**
 * Customers administration (issue 16 items 1, 7, 9; spec 2 /index_customers, /customers/{id?},
 * /customers/{id}/reference_types and their calls): the team view lists, creates and changes
 * customers; going live is for super admins, optionally deleting the test consignments.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

let server: TestServer;
let demo: Awaited<ReturnType<typeof seedDemo>>;
const EMAILS = {
  devs: "devs@example.com",
  superAdmin: "superadmin@example.com",
  admin: "admin@example.com",
  customerService: "customerservice@example.com",
  despatcher: "despatcher@example.com",
};
type Who = keyof typeof EMAILS;
const clients = {} as Record<Who, Client>;
const TEAM: Who[] = ["devs", "superAdmin", "admin", "customerService"];

beforeAll(async () => {
  server = await startTestServer();
  demo = await seedDemo(server.db);
  Object.assign(clients, await signInAll(server.url, EMAILS));
}, 120_000);
afterAll(() => server?.close());

const put = (id: number, json: unknown, who: Who = "admin") => clients[who].json<Json>(`/api/customers/${id}`, { method: "PUT", json });
const post = (json: unknown, who: Who = "admin") => clients[who].json<Json>("/api/customers", { json });

describe("role matrix", () => {
  it("lets the team view use every call and screen; a despatcher gets 403 from /api and is sent to / from the screens", async () => {
    const c = await createCustomer(server.db, { customConsignmentReferenceType: "dropdown_generic" });
    for (const who of TEAM) {
      expect((await clients[who].json(`/api/customers`)).status, who).toBe(200);
      expect((await clients[who].json(`/api/customers/${c.id}`)).status, who).toBe(200);
      expect((await put(c.id, { name: `Renamed by ${who}` }, who)).status, who).toBe(200);
      expect((await post({ name: `Made by ${who}`, code: `MADE-${who}` }, who)).status, who).toBe(201);
      expect((await clients[who].json(`/api/customers/${c.id}/update_sites_customer_despatch_enabled`, { method: "PUT", json: { despatch_enabled: true } })).status, who).toBe(200);
      expect((await clients[who].json(`/api/customers/${c.id}/custom_references`, { json: ["A"] })).status, who).toBe(200);
      for (const path of ["/index_customers", "/customers", `/customers/${c.id}`, `/customers/${c.id}/reference_types`]) {
        expect((await clients[who].request(path)).status, `${who} ${path}`).toBe(200);
      }
    }
    const d = clients.despatcher;
    expect((await d.json("/api/customers")).status).toBe(403);
    expect((await d.json(`/api/customers/${c.id}`)).status).toBe(403);
    expect((await d.json(`/api/customers/${c.id}`, { method: "PUT", json: { name: "x" } })).status).toBe(403);
    expect((await d.json("/api/customers", { json: { name: "x", code: "XDESP" } })).status).toBe(403);
    expect((await d.json(`/api/customers/${c.id}/update_sites_customer_despatch_enabled`, { method: "PUT", json: { despatch_enabled: false } })).status).toBe(403);
    expect((await d.json(`/api/customers/${c.id}/custom_references`, { json: ["B"] })).status).toBe(403);
    for (const path of ["/index_customers", "/customers", `/customers/${c.id}`, `/customers/${c.id}/reference_types`]) {
      const res = await d.request(path);
      expect(res.status, path).toBe(302);
      expect(res.headers.get("location"), path).toBe("/");
    }
    const posted = await d.request(`/customers/${c.id}`, { form: { name: "Hijack", code: "HIJACK" } });
    expect(posted.status).toBe(302);
    expect((await server.db.select().from(customers).where(eq(customers.id, c.id)))[0]!.name).not.toBe("Hijack");
    expect((await new Client(server.url).json("/api/customers")).status).toBe(401);
  });
});

describe("the customers list", () => {
  it("groups live, test and disabled customers, filters by name or code, and renders the groups", async () => {
    const live = await createCustomer(server.db, { name: "Zeta Listed Live", code: "ZLLIVE", testAccount: false });
    const test = await createCustomer(server.db, { name: "Zeta Listed Test", code: "ZLTEST", testAccount: true });
    const off = await createCustomer(server.db, { name: "Zeta Listed Off", code: "ZLOFF", disabled: true, testAccount: true });
    const all = (await clients.customerService.json<Json>("/api/customers?q=zeta listed")).body.customers as Json[];
    expect(all).toEqual([
      { id: live.id, code: "ZLLIVE", name: "Zeta Listed Live", status: "LIVE" },
      { id: off.id, code: "ZLOFF", name: "Zeta Listed Off", status: "DISABLED" },
      { id: test.id, code: "ZLTEST", name: "Zeta Listed Test", status: "TEST" },
    ]);
    expect((await clients.admin.json<Json>("/api/customers?q=zltest")).body.customers.map((c: Json) => c.id)).toEqual([test.id]);
    expect((await clients.admin.json<Json>("/api/customers?status=TEST&q=zeta")).body.customers.map((c: Json) => c.id)).toEqual([test.id]);
    expect((await clients.admin.json<Json>("/api/customers?status=NOPE")).status).toBe(422);
    // a LIKE wildcard is taken literally
    expect((await clients.admin.json<Json>("/api/customers?q=%25")).body.customers).toEqual([]);
    const html = (await (await clients.customerService.request("/index_customers?q=zeta+listed")).text()).replaceAll("<!-- -->", "");
    expect(html).toMatch(/Live customers \(1\)[\s\S]*Zeta Listed Live[\s\S]*Test customers \(1\)[\s\S]*Zeta Listed Test[\s\S]*Disabled customers \(1\)[\s\S]*Zeta Listed Off/);
    expect(html).toContain('href="/customers"');
  });
});

describe("customer details", () => {
  it("creates a customer (a test account to start with) and reads it back with options and billing address", async () => {
    const made = await post(
      {
        name: "  Gamma Freight ",
        code: "GAMMA",
        branding_prefix: "gam",
        special_instructions: "Ring the bell",
        billing_address: { name: "Gamma Accounts", locality: "MELBOURNE", postcode: "3000", region: "VIC", country: "AUSTRALIA" },
        options: { merge_limit: 4, markup: 12.5, session_timeout: 30, invoice_allocate_by: "SITE", billing_address_from: "ENTERED", placeholder_texts: { reference: "PO number" } },
      },
      "customerService",
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ name: "Gamma Freight", code: "GAMMA", test_account: true, status: "TEST", manifests: 0, special_instructions: "Ring the bell" });
    expect(made.body.options).toEqual({ merge_limit: 4, markup: 12.5, session_timeout: 30, invoice_allocate_by: "SITE", billing_address_from: "ENTERED", placeholder_texts: { reference: "PO number" } });
    expect(made.body.billing_address).toEqual({ name: "Gamma Accounts", locality: "MELBOURNE", postcode: "3000", region: "VIC", country: "AUSTRALIA" });
    expect((await clients.admin.json<Json>(`/api/customers/${made.body.id}`)).body).toEqual(made.body);
    // a blank session timeout removes the option: 720 applies
    const blank = await put(made.body.id, { options: { session_timeout: "" } });
    expect(blank.body.options.session_timeout).toBeUndefined();
    expect(blank.body.options.merge_limit).toBe(4);
    expect((await clients.admin.json(`/api/customers/999999`)).status).toBe(404);
  });

  it("answers 422 per field with the messages", async () => {
    const bad = await post({ name: "", code: "bad code!", branding_prefix: "no spaces", options: { markup: "lots", merge_limit: 7, session_timeout: 0 }, special_instructions: "x".repeat(81) });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toMatchObject({
      code: [MESSAGES.codeFormat],
      branding_prefix: [MESSAGES.brandingPrefix],
      "options.markup": [MESSAGES.markup],
      "options.merge_limit": [MESSAGES.mergeLimit],
      "options.session_timeout": [MESSAGES.sessionTimeout],
      special_instructions: [MESSAGES.specialInstructions],
    });
    const missing = await post({ code: "NONAME" });
    expect(missing.body.errors).toEqual({ name: [MESSAGES.nameRequired] });
    const taken = await post({ name: "Dup", code: demo.acme.code.toLowerCase() });
    expect(taken.body.errors).toEqual({ code: [MESSAGES.codeTaken] });
    const otherSite = await put(demo.testCustomer.id, { options: { billing_address_from: demo.sites.melbourne.id } });
    expect(otherSite.status).toBe(422);
    expect(otherSite.body.errors).toEqual({ "options.billing_address_from": [MESSAGES.billingSite] });
  });

  it("keeps customer POD updates and send-all-tracking-updates off without customer despatch; stores billing by site and by region", async () => {
    const c = await createCustomer(server.db);
    const site = await createSite(server.db, c.id);
    const off = await put(c.id, { customer_despatch_enabled: false, tracking_despatch_enabled: true, options: { send_all_tracking_updates: true } });
    expect(off.body).toMatchObject({ customer_despatch_enabled: false, tracking_despatch_enabled: false });
    expect(off.body.options.send_all_tracking_updates).toBe(false);
    const on = await put(c.id, { customer_despatch_enabled: true, tracking_despatch_enabled: true, options: { send_all_tracking_updates: true, billing_address_from: site.id } });
    expect(on.body).toMatchObject({ tracking_despatch_enabled: true, options: { send_all_tracking_updates: true, billing_address_from: String(site.id) } });
    const map = await put(c.id, { options: { billing_address_from: { NSW: site.id, VIC: String(site.id) } } });
    expect(map.body.options.billing_address_from).toEqual({ NSW: site.id, VIC: site.id });
  });

  it("saves from the screen's form: unticked boxes are false, 'Customer was saved.' follows, errors stay beside their fields", async () => {
    const c = await createCustomer(server.db, { mergingEnabled: true, testAccount: true });
    const form = { name: "Form Co", code: c.code, test_account: "on", customer_despatch_enabled: "on", "options.merge_limit": "5", "options.session_timeout": "", "billing_address.locality": "SYDNEY" };
    const saved = await clients.admin.request(`/customers/${c.id}`, { form });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe(`/customers/${c.id}?saved=1`);
    const [row] = await server.db.select().from(customers).where(eq(customers.id, c.id));
    expect(row).toMatchObject({ name: "Form Co", mergingEnabled: false, testAccount: true, despatchEnabled: false, billingAddress: { locality: "SYDNEY" } });
    expect(row!.options.merge_limit).toBe(5);
    expect(await (await clients.admin.request(`/customers/${c.id}?saved=1`)).text()).toContain(MESSAGES.saved);
    const refused = await clients.admin.request(`/customers/${c.id}`, { form: { ...form, name: "", "options.markup": "abc" } });
    expect(refused.status).toBe(422);
    const html = await refused.text();
    expect(html).toContain(MESSAGES.markup);
    expect(html).toContain('id="options-markup-error"');
    const made = await clients.customerService.request("/customers", { form: { name: "Made On Screen", code: "SCREENMADE", test_account: "on" } });
    expect(made.status).toBe(302);
    expect(made.headers.get("location")).toMatch(/^\/customers\/\d+\?saved=1$/);
  });
});

describe("going live", () => {
  async function testCustomerWithConsignments() {
    const c = await createCustomer(server.db, { testAccount: true });
    const site = await createSite(server.db, c.id);
    const carrier = await createCarrier(server.db);
    const account = await createCarrierAccount(server.db, site.id, carrier.id);
    const [m] = await server.db.insert(manifests).values({ customerId: c.id, siteId: site.id, carrierAccountId: account.id, number: "M000001" }).returning();
    const made = await server.db
      .insert(consignments)
      .values([
        { customerId: c.id, siteId: site.id, manifestId: m!.id, state: "despatched" as const },
        { customerId: c.id, siteId: site.id },
      ])
      .returning({ id: consignments.id });
    await server.db.insert(consignmentItems).values({ consignmentId: made[0]!.id, position: 0, quantity: 1 } as typeof consignmentItems.$inferInsert);
    return { c, ids: made.map((r) => r.id) };
  }

  it("is refused to admin, customer service and for a new live customer: 'Your privilege level does not allow this'", async () => {
    const { c } = await testCustomerWithConsignments();
    for (const who of ["admin", "customerService"] as const) {
      const res = await put(c.id, { test_account: false }, who);
      expect(res.status, who).toBe(403);
      expect(res.body.errors).toEqual({ test_account: [MESSAGES.privilege] });
      const screen = await clients[who].request(`/customers/${c.id}`, { form: { name: c.name, code: c.code } });
      expect(screen.status, who).toBe(403);
      expect(await screen.text()).toContain(MESSAGES.privilege);
    }
    expect((await post({ name: "Live at birth", code: "LIVEBIRTH", test_account: false }, "admin")).body.errors).toEqual({ test_account: [MESSAGES.privilege] });
    expect((await post({ name: "Live at birth", code: "LIVEBIRTH", test_account: false }, "superAdmin")).status).toBe(201);
    const [row] = await server.db.select().from(customers).where(eq(customers.id, c.id));
    expect(row!.testAccount).toBe(true);
    // making a live customer a test account again is no going live
    const live = await createCustomer(server.db, { testAccount: false });
    expect((await put(live.id, { test_account: true }, "admin")).body).toMatchObject({ test_account: true, test_account_previous: false });
  });

  it("by a super admin keeps the consignments unless asked, or deletes every consignment and manifest of the customer in one go", async () => {
    const kept = await testCustomerWithConsignments();
    const live = await put(kept.c.id, { test_account: false }, "superAdmin");
    expect(live.status).toBe(200);
    expect(live.body).toMatchObject({ test_account: false, test_account_previous: true, status: "LIVE", manifests: 1 });
    expect(live.body.deleted).toBeUndefined();
    expect(await server.db.select().from(consignments).where(eq(consignments.customerId, kept.c.id))).toHaveLength(2);

    const wiped = await testCustomerWithConsignments();
    const other = await testCustomerWithConsignments();
    const res = await put(wiped.c.id, { test_account: false, delete_consignments: true }, "devs");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "LIVE", manifests: 0, deleted: { consignments: 2, manifests: 1 } });
    expect(await server.db.select().from(consignments).where(eq(consignments.customerId, wiped.c.id))).toEqual([]);
    expect(await server.db.select().from(consignmentItems).where(eq(consignmentItems.consignmentId, wiped.ids[0]!))).toEqual([]);
    expect(await server.db.select().from(consignments).where(eq(consignments.customerId, other.c.id))).toHaveLength(2);
    // delete_consignments on a customer already live deletes nothing
    expect((await put(wiped.c.id, { delete_consignments: true, name: "Still live" }, "superAdmin")).body.deleted).toBeUndefined();
  });

  it("on the screen asks a super admin to confirm, then deletes when the box is ticked", async () => {
    const { c } = await testCustomerWithConsignments();
    const form = { name: c.name, code: c.code, customer_despatch_enabled: "on" };
    const asked = await clients.superAdmin.request(`/customers/${c.id}`, { form });
    expect(asked.status).toBe(200);
    const html = await asked.text();
    expect(html).toContain('data-testid="go-live-confirm"');
    expect((await server.db.select().from(customers).where(eq(customers.id, c.id)))[0]!.testAccount).toBe(true);
    const done = await clients.superAdmin.request(`/customers/${c.id}`, { form: { ...form, confirm_go_live: "yes", delete_consignments: "on" } });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe(`/customers/${c.id}?saved=1&deleted=2,1`);
    expect(await server.db.select().from(manifests).where(eq(manifests.customerId, c.id))).toEqual([]);
  });
});

describe("sites' despatch and custom references", () => {
  it("sets despatch_enabled on every site of the customer and no other's", async () => {
    const c = await createCustomer(server.db);
    await createSite(server.db, c.id);
    await createSite(server.db, c.id, { despatchEnabled: false });
    const res = await clients.admin.json<Json>(`/api/customers/${c.id}/update_sites_customer_despatch_enabled`, { method: "PUT", json: { despatch_enabled: false } });
    expect(res.body).toEqual({ id: c.id, despatch_enabled: false, sites: 2 });
    expect((await server.db.select().from(sites).where(eq(sites.customerId, c.id))).map((s) => s.despatchEnabled)).toEqual([false, false]);
    expect((await server.db.select().from(sites).where(eq(sites.id, demo.sites.melbourne.id)))[0]!.despatchEnabled).toBe(true);
    expect((await clients.admin.json<Json>(`/api/customers/${c.id}/update_sites_customer_despatch_enabled`, { method: "PUT", json: { despatch_enabled: "yes" } })).status).toBe(422);
    expect((await clients.admin.json<Json>(`/api/customers/999999/update_sites_customer_despatch_enabled`, { method: "PUT", json: { despatch_enabled: true } })).status).toBe(404);
  });

  it("stores the references in order for a dropdown_generic customer, which the consignment screen then offers", async () => {
    const c = await createCustomer(server.db, { customConsignmentReferenceType: "dropdown_generic", options: { markup: 3 } });
    const saved = await clients.admin.json<Json>(`/api/customers/${c.id}/custom_references`, { json: ["Zulu", { reference: "Alpha" }, " Mike "] });
    expect(saved.status).toBe(200);
    expect(saved.body.custom_references).toEqual([
      { id: 1, customer_id: c.id, reference: "Zulu" },
      { id: 2, customer_id: c.id, reference: "Alpha" },
      { id: 3, customer_id: c.id, reference: "Mike" },
    ]);
    const [row] = await server.db.select().from(customers).where(eq(customers.id, c.id));
    expect(row!.options).toEqual({ markup: 3, custom_references: ["Zulu", "Alpha", "Mike"] });
    expect((await clients.admin.json<Json>(`/api/customers/${c.id}/custom_references`, { json: { custom_references: ["x".repeat(4000)] } })).status).toBe(200);
    const long = await clients.admin.json<Json>(`/api/customers/${c.id}/custom_references`, { json: ["ok", "x".repeat(4001)] });
    expect(long.status).toBe(422);
    expect(long.body.errors).toEqual({ "1": [MESSAGES.referenceTooLong] });
    expect((await clients.admin.json<Json>(`/api/customers/${c.id}/custom_references`, { json: ["a", "a"] })).body.errors).toEqual({ "1": [MESSAGES.referenceDuplicate] });
    expect((await clients.admin.json<Json>(`/api/customers/${c.id}/custom_references`, { json: { nope: 1 } })).status).toBe(422);
    expect((await clients.admin.request(`/api/customers/${c.id}/custom_references`, { method: "POST", headers: { "content-type": "application/json" } })).status).toBe(400);
    const text = await createCustomer(server.db);
    expect((await clients.admin.json<Json>(`/api/customers/${text.id}/custom_references`, { json: ["A"] })).body.errors).toEqual({ custom_references: [MESSAGES.referencesNotGeneric] });
  });

  it("refuses to sort on the screen while rows are unsaved, and sorts what is saved", async () => {
    const c = await createCustomer(server.db, { customConsignmentReferenceType: "dropdown_generic", options: { custom_references: ["One", "Two"] } });
    const path = `/customers/${c.id}/reference_types`;
    const unsaved = await clients.admin.request(path, { form: { reference: "One", intent: "down:0" } });
    expect(unsaved.status).toBe(409);
    expect(await unsaved.text()).toContain(MESSAGES.saveBeforeSorting);
    const body = new URLSearchParams([["reference", "One"], ["reference", "Two"], ["intent", "down:0"]]).toString();
    const sorted = await fetch(server.url + path, { method: "POST", headers: { cookie: clients.admin.cookie, "content-type": "application/x-www-form-urlencoded" }, body, redirect: "manual" });
    expect(sorted.status).toBe(302);
    expect((await server.db.select().from(customers).where(eq(customers.id, c.id)))[0]!.options.custom_references).toEqual(["Two", "One"]);
  });
});
