import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carrierAccountValidations, carrierAccounts, consignments, localities, users } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { createCarrier, createCarrierAccount, createService, createSite } from "../../db/seed/factories";
import { ACCOUNT_MESSAGES, belowCurrentMessage, fitsDigitsMessage } from "../../app/modules/customers/accounts";
import { SITE_MESSAGES } from "../../app/modules/customers/sites";
import { allocateConsignmentNumbers } from "../../app/modules/numbers/numbers.server";
import { Client, startTestServer, type TestServer } from "../support/server";

/**
 * Sites and carrier accounts administration (issue 16 items 2 and 3; spec 2 /customers/{id}/index_sites,
 * /customers/{id}/sites/{siteId?}, .../accounts/{accountId?} and their /api calls).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

let server: TestServer;
let demo: Awaited<ReturnType<typeof seedDemo>>;
let carrier: { id: number; code: string };
let serviceCode: string;
const ROLES = { devs: "devs@example.com", superAdmin: "superadmin@example.com", admin: "admin@example.com", customerService: "customerservice@example.com", despatcher: "despatcher@example.com" };
const clients = {} as Record<keyof typeof ROLES, Client>;

beforeAll(async () => {
  server = await startTestServer();
  demo = await seedDemo(server.db);
  await server.db.insert(localities).values([
    { country: "AUSTRALIA", locality: "MELBOURNE", postcode: "3000", region: "VIC" },
    { country: "AUSTRALIA", locality: "DANDENONG SOUTH", postcode: "3175", region: "VIC" },
    { country: "AUSTRALIA", locality: "RICHMOND", postcode: "3121", region: "VIC" },
    { country: "AUSTRALIA", locality: "RICHMOND", postcode: "2753", region: "NSW" },
  ]);
  carrier = await createCarrier(server.db, { code: "SITEACC", name: "Site Account Carrier" });
  serviceCode = (await createService(server.db, carrier.id, { code: "STD", name: "Standard" })).code;
  for (const [k, email] of Object.entries(ROLES)) {
    const client = new Client(server.url);
    expect((await client.signIn(email)).status).toBe(200);
    clients[k as keyof typeof ROLES] = client;
  }
}, 120_000);
afterAll(() => server?.close());

const siteBody = (code: string, over: Json = {}) => ({
  code,
  name: `Site ${code}`,
  address: { address_line_1: "1 Test Street", locality: "Melbourne", postcode: "3000" },
  som: "metric",
  opening_time: "08:00",
  closing_time: "17:00",
  timezone: "Australia/Melbourne",
  ...over,
});
const accountBody = (over: Json = {}) => ({
  carrier_code: carrier.code,
  account_number: `ACC${Math.random().toString(36).slice(2, 8)}`,
  consignment_number_prefix: "SA",
  consignment_number_digits: 8,
  consignment_range_start: 1,
  consignment_range_end: 1000,
  manifest_number_digits: 6,
  manifest_range_start: 1,
  manifest_range_end: 999,
  ...over,
});
const sitesPath = (customerId = demo.acme.id) => `/api/customers/${customerId}/sites`;
const accountsPath = (siteId: number, customerId = demo.acme.id) => `/api/customers/${customerId}/sites/${siteId}/accounts`;

describe("sites through the API", () => {
  it("creates, lists, reads, changes and deletes a site; postcode and region come from the locality", async () => {
    const created = await clients.admin.json<Json>(sitesPath(), { json: siteBody("API1", { address: { address_line_1: "1 Test Street", locality: "melbourne", region: "NSW" }, site_options: { placeholder_texts: { reference: "PO number" } } }) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ code: "API1", customer_id: demo.acme.id, som: "metric", timezone: "Australia/Melbourne", site_options: { placeholder_texts: { reference: "PO number" } } });
    // the typed region is not taken: the locality found decides it
    expect(created.body.address).toMatchObject({ locality: "MELBOURNE", postcode: "3000", region: "VIC" });
    const id = created.body.id as number;

    const list = await clients.customerService.json<Json>(`${sitesPath()}?filter=api`);
    expect(list.body.sites.map((s: Json) => s.code)).toEqual(["API1"]);
    expect((await clients.admin.json<Json>(`${sitesPath()}/${id}`)).body).toMatchObject({ id, code: "API1", accounts: [] });

    const changed = await clients.superAdmin.json<Json>(`${sitesPath()}/${id}`, { method: "PUT", json: { som: "imperial", address: { locality: "DANDENONG SOUTH", postcode: "" }, site_options: { different_billing_address: true }, billing_address: { name: "Accounts", locality: "SYDNEY", postcode: "2000" } } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ som: "imperial", address: { locality: "DANDENONG SOUTH", postcode: "3175", address_line_1: "1 Test Street" }, billing_address: { name: "Accounts" }, opening_time: "08:00" });

    expect((await clients.admin.json<Json>(`${sitesPath()}/${id}`, { method: "DELETE" })).body).toEqual({ id, deleted: true });
    expect((await clients.admin.json(`${sitesPath()}/${id}`)).status).toBe(404);
  });

  it("refuses bad fields, a code used twice, an unknown or ambiguous locality, with field errors", async () => {
    const bad = await clients.admin.json<Json>(sitesPath(), { json: siteBody("", { opening_time: "9am", timezone: "Mars/Base", som: "cubits" }) });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(["code", "opening_time", "som", "timezone"]);
    expect(bad.body.errors.code).toEqual([SITE_MESSAGES.codeRequired]);
    const late = await clients.admin.json<Json>(sitesPath(), { json: siteBody("LATE", { opening_time: "17:00", closing_time: "08:00" }) });
    expect(late.body.errors).toEqual({ closing_time: [SITE_MESSAGES.closingBeforeOpening] });

    expect((await clients.admin.json(sitesPath(), { json: siteBody("DUP") })).status).toBe(201);
    const twice = await clients.admin.json<Json>(sitesPath(), { json: siteBody("dup") });
    expect(twice.status).toBe(422);
    expect(twice.body.errors).toEqual({ code: [SITE_MESSAGES.codeTaken] });

    const nowhere = await clients.admin.json<Json>(sitesPath(), { json: siteBody("NOWHERE", { address: { locality: "ATLANTIS" } }) });
    expect(Object.keys(nowhere.body.errors)).toEqual(["address.locality"]);
    const two = await clients.admin.json<Json>(sitesPath(), { json: siteBody("TWO", { address: { locality: "RICHMOND" } }) });
    expect(Object.keys(two.body.errors)).toEqual(["address.locality"]);
    expect((await clients.admin.json(sitesPath(), { json: siteBody("ONE", { address: { locality: "RICHMOND", postcode: "2753" } }) })).status).toBe(201);
  });

  it("refuses to delete a site while consignments, accounts or users' default site use it", async () => {
    const withCon = await createSite(server.db, demo.acme.id, { code: "USEDCON" });
    await server.db.insert(consignments).values({ customerId: demo.acme.id, siteId: withCon.id });
    const refused = await clients.admin.json<Json>(`${sitesPath()}/${withCon.id}`, { method: "DELETE" });
    expect(refused.status).toBe(409);
    expect(refused.body.errors.base).toEqual(["Site USEDCON cannot be deleted: it is used by 1 consignment."]);

    const withAccount = await createSite(server.db, demo.acme.id, { code: "USEDACC" });
    await createCarrierAccount(server.db, withAccount.id, carrier.id);
    expect((await clients.admin.json<Json>(`${sitesPath()}/${withAccount.id}`, { method: "DELETE" })).body.errors.base[0]).toContain("1 carrier account");

    const asDefault = await createSite(server.db, demo.acme.id, { code: "USEDDEF" });
    await server.db.update(users).set({ defaultSiteId: asDefault.id }).where(eq(users.email, ROLES.despatcher));
    expect((await clients.admin.json<Json>(`${sitesPath()}/${asDefault.id}`, { method: "DELETE" })).body.errors.base[0]).toContain("default site");
    await server.db.update(users).set({ defaultSiteId: demo.sites.melbourne.id }).where(eq(users.email, ROLES.despatcher));
    expect((await clients.admin.json(`${sitesPath()}/${asDefault.id}`, { method: "DELETE" })).status).toBe(200);
  });

  it("answers 404 for another customer's site and for a customer that is not there", async () => {
    const other = await createSite(server.db, demo.testCustomer.id, { code: "OTHERCUS" });
    expect((await clients.admin.json(`${sitesPath()}/${other.id}`)).status).toBe(404);
    expect((await clients.admin.json(`${sitesPath()}/${other.id}`, { method: "PUT", json: { som: "imperial" } })).status).toBe(404);
    expect((await clients.admin.json(accountsPath(other.id))).status).toBe(404);
    expect((await clients.admin.json(sitesPath(999_999))).status).toBe(404);
  });
});

describe("carrier accounts through the API", () => {
  it("creates and changes an account with service, notes with author, remaining and warnings", async () => {
    const created = await clients.admin.json<Json>(accountsPath(demo.sites.melbourne.id), { json: accountBody({ service_code: serviceCode, pickup_at: true, notes_attributes: [{ text: "Opened by phone" }] }) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ carrier_code: "SITEACC", service_code: "STD", pickup_at: true, consignment_current: null, remaining: { consignment: 1000 }, account_options: { auto_despatch: false } });
    expect(created.body.notes).toEqual([expect.objectContaining({ text: "Opened by phone", created_by: "Alex Admin" })]);
    const path = `${accountsPath(demo.sites.melbourne.id)}/${created.body.id}`;

    const changed = await clients.customerService.json<Json>(path, { method: "PUT", json: { support_email: "ops@carrier.example", notes_attributes: [{ text: "Second" }] } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ support_email: "ops@carrier.example", service_code: "STD", pickup_at: true });
    expect(changed.body.notes.map((n: Json) => [n.text, n.created_by])).toEqual([
      ["Second", "Casey Service"],
      ["Opened by phone", "Alex Admin"],
    ]);
    expect((await clients.admin.json<Json>(accountsPath(demo.sites.melbourne.id))).body.accounts.map((a: Json) => a.id)).toContain(created.body.id);
    expect((await clients.admin.json<Json>(`/api/customers/${demo.acme.id}/sites/${demo.sites.melbourne.id}`)).body.accounts.map((a: Json) => a.id)).toContain(created.body.id);

    const tooLong = await clients.admin.json<Json>(path, { method: "PUT", json: { notes_attributes: [{ text: "x".repeat(256) }] } });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.errors).toEqual({ "notes_attributes.0.text": [ACCOUNT_MESSAGES.noteTooLong] });

    const badService = await clients.admin.json<Json>(path, { method: "PUT", json: { service_code: "NOPE" } });
    expect(badService.body.errors).toEqual({ service_code: [ACCOUNT_MESSAGES.serviceUnknown] });
    const badRange = await clients.admin.json<Json>(path, { method: "PUT", json: { consignment_number_digits: 3, consignment_range_end: 1000 } });
    expect(badRange.body.errors).toEqual({ consignment_range_end: [fitsDigitsMessage(3)] });
  });

  it("warns when a range is nearly used up or overlaps another account of the carrier with the same prefix", async () => {
    const first = await clients.admin.json<Json>(accountsPath(demo.sites.melbourne.id), { json: accountBody({ consignment_number_prefix: "OV", consignment_range_start: 1, consignment_range_end: 100 }) });
    await server.db.update(carrierAccounts).set({ consignmentCurrent: 95 }).where(eq(carrierAccounts.id, first.body.id));
    const second = await clients.admin.json<Json>(accountsPath(demo.sites.sydney.id), { json: accountBody({ consignment_number_prefix: "OV", consignment_range_start: 50, consignment_range_end: 500, manifest_number_prefix: "MX" }) });
    expect(second.body.warnings).toEqual([expect.stringMatching(new RegExp(`^Consignment number range overlaps account ${first.body.account_number}`))]);
    const again = await clients.admin.json<Json>(`${accountsPath(demo.sites.melbourne.id)}/${first.body.id}`);
    expect(again.body.warnings).toEqual(expect.arrayContaining(["Consignment number range is nearly exhausted: 5 of 100 left", expect.stringContaining(`overlaps account ${second.body.account_number}`)]));
    const apart = await clients.admin.json<Json>(accountsPath(demo.sites.sydney.id), { json: accountBody({ consignment_number_prefix: "OTHER", consignment_range_start: 50, consignment_range_end: 500, manifest_number_prefix: "MY" }) });
    expect(apart.body.warnings).toEqual([]);
  });

  it("enforces the carrier's account validations, every failing one on its field", async () => {
    const strict = await createCarrier(server.db, { code: "STRICT", name: "Strict Carrier" });
    await server.db.insert(carrierAccountValidations).values([
      { carrierId: strict.id, field: "account_number", rule: "start_with", modifier: "in", validation: "NL,VL", message: "Account number must start with NL or VL" },
      { carrierId: strict.id, field: "consignment_number_range_start", rule: "length", modifier: "equal", validation: "4", message: "Range start must have 4 digits" },
      { carrierId: strict.id, field: "consignment_number_prefix", rule: "be", modifier: "equal", validation: "ST", message: "Prefix must be ST" },
    ]);
    const refused = await clients.admin.json<Json>(accountsPath(demo.sites.melbourne.id), { json: accountBody({ carrier_code: "STRICT", account_number: "nl123", consignment_range_start: 1, consignment_number_prefix: "st" }) });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ account_number: ["Account number must start with NL or VL"], consignment_range_start: ["Range start must have 4 digits"], consignment_number_prefix: ["Prefix must be ST"] });
    const ok = await clients.admin.json<Json>(accountsPath(demo.sites.melbourne.id), { json: accountBody({ carrier_code: "STRICT", account_number: "VL123", consignment_range_start: 1000, consignment_number_prefix: "ST" }) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    // a change is checked too
    const change = await clients.admin.json<Json>(`${accountsPath(demo.sites.melbourne.id)}/${ok.body.id}`, { method: "PUT", json: { account_number: "XX1" } });
    expect(change.body.errors).toEqual({ account_number: ["Account number must start with NL or VL"] });
  });

  it("lets only a super admin change auto despatch", async () => {
    const a = await clients.admin.json<Json>(accountsPath(demo.sites.melbourne.id), { json: accountBody() });
    const path = `${accountsPath(demo.sites.melbourne.id)}/${a.body.id}`;
    const refused = await clients.admin.json<Json>(path, { method: "PUT", json: { account_options: { auto_despatch: true } } });
    expect(refused.status).toBe(403);
    expect(refused.body.errors).toEqual({ "account_options.auto_despatch": [ACCOUNT_MESSAGES.autoDespatch] });
    expect((await clients.admin.json(accountsPath(demo.sites.melbourne.id), { json: accountBody({ account_options: { auto_despatch: true } }) })).status).toBe(403);
    const done = await clients.superAdmin.json<Json>(path, { method: "PUT", json: { account_options: { auto_despatch: true } } });
    expect(done.body.account_options).toEqual({ auto_despatch: true });
    // others may still save the account: absent or unchanged auto despatch is no change
    expect((await clients.admin.json<Json>(path, { method: "PUT", json: { booking_email: "book@x.example" } })).body.account_options).toEqual({ auto_despatch: true });
    expect((await clients.admin.json(path, { method: "PUT", json: { account_options: { auto_despatch: true } } })).status).toBe(200);
  });

  it("moves the current value only forward and refuses an end below it", async () => {
    const a = await clients.admin.json<Json>(accountsPath(demo.sites.melbourne.id), { json: accountBody({ consignment_range_start: 1, consignment_range_end: 100 }) });
    const path = `${accountsPath(demo.sites.melbourne.id)}/${a.body.id}`;
    await server.db.transaction((tx) => allocateConsignmentNumbers(tx, a.body.id, 5));
    // a lower start does not bring numbers 1..5 back
    let r = await clients.admin.json<Json>(path, { method: "PUT", json: { consignment_range_start: 1 } });
    expect(r.body).toMatchObject({ consignment_current: 5, remaining: { consignment: 95 } });
    r = await clients.admin.json<Json>(path, { method: "PUT", json: { consignment_range_start: 3 } });
    expect(r.body.consignment_current).toBe(5);
    r = await clients.admin.json<Json>(path, { method: "PUT", json: { consignment_range_start: 50 } });
    expect(r.body).toMatchObject({ consignment_current: 49, remaining: { consignment: 51 } });
    expect(await server.db.transaction((tx) => allocateConsignmentNumbers(tx, a.body.id, 1))).toEqual(["SA00000050"]);
    const refused = await clients.admin.json<Json>(path, { method: "PUT", json: { consignment_range_start: 1, consignment_range_end: 49 } });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ consignment_range_end: [belowCurrentMessage(50)] });
    // nothing of the refused change was written
    expect((await clients.admin.json<Json>(path)).body).toMatchObject({ consignment_range_start: 50, consignment_range_end: 100, consignment_current: 50 });
  });

  it("never issues a number twice, nor outside the range, while ranges change under 50 parallel allocations", async () => {
    const a = await clients.admin.json<Json>(accountsPath(demo.sites.melbourne.id), { json: accountBody({ consignment_number_prefix: "CC", consignment_range_start: 1, consignment_range_end: 100_000 }) });
    const path = `${accountsPath(demo.sites.melbourne.id)}/${a.body.id}`;
    const allocations = Array.from({ length: 50 }, (_, i) => server.db.transaction((tx) => allocateConsignmentNumbers(tx, a.body.id, 1 + (i % 4))));
    // starts jump ahead while numbers are being taken; ends stay above anything taken
    const changes = [100, 200, 150, 400, 300].map((start, i) => clients.admin.json<Json>(path, { method: "PUT", json: { consignment_range_start: start, consignment_range_end: 100_000 - i } }));
    const [issued, changed] = await Promise.all([Promise.all(allocations), Promise.all(changes)]);
    expect(changed.map((c) => c.status)).toEqual([200, 200, 200, 200, 200]);
    const numbers = issued.flat().map((n) => Number(n.slice(2)));
    // 1 to 4 numbers each: 12 rounds of 1+2+3+4, then 1 and 2
    expect(numbers).toHaveLength(123);
    expect(new Set(numbers).size).toBe(numbers.length);
    const [row] = await server.db.select().from(carrierAccounts).where(eq(carrierAccounts.id, a.body.id));
    for (const n of numbers) {
      expect(n).toBeGreaterThanOrEqual(1);
      expect(n).toBeLessThanOrEqual(row!.consignmentRangeEnd);
    }
    // the current value is past every number handed out: the next one is new
    expect(row!.consignmentCurrent).toBeGreaterThanOrEqual(Math.max(...numbers));
    expect(row!.consignmentCurrent).toBeGreaterThanOrEqual(399);
    const next = Number((await server.db.transaction((tx) => allocateConsignmentNumbers(tx, a.body.id, 1)))[0]!.slice(2));
    expect(numbers).not.toContain(next);
  });
});

describe("who may use sites and accounts", () => {
  it("the team view may call every route; a despatcher gets 403 and no session 401", async () => {
    const site = await createSite(server.db, demo.acme.id, { code: "ROLEMAT" });
    const account = await createCarrierAccount(server.db, site.id, carrier.id);
    const base = `${sitesPath()}/${site.id}`;
    const calls: Array<[string, string, Json | undefined]> = [
      ["GET", sitesPath(), undefined],
      ["GET", base, undefined],
      ["PUT", base, { dg_contact_name: "Role Check" }],
      ["GET", `${base}/accounts`, undefined],
      ["GET", `${base}/accounts/${account.id}`, undefined],
      ["PUT", `${base}/accounts/${account.id}`, { booking_email: "b@x.example" }],
    ];
    for (const role of ["devs", "superAdmin", "admin", "customerService"] as const) {
      for (const [method, path, json] of calls) expect((await clients[role].json(path, { method, json })).status, `${role} ${method} ${path}`).toBe(200);
      expect((await clients[role].json(sitesPath(), { json: siteBody(`R${role.toUpperCase()}`) })).status, `${role} POST site`).toBe(201);
      expect((await clients[role].json(`${base}/accounts`, { json: accountBody() })).status, `${role} POST account`).toBe(201);
    }
    const posts: Array<[string, string, Json]> = [
      ["POST", sitesPath(), siteBody("DESP")],
      ["POST", `${base}/accounts`, accountBody()],
      ["DELETE", base, {}],
    ];
    for (const [method, path, json] of [...calls, ...posts]) {
      expect((await clients.despatcher.json(path, { method, json: method === "GET" ? undefined : json })).status, `despatcher ${method} ${path}`).toBe(403);
      expect((await new Client(server.url).json(path, { method, json: method === "GET" ? undefined : json })).status, `anonymous ${method} ${path}`).toBe(401);
    }
    const deletable = await createSite(server.db, demo.acme.id, { code: "ROLEDEL" });
    expect((await clients.customerService.json(`${sitesPath()}/${deletable.id}`, { method: "DELETE" })).status).toBe(200);
  });

  it("the screens: the team view sees them, others go to /", async () => {
    const account = await createCarrierAccount(server.db, demo.sites.melbourne.id, carrier.id);
    const pages = [`/customers/${demo.acme.id}/index_sites`, `/customers/${demo.acme.id}/sites`, `/customers/${demo.acme.id}/sites/${demo.sites.melbourne.id}`, `/customers/${demo.acme.id}/sites/${demo.sites.melbourne.id}/accounts`, `/customers/${demo.acme.id}/sites/${demo.sites.melbourne.id}/accounts/${account.id}`];
    for (const page of pages) {
      for (const role of ["devs", "superAdmin", "admin", "customerService"] as const) expect((await clients[role].request(page)).status, `${role} ${page}`).toBe(200);
      const res = await clients.despatcher.request(page);
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/");
      // and a despatcher's post to a screen's form changes nothing (the list has no form)
      if (!page.endsWith("index_sites")) expect((await clients.despatcher.request(page, { form: { code: "X" } })).headers.get("location")).toBe("/");
    }
    const other = await createSite(server.db, demo.testCustomer.id, { code: "OTHERPAGE" });
    expect((await clients.admin.request(`/customers/${demo.acme.id}/sites/${other.id}`)).status).toBe(404);
  });

  it("the screens' forms save without JavaScript, with the spec's messages", async () => {
    const form = { code: "FORM1", "address.name": "Form Site", "address.address_line_1": "2 Form Road", "address.locality": "MELBOURNE", "address.postcode": "", "address.country": "AUSTRALIA", som: "metric", opening_time: "07:00", closing_time: "16:00", timezone: "Australia/Melbourne", despatch_enabled: "on" };
    const created = await clients.admin.request(`/customers/${demo.acme.id}/sites`, { form });
    expect(created.status).toBe(302);
    const location = created.headers.get("location")!;
    expect(location).toMatch(new RegExp(`^/customers/${demo.acme.id}/sites/\\d+\\?saved=1$`));
    expect(await (await clients.admin.request(location)).text()).toContain(SITE_MESSAGES.saved);
    const siteId = Number(location.split("/")[4]!.split("?")[0]);

    const accountForm = { carrier_code: carrier.code, account_number: "FORMACC", consignment_number_digits: "8", consignment_range_start: "1", consignment_range_end: "500", manifest_number_digits: "6", manifest_range_start: "1", manifest_range_end: "50", sscc_digits: "9", new_note: "From the form" };
    const saved = await clients.admin.request(`/customers/${demo.acme.id}/sites/${siteId}/accounts`, { form: accountForm });
    expect(saved.status).toBe(302);
    const page = await (await clients.admin.request(saved.headers.get("location")!)).text();
    expect(page).toContain(ACCOUNT_MESSAGES.saved);
    expect(page).toContain("From the form");
    const refused = await clients.admin.request(`/customers/${demo.acme.id}/sites/${siteId}/accounts`, { form: { ...accountForm, consignment_range_end: "0" } });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain(ACCOUNT_MESSAGES.failed);
    // the delete button on a used site shows the server's reason
    const del = await clients.admin.request(`/customers/${demo.acme.id}/sites/${siteId}`, { form: { intent: "delete" } });
    expect(del.status).toBe(409);
    expect(await del.text()).toContain("cannot be deleted: it is used by 1 carrier account");
  });
});
