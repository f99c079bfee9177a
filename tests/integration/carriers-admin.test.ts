import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carrierAccountValidations, carriers, consignments, services, surchargeSets, zones } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { createCarrier, createCarrierAccount, createService, createSiteService } from "../../db/seed/factories";
import { CARRIER_MESSAGES, SERVICE_MESSAGES, VALIDATION_MESSAGES } from "../../app/modules/carriers/admin";
import { Client, startTestServer, type TestServer } from "../support/server";

/**
 * Carriers, services and carrier account validations (issue 17 items 1 to 3; spec 2 /carriers,
 * /carrier/{id?}, /carriers/{id}/services..., /carrier-account-validations and their /api calls).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

let server: TestServer;
let demo: Awaited<ReturnType<typeof seedDemo>>;
const ROLES = { admin: "admin@example.com", customerService: "customerservice@example.com", despatcher: "despatcher@example.com" };
const clients = {} as Record<keyof typeof ROLES, Client>;

beforeAll(async () => {
  server = await startTestServer();
  demo = await seedDemo(server.db);
  for (const [k, email] of Object.entries(ROLES)) {
    const client = new Client(server.url);
    expect((await client.signIn(email)).status).toBe(200);
    clients[k as keyof typeof ROLES] = client;
  }
}, 120_000);
afterAll(() => server?.close());

const carrierBody = (code: string, over: Json = {}) => ({ name: `Carrier ${code}`, code, web_url: "https://carrier.example/track", default_email: "help@carrier.example", ...over });
const codeOf = async (id: number) => (await server.db.select({ code: carriers.code }).from(carriers).where(eq(carriers.id, id)))[0]?.code;

describe("carriers through the API", () => {
  it("creates, lists with a filter, reads, changes and deletes a carrier; the adapter and option flags round-trip", async () => {
    const made = await clients.admin.json<Json>("/api/carriers", { json: carrierBody("APIC", { adapter: "simulated", generic: false, pre_despatch: true, auto_book: true }) });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ code: "APIC", rates_service_key: "APIC", adapter: "simulated", pre_despatch: true, auto_book: true, generic: false, app_carrier: false });
    const id = made.body.id as number;
    // customer service may keep carriers too (homeButtons.editCarriers)
    const list = await clients.customerService.json<Json>("/api/carriers?filter=apic");
    expect(list.body.carriers.map((c: Json) => c.code)).toEqual(["APIC"]);
    const changed = await clients.admin.json<Json>(`/api/carriers/${id}`, { method: "PUT", json: { note: "Night pickups", pre_despatch: false } });
    expect(changed.body).toMatchObject({ note: "Night pickups", pre_despatch: false, auto_book: true, adapter: "simulated", name: "Carrier APIC" });
    // the spec's name of the code is accepted too
    expect((await clients.admin.json<Json>(`/api/carriers/${id}`, { method: "PUT", json: { rates_service_key: "APIC2" } })).body.code).toBe("APIC2");
    expect((await clients.admin.json<Json>(`/api/carriers/${id}`, { method: "DELETE" })).body).toEqual({ id, deleted: true });
    expect((await clients.admin.json(`/api/carriers/${id}`)).status).toBe(404);
  });

  it("answers 400 with every field's error, a taken code among them, and refuses generic with app carrier", async () => {
    await createCarrier(server.db, { code: "TAKEN", name: "Taken" });
    const bad = await clients.admin.json<Json>("/api/carriers", { json: { name: "", code: "taken", web_url: "ftp://x", default_email: "nope", adapter: "fax" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({
      name: ["Name is required"],
      code: [CARRIER_MESSAGES.codeTaken],
      web_url: ["Please enter a web address starting with http:// or https://"],
      default_email: ["Please enter a valid e-mail address"],
      adapter: ["Please choose one of the adapters"],
    });
    const both = await clients.admin.json<Json>("/api/carriers", { json: carrierBody("BOTH", { generic: true, app_carrier: true }) });
    expect(both.status).toBe(400);
    expect(both.body.errors).toEqual({ app_carrier: [CARRIER_MESSAGES.exclusive] });
    const app = await clients.admin.json<Json>("/api/carriers", { json: carrierBody("APPC", { app_carrier: true }) });
    expect(app.body).toMatchObject({ app_carrier: true, generic: false });
    // turning generic on for an app carrier is the same conflict
    expect((await clients.admin.json<Json>(`/api/carriers/${app.body.id}`, { method: "PUT", json: { generic: true } })).body.errors).toEqual({ app_carrier: [CARRIER_MESSAGES.exclusive] });
  });

  it("lets no one but staff reach the calls and screens", async () => {
    const c = await createCarrier(server.db, { code: "PRIV", name: "Private" });
    expect((await clients.despatcher.json("/api/carriers")).status).toBe(403);
    expect((await clients.despatcher.json("/api/carriers", { json: carrierBody("NOPE") })).status).toBe(403);
    expect((await clients.despatcher.json(`/api/carriers/${c.id}`, { method: "DELETE" })).status).toBe(403);
    expect((await clients.despatcher.json("/api/update_accounts_carrier_and_service_code/", { method: "PUT", json: { carrier_code: "PRIV", new_carrier_code: "X" } })).status).toBe(403);
    expect((await clients.despatcher.json(`/api/carrier_account_validations?carrier_id=${c.id}`)).status).toBe(403);
    expect((await clients.despatcher.request("/carriers")).status).toBe(302);
    expect((await clients.despatcher.request(`/carrier/${c.id}`, { form: { intent: "delete" } })).status).toBe(302);
    expect(await codeOf(c.id)).toBe("PRIV");
    expect((await new Client(server.url).json("/api/carriers")).status).toBe(401);
  });

  it("refuses to delete a carrier while an account or a consignment uses it, and deletes its own reference data otherwise", async () => {
    const used = await createCarrier(server.db, { code: "USEDACC", name: "Used by account" });
    await createCarrierAccount(server.db, demo.sites.melbourne.id, used.id);
    const refused = await clients.admin.json<Json>(`/api/carriers/${used.id}`, { method: "DELETE" });
    expect(refused.status).toBe(409);
    expect(refused.body.errors.base).toEqual([CARRIER_MESSAGES.inUse(1, 0)]);

    const shipped = await createCarrier(server.db, { code: "USEDCON", name: "Used by consignment" });
    const svc = await createService(server.db, shipped.id, { code: "S1", name: "S1" });
    await server.db.insert(consignments).values({ customerId: demo.acme.id, siteId: demo.sites.melbourne.id, serviceId: svc.id });
    expect((await clients.admin.json<Json>(`/api/carriers/${shipped.id}`, { method: "DELETE" })).body.errors.base).toEqual([CARRIER_MESSAGES.inUse(0, 1)]);
    expect(await codeOf(shipped.id)).toBe("USEDCON");

    const free = await createCarrier(server.db, { code: "FREE", name: "Free" });
    const freeSvc = await createService(server.db, free.id, { code: "F1", name: "F1" });
    await createSiteService(server.db, demo.sites.melbourne.id, freeSvc.id);
    await server.db.insert(zones).values({ carrierId: free.id, postcode: "3000", code: "MEL" });
    await server.db.insert(carrierAccountValidations).values({ carrierId: free.id, field: "account_number", rule: "be", modifier: "equal", validation: "X", message: "m" });
    // through the screen: Delete then back to the list
    const res = await clients.admin.request(`/carrier/${free.id}`, { form: { intent: "delete" } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/carriers?deleted=1");
    expect(await codeOf(free.id)).toBeUndefined();
    expect(await server.db.select().from(services).where(eq(services.carrierId, free.id))).toEqual([]);
    expect(await server.db.select().from(zones).where(eq(zones.carrierId, free.id))).toEqual([]);
  });

  it("PUT /api/carriers/{id}/update_services sets every service's pay on arrival", async () => {
    const c = await createCarrier(server.db, { code: "POA", name: "Pay on arrival" });
    await createService(server.db, c.id, { code: "A", name: "A" });
    await createService(server.db, c.id, { code: "B", name: "B" });
    const on = await clients.admin.json<Json>(`/api/carriers/${c.id}/update_services`, { method: "PUT", json: { pay_on_arrival: true } });
    expect(on.body).toMatchObject({ services_count: 2, services_pay_on_arrival: 2 });
    const off = await clients.admin.json<Json>(`/api/carriers/${c.id}/update_services`, { method: "PUT", json: { pay_on_arrival: false } });
    expect(off.body.services_pay_on_arrival).toBe(0);
    const bad = await clients.admin.json<Json>(`/api/carriers/${c.id}/update_services`, { method: "PUT", json: { pay_on_arrival: "yes please" } });
    expect(bad.status).toBe(400);
    expect((await clients.admin.json(`/api/carriers/999999/update_services`, { method: "PUT", json: { pay_on_arrival: true } })).status).toBe(404);
  });
});

describe("the carrier screens", () => {
  it("saves a new carrier ('Carrier was saved.'), keeps what was typed on a 400, and asks before app carrier and a code change", async () => {
    const form = { intent: "save", name: "Screen Freight", code: "SCREEN", web_url: "", default_email: "", note: "", adapter: "generic", generic: "on" };
    const res = await clients.admin.request("/carrier", { form });
    expect(res.status).toBe(302);
    const location = res.headers.get("location")!;
    expect(location).toMatch(/^\/carrier\/\d+\?saved=1$/);
    expect(await (await clients.admin.request(location)).text()).toContain(CARRIER_MESSAGES.saved);
    const id = Number(location.match(/\d+/)![0]);

    const bad = await clients.admin.request(`/carrier/${id}`, { form: { ...form, name: "", default_email: "not-an-email" } });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain(CARRIER_MESSAGES.notSaved);
    expect(html).toContain("Please enter a valid e-mail address");
    expect(html).toContain('value="not-an-email"');

    // app carrier: asked first (generic unticked, so only the confirmation stands in the way)
    const asked = await clients.admin.request(`/carrier/${id}`, { form: { ...form, generic: "", app_carrier: "on" } });
    expect(asked.status).toBe(400);
    expect(await asked.text()).toContain("confirm_app_carrier");
    expect((await clients.admin.request(`/carrier/${id}`, { form: { ...form, generic: "", app_carrier: "on", confirm_app_carrier: "on" } })).status).toBe(302);

    // a code change on an existing carrier: asked first, then renamed
    const rename = await clients.admin.request(`/carrier/${id}`, { form: { ...form, generic: "", app_carrier: "on", code: "SCREEN2" } });
    expect(rename.status).toBe(400);
    expect(await rename.text()).toContain(CARRIER_MESSAGES.confirmRename);
    expect(await codeOf(id)).toBe("SCREEN");
    expect((await clients.admin.request(`/carrier/${id}`, { form: { ...form, generic: "", app_carrier: "on", code: "SCREEN2", confirm_rename: "on" } })).status).toBe(302);
    expect(await codeOf(id)).toBe("SCREEN2");
    const list = await (await clients.customerService.request("/carriers?filter=screen")).text();
    expect(list).toContain("Screen Freight");
    expect(list).toContain("SCREEN2");
  });

  it("shows a refused delete's own message (409) on the carrier screen", async () => {
    const used = await createCarrier(server.db, { code: "SCRUSED", name: "Screen used" });
    await createCarrierAccount(server.db, demo.sites.melbourne.id, used.id);
    const res = await clients.admin.request(`/carrier/${used.id}`, { form: { intent: "delete" } });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain(CARRIER_MESSAGES.inUse(1, 0));
  });
});

describe("renaming codes", () => {
  async function world(code: string) {
    const c = await createCarrier(server.db, { code, name: `Rename ${code}` });
    const svc = await createService(server.db, c.id, { code: "EXP", name: "Express" });
    const other = await createService(server.db, c.id, { code: "ECO", name: "Economy" });
    const [set] = await server.db
      .insert(surchargeSets)
      .values({ customerId: demo.acme.id, name: code, code, carrierId: c.id, serviceCodes: ["exp", "ECO"] })
      .returning({ id: surchargeSets.id });
    const [con] = await server.db
      .insert(consignments)
      .values({ customerId: demo.acme.id, siteId: demo.sites.melbourne.id, serviceId: svc.id, cheapestCarrierService: `${code}:EXP`, ruleBasedService: `${code}:EXP`, preselectedCarrierService: "EXP" })
      .returning({ id: consignments.id });
    return { c, svc, other, setId: set!.id, conId: con!.id };
  }
  const keysOf = async (id: number) =>
    (await server.db.select({ a: consignments.cheapestCarrierService, b: consignments.ruleBasedService, p: consignments.preselectedCarrierService }).from(consignments).where(eq(consignments.id, id)))[0];
  const codesOf = async (id: number) => (await server.db.select({ s: surchargeSets.serviceCodes }).from(surchargeSets).where(eq(surchargeSets.id, id)))[0]?.s;

  it("renames a carrier and a service code everywhere they are used (with or without the trailing slash)", async () => {
    const w = await world("RENA");
    const res = await clients.admin.json<Json>("/api/update_accounts_carrier_and_service_code/", {
      method: "PUT",
      json: { carrier_code: "rena", new_carrier_code: "RENB", service_code: "EXP", new_service_code: "XPR" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ carrier_id: w.c.id, carrier_code: "RENB", service_id: w.svc.id, service_code: "XPR" });
    expect(await codeOf(w.c.id)).toBe("RENB");
    expect(await keysOf(w.conId)).toEqual({ a: "RENB:XPR", b: "RENB:XPR", p: "XPR" });
    expect(await codesOf(w.setId)).toEqual(["XPR", "ECO"]);
    // the service list shows the new codes
    const list = await clients.admin.json<Json>(`/api/carriers/${w.c.id}/services`);
    expect(list.body.services.map((s: Json) => `${s.carrier_code}:${s.code}`)).toEqual(["RENB:ECO", "RENB:XPR"]);
    // without the slash too
    const again = await clients.admin.json<Json>("/api/update_accounts_carrier_and_service_code", { method: "PUT", json: { carrier_code: "RENB", new_carrier_code: "RENC" } });
    expect(again.body.carrier_code).toBe("RENC");
    expect((await keysOf(w.conId))!.a).toBe("RENC:XPR");
  });

  it("refuses a code already taken, an unknown carrier or service, and a body that renames nothing", async () => {
    const w = await world("RTAKE");
    await createCarrier(server.db, { code: "RTAKEN2", name: "Other" });
    const path = "/api/update_accounts_carrier_and_service_code/";
    const taken = await clients.admin.json<Json>(path, { method: "PUT", json: { carrier_code: "RTAKE", new_carrier_code: "rtaken2" } });
    expect(taken.status).toBe(400);
    expect(taken.body.errors).toEqual({ new_carrier_code: [CARRIER_MESSAGES.codeTaken] });
    const svcTaken = await clients.admin.json<Json>(path, { method: "PUT", json: { carrier_code: "RTAKE", service_code: "EXP", new_service_code: "eco" } });
    expect(svcTaken.body.errors).toEqual({ new_service_code: [SERVICE_MESSAGES.codeTaken] });
    expect((await clients.admin.json(path, { method: "PUT", json: { carrier_code: "NOSUCH", new_carrier_code: "X" } })).status).toBe(404);
    expect((await clients.admin.json(path, { method: "PUT", json: { carrier_code: "RTAKE", service_code: "NOSUCH", new_service_code: "X" } })).status).toBe(404);
    const nothing = await clients.admin.json<Json>(path, { method: "PUT", json: { carrier_code: "RTAKE" } });
    expect(nothing.status).toBe(400);
    expect(nothing.body.errors.base).toEqual(["Give a new carrier code or a new service code"]);
    expect(await codeOf(w.c.id)).toBe("RTAKE");
  });

  it("leaves nothing renamed when a step fails midway (one transaction)", async () => {
    const w = await world("RFAIL");
    // the surcharge sets are renamed after the carrier and the service: make that step fail
    await server.db.execute(sql.raw(`create function refuse_rename() returns trigger language plpgsql as $$ begin raise exception 'refused for the test'; end $$`));
    await server.db.execute(sql.raw(`create trigger refuse_rename before update on surcharge_sets for each row execute function refuse_rename()`));
    try {
      const res = await clients.admin.json<Json>("/api/update_accounts_carrier_and_service_code/", {
        method: "PUT",
        json: { carrier_code: "RFAIL", new_carrier_code: "RFAIL2", service_code: "EXP", new_service_code: "XPR" },
      });
      expect(res.status).toBe(500);
    } finally {
      await server.db.execute(sql.raw(`drop trigger refuse_rename on surcharge_sets`));
      await server.db.execute(sql.raw(`drop function refuse_rename()`));
    }
    expect(await codeOf(w.c.id)).toBe("RFAIL");
    expect((await server.db.select({ code: services.code }).from(services).where(eq(services.id, w.svc.id)))[0]!.code).toBe("EXP");
    expect(await keysOf(w.conId)).toEqual({ a: "RFAIL:EXP", b: "RFAIL:EXP", p: "EXP" });
    expect(await codesOf(w.setId)).toEqual(["exp", "ECO"]);
  });

  it("a service's code changed on its editor is renamed everywhere too", async () => {
    const w = await world("RSVC");
    const res = await clients.admin.json<Json>(`/api/carriers/${w.c.id}/services/${w.svc.id}`, { method: "PUT", json: { code: "FAST" } });
    expect(res.body).toMatchObject({ code: "FAST", carrier_code: "RSVC", name: "Express" });
    expect(await keysOf(w.conId)).toEqual({ a: "RSVC:FAST", b: "RSVC:FAST", p: "FAST" });
    expect(await codesOf(w.setId)).toEqual(["FAST", "ECO"]);
  });
});

describe("services", () => {
  it("creates, reads, changes and deletes a service with every field; 400 per field; another carrier's service is 404", async () => {
    const c = await createCarrier(server.db, { code: "SVCC", name: "Service Carrier" });
    const other = await createCarrier(server.db, { code: "SVCO", name: "Other" });
    const body = {
      code: "ON",
      name: "Overnight",
      type: "overnight",
      group: "Express",
      support_email: "ops@svcc.example",
      route_code: "R9",
      service_name_by_carrier: "Overnight Express",
      service_code_by_carrier: "ONX",
      pay_on_arrival: false,
      dangerous_goods_prohibited: true,
      pickup_at: true,
      merging_enabled: false,
      eligible_for_outbounds: true,
      eligible_for_returns: false,
      despatch_booking: true,
    };
    const made = await clients.admin.json<Json>(`/api/carriers/${c.id}/services`, { json: body });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ ...body, carrier_id: c.id, carrier_code: "SVCC", deliver_at: false });
    const id = made.body.id as number;
    expect((await clients.admin.json(`/api/carriers/${other.id}/services/${id}`)).status).toBe(404);
    expect((await clients.admin.json(`/api/carriers/${other.id}/services/${id}`, { method: "PUT", json: { name: "Hijack" } })).status).toBe(404);
    const dup = await clients.admin.json<Json>(`/api/carriers/${c.id}/services`, { json: { ...body, code: "on", type: "air", support_email: "x" } });
    expect(dup.status).toBe(400);
    expect(dup.body.errors).toEqual({ code: [SERVICE_MESSAGES.codeTaken], type: ["Please choose a type"], support_email: ["Please enter a valid e-mail address"] });
    const changed = await clients.admin.json<Json>(`/api/carriers/${c.id}/services/${id}`, { method: "PUT", json: { eligible_for_returns: true, despatch_booking: false } });
    expect(changed.body).toMatchObject({ eligible_for_returns: true, despatch_booking: false, dangerous_goods_prohibited: true, group: "Express" });
    await server.db.insert(consignments).values({ customerId: demo.acme.id, siteId: demo.sites.melbourne.id, serviceId: id });
    const refused = await clients.admin.json<Json>(`/api/carriers/${c.id}/services/${id}`, { method: "DELETE" });
    expect(refused.status).toBe(409);
    expect(refused.body.errors.base).toEqual([SERVICE_MESSAGES.inUse]);
    const spare = await createService(server.db, c.id, { code: "SP", name: "Spare" });
    expect((await clients.admin.json<Json>(`/api/carriers/${c.id}/services/${spare.id}`, { method: "DELETE" })).body).toEqual({ id: spare.id, deleted: true });
  });

  it("saves through the screen with 'service was saved.' and shows field errors on a 400", async () => {
    const c = await createCarrier(server.db, { code: "SVSC", name: "Service Screen" });
    const form = { intent: "save", code: "GEN", name: "General", type: "general", group: "", support_email: "", route_code: "", service_name_by_carrier: "", service_code_by_carrier: "", eligible_for_outbounds: "on" };
    const res = await clients.admin.request(`/carriers/${c.id}/service`, { form });
    expect(res.status).toBe(302);
    const page = await (await clients.admin.request(res.headers.get("location")!)).text();
    expect(page).toContain(SERVICE_MESSAGES.saved);
    const bad = await clients.admin.request(`/carriers/${c.id}/service`, { form: { ...form, name: "" } });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain("Code has already been taken for this carrier");
    expect(html).toContain("Name is required");
    const list = await (await clients.admin.request(`/carriers/${c.id}/services`)).text();
    expect(list).toContain("General");
  });
});

describe("carrier account validations", () => {
  it("keeps validations through /api/carrier_account_validations with 400 field errors, and an account save obeys them", async () => {
    const c = await createCarrier(server.db, { code: "VALC", name: "Validated" });
    const other = await createCarrier(server.db, { code: "VALO", name: "Other" });
    const path = "/api/carrier_account_validations";
    const made = await clients.admin.json<Json>(path, { json: { carrier_id: c.id, field: "account_number", rule: "start_with", modifier: "in", validation: "NL,VL", message: "Account number must start with NL or VL" } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ carrier_id: c.id, carrier_code: "VALC", field: "account_number" });
    const bad = await clients.admin.json<Json>(path, { json: { carrier_id: c.id, field: "colour", rule: "length", modifier: "in", validation: "4,five", message: "" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ field: ["Please choose a field"], message: ["Message is required"], validation: [VALIDATION_MESSAGES.lengthNumber] });
    expect((await clients.admin.json<Json>(path, { json: { carrier_id: c.id, field: "sscc_digits", rule: "be", modifier: "equal", validation: "9,10", message: "m" } })).body.errors).toEqual({ validation: [VALIDATION_MESSAGES.oneValue] });
    expect((await clients.admin.json<Json>(path, { json: { field: "sscc_digits" } })).body.errors.carrier_id).toEqual(["Please choose a carrier"]);

    const listed = await clients.customerService.json<Json>(`${path}?carrier_id=${c.id}`);
    expect(listed.body.carrier_account_validations).toHaveLength(1);
    expect((await clients.admin.json<Json>(`${path}?carrier_id=${other.id}`)).body.carrier_account_validations).toEqual([]);

    const accounts = `/api/customers/${demo.acme.id}/sites/${demo.sites.melbourne.id}/accounts`;
    const account = (accountNumber: string) => ({
      carrier_code: "VALC",
      account_number: accountNumber,
      consignment_number_digits: 8,
      consignment_range_start: 1,
      consignment_range_end: 1000,
      manifest_number_digits: 6,
      manifest_range_start: 1,
      manifest_range_end: 999,
    });
    // case sensitive: "nl" is not "NL"
    const refused = await clients.admin.json<Json>(accounts, { json: account("nl123") });
    expect(refused.body.errors).toEqual({ account_number: ["Account number must start with NL or VL"] });
    expect((await clients.admin.json<Json>(accounts, { json: account("VL123") })).status).toBe(201);

    // a changed rule applies to the next save; a deleted one no longer does
    const id = made.body.id as number;
    const changed = await clients.admin.json<Json>(`${path}/${id}`, { method: "PUT", json: { rule: "length", modifier: "equal", validation: "5", message: "Account number must have 5 characters" } });
    expect(changed.body).toMatchObject({ rule: "length", validation: "5", field: "account_number" });
    expect((await clients.admin.json<Json>(accounts, { json: account("VL1234") })).body.errors).toEqual({ account_number: ["Account number must have 5 characters"] });
    expect((await clients.admin.json<Json>(`${path}/${id}`, { method: "DELETE" })).body).toEqual({ id, deleted: true });
    expect((await clients.admin.json<Json>(accounts, { json: account("anything") })).status).toBe(201);
    expect((await clients.admin.json(`${path}/${id}`)).status).toBe(404);
  });

  it("saves through the editor, shows a 400's field errors, and checks a value as an account save would", async () => {
    const c = await createCarrier(server.db, { code: "VALS", name: "Validation Screen" });
    const form = { intent: "save", field: "consignment_number_prefix", rule: "be", modifier: "in", validation: "AB,CD", message: "Prefix must be AB or CD" };
    const res = await clients.admin.request(`/carriers/${c.id}/carrier-account-validation`, { form });
    expect(res.status).toBe(302);
    const location = res.headers.get("location")!;
    expect(await (await clients.admin.request(location)).text()).toContain(VALIDATION_MESSAGES.saved);
    const editor = location.replace(/\?.*/, "");
    expect(await (await clients.admin.request(`${editor}?try=AB`)).text()).toContain("&#x27;AB&#x27; passes.");
    expect(await (await clients.admin.request(`${editor}?try=ab`)).text()).toContain("fails: Prefix must be AB or CD");
    const bad = await clients.admin.request(editor, { form: { ...form, rule: "", message: "" } });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain("Please choose a rule");
    expect(html).toContain("Message is required");
    expect(await (await clients.admin.request(`/carriers/${c.id}/carrier-account-validations`)).text()).toContain("AB,CD");
  });
});
