/**
 * Shipping rules (issue 34 item 2, docs/decisions/040): rules against a table of consignments and
 * the carrier they get; a rule whose service has no price on the lane falls through with the reason
 * kept in the consignment's rating detail; validation by field; the 200-rule cap; tenancy and
 * roles; and the rules applied by the bulk upload and a store's checkout rates.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { consignments, ratingDataVersion, shippingRules, sites, storeProducts, users } from "../../db/schema";
import { createCarrier, createCustomer, createService } from "../../db/seed/factories";
import { MAX_RULES_PER_CUSTOMER, MESSAGES } from "../../app/modules/shipping-rules/schema";
import type { Client, TestServer } from "../support/server";
import * as support from "../support/despatch";
import { futureDate, receiver, senders, type DespatchWorld, type Json } from "../support/despatch";
import { MEL_TO_BNE } from "../support/rating";

let world: DespatchWorld;
let server: TestServer;
let c: DespatchWorld["clients"];
let acmeId: number;
let otherId: number;
/** the priced services MEL to BNE, cheapest first, as CARRIER:SERVICE */
let priced: Array<{ key: string; total: number; eta: string }>;

const base = (customerId = acmeId) => `/api/customers/${customerId}/shipping_rules`;
const rateBody = (over: Record<string, unknown> = {}, item: Record<string, unknown> = {}) => ({
  ...MEL_TO_BNE,
  receiver_region: "QLD",
  despatch_date: futureDate(),
  items: [{ quantity: 1, length: 30, width: 20, height: 10, weight_in_uom: 5, ...item }],
  ...over,
});
const rate = async (over: Record<string, unknown> = {}, item: Record<string, unknown> = {}) => {
  const res = await c.superDespatcher.json<Json>("/api/carrier_selection", { json: rateBody(over, item) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const chosenKey = (r: Json) => (r.selected_index == null ? null : `${r.carriers[r.selected_index].code}:${r.carriers[r.selected_index].service_code}`);
const addRule = async (rule: Json, client: Client = c.admin) => {
  const res = await client.json<Json>(base(), { json: rule });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

beforeAll(async () => {
  world = await support.startDespatchWorld();
  server = world.server;
  c = world.clients;
  const [sd] = await server.db.select({ customerId: users.customerId }).from(users).where(eq(users.email, "superdespatcher@example.com"));
  acmeId = sd!.customerId;
  otherId = (await createCustomer(server.db, { code: "RULESX", name: "Rules Other" })).id;
  await server.db.update(users).set({ canBulkupload: true }).where(eq(users.email, "superdespatcher@example.com"));
  const plain = await rate();
  priced = (plain.carriers as Json[]).filter((r) => !r.is_poa && r.total != null).map((r) => ({ key: `${r.code}:${r.service_code}`, total: r.total, eta: r.estimated_delivery_date }));
  expect(priced.length).toBeGreaterThanOrEqual(3);
  expect(chosenKey(plain)).toBe(priced[0]!.key);
}, 300_000);
afterAll(() => server?.close());
beforeEach(async () => {
  await server.db.delete(shippingRules);
});

describe("rules against a table of consignments", () => {
  it("the first matching rule by position chooses the carrier service", async () => {
    const [cheapest, second, third] = [priced[0]!.key, priced[1]!.key, priced[2]!.key];
    const fastest = [...priced.slice(0, 3)].sort((a, b) => a.eta.localeCompare(b.eta) || a.total - b.total)[0]!.key;
    await addRule({ name: "Victoria", conditions: { regions: ["VIC"] }, actions: { use: third } });
    await addRule({ name: "Heavy", conditions: { dead_weight: { min: 100 } }, actions: { use: third } });
    await addRule({ name: "Purchase orders", conditions: { reference: "PO-*" }, actions: { use: second } });
    await addRule({ name: "Dangerous", conditions: { dangerous_goods: true }, actions: { exclude_carriers: [cheapest.split(":")[0]] } });
    await addRule({ name: "Fast to QLD", conditions: { postcodes: [{ from: "4000", to: "4999" }], address_type: "residential" }, actions: { choose: { by: "fastest", services: [cheapest, second, third] } } });
    await addRule({ name: "Declared", conditions: { declared_value: { min: 500 } }, actions: { choose: { by: "cheapest", services: [third, second] } } });

    const table: Array<[string, Record<string, unknown>, Record<string, unknown>, string | null, string]> = [
      ["a purchase order", { reference: "PO-77" }, {}, "Purchase orders", second],
      ["a heavy purchase order (Heavy is first)", { reference: "PO-78" }, { weight_in_uom: 150 }, "Heavy", third],
      ["a residential receiver in 4000-4999", { receiver_address_type: "residential" }, {}, "Fast to QLD", fastest],
      ["a high declared value", { declared_value: 900 }, {}, "Declared", second],
      ["nothing special", { reference: "X-1" }, {}, null, cheapest],
    ];
    for (const [what, over, item, ruleName, expected] of table) {
      const r = await rate(over, item);
      expect(chosenKey(r), what).toBe(expected);
      expect(r.shipping_rule?.rule_name ?? null, what).toBe(ruleName);
      expect(r.rule_applied, what).toBe(ruleName && r.shipping_rule.chosen ? "shipping_rule" : "cheapest");
      if (ruleName) expect(r.carriers[r.selected_index].chosen_by_rule, what).toBe(ruleName);
    }
    // excluding a carrier leaves its services out and selects the cheapest of the rest
    const dg = await rate({}, { dangerous_goods: true });
    expect(dg.shipping_rule.rule_name).toBe("Dangerous");
    expect((dg.carriers as Json[]).some((r) => r.code === cheapest.split(":")[0])).toBe(false);
  });

  it("a rule for a site applies only to consignments from that site", async () => {
    const [syd] = await server.db.select({ id: sites.id }).from(sites).where(eq(sites.code, "SYD"));
    await addRule({ name: "Sydney only", site_id: syd!.id, actions: { use: priced[2]!.key } });
    const r = await rate();
    expect(r.shipping_rule ?? null).toBeNull();
    expect(chosenKey(r)).toBe(priced[0]!.key);
  });
});

describe("fall-through and what a rule does to the consignment", () => {
  it("a service not offered on the lane falls through to the next rule, the reason kept in the rating detail; instructions and authority to leave are applied", async () => {
    const ghost = await createCarrier(server.db, { code: "GHOST", name: "Ghost Freight" });
    await createService(server.db, ghost.id, { code: "NONE", name: "Nowhere" });
    await addRule({ name: "Ghost first", actions: { use: "GHOST:NONE" } });
    await addRule({ name: "Then second", actions: { use: priced[1]!.key, special_instructions: "Leave at the back door", authority_to_leave: true } });
    const res = await c.superDespatcher.json<Json>("/api/consignments", {
      json: { site_code: "MEL", reference: "RULE-FT", despatch_date: futureDate(), sender_address: senders.MEL, receiver_address: receiver, special_instructions: "Ring first", items: [{ quantity: 1, item_type_id: world.cartonTypeId, length: 30, width: 20, height: 10, weight_in_uom: "5" }] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(`${res.body.carrier_code}:${res.body.service_code}`).toBe(priced[1]!.key);
    const [row] = await server.db.select().from(consignments).where(eq(consignments.id, res.body.id));
    expect(row!.specialInstructions).toBe("Ring first; Leave at the back door");
    expect((row!.options as Json).delivery_options).toMatchObject({ authority_to_leave: true });
    expect((row!.ratingDetail as Json).shipping_rule).toMatchObject({
      rule_name: "Then second",
      chosen: priced[1]!.key,
      fall_throughs: [{ rule_name: "Ghost first", reason: "GHOST:NONE is not offered for this lane" }],
    });
    // the API's consignment shows it too
    expect(res.body.rating_detail.shipping_rule.fall_throughs[0].reason).toBe("GHOST:NONE is not offered for this lane");
  });

  it("a service the caller names beats the rule", async () => {
    await addRule({ name: "Second", actions: { use: priced[1]!.key } });
    const r = await rate({ preselected_carrier_service: priced[2]!.key });
    expect(chosenKey(r)).toBe(priced[2]!.key);
    expect(r.rule_applied).toBe("preselected");
  });
});

describe("validation by field", () => {
  it("refuses an impossible range, an unknown service or carrier, a bad pattern and use with choose, each on its field", async () => {
    const res = await c.admin.json<Json>(base(), {
      json: {
        name: "",
        conditions: { dead_weight: { min: 10, max: 5 }, reference: "(a+)+$", postcodes: [{ from: "3000", to: "2000" }] },
        actions: { use: "NOPE:NOPE", exclude_carriers: ["NOPE"] },
      },
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(expect.arrayContaining(["name", "conditions.dead_weight.min", "conditions.reference", "conditions.postcodes.0.from"]));
    expect(res.body.errors["conditions.dead_weight.min"]).toEqual([MESSAGES.range]);
    // the references to the catalogue are checked once the shapes are right
    const unknown = await c.admin.json<Json>(base(), { json: { name: "Unknown", actions: { use: "NOPE:NOPE", exclude_carriers: ["NOWHERE"] } } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toMatchObject({ "actions.use": [`${MESSAGES.unknownService} NOPE:NOPE`], "actions.exclude_carriers.0": [`${MESSAGES.unknownCarrier} NOWHERE`] });
    const both = await c.admin.json<Json>(base(), { json: { name: "Both", actions: { use: priced[0]!.key, choose: { by: "cheapest", services: [priced[1]!.key] } } } });
    expect(both.body.errors["actions.choose"]).toEqual([MESSAGES.useAndChoose]);
    expect(await server.db.select().from(shippingRules)).toHaveLength(0);
  });

  it("refuses an oversize rule and more than 200 rules per customer with 4xx", async () => {
    const big = await c.admin.json<Json>(base(), { json: { name: "Big", conditions: { regions: Array.from({ length: 40 }, () => "x".repeat(500)) } } });
    expect(big.status).toBeGreaterThanOrEqual(400);
    expect(big.status).toBeLessThan(500);
    await server.db.insert(shippingRules).values(Array.from({ length: MAX_RULES_PER_CUSTOMER }, (_, i) => ({ customerId: acmeId, name: `Bulk ${i}`, position: i + 1 })));
    const over = await c.admin.json<Json>(base(), { json: { name: "One too many" } });
    expect(over.status).toBe(422);
    expect(over.body.errors.base).toEqual([MESSAGES.tooMany]);
  });
});

describe("tenancy and roles", () => {
  it("staff any customer, the customer's super despatchers their own, others 403 or 404", async () => {
    const rule = await addRule({ name: "Mine", actions: { use: priced[0]!.key } }, c.superDespatcher);
    expect((await c.admin.json(base(otherId))).status).toBe(200);
    expect((await c.customerService.json(base())).status).toBe(200);
    expect((await c.despatcher.json(base())).status).toBe(403);
    expect((await c.despatcher.json(base(), { json: { name: "Nope" } })).status).toBe(403);
    // another customer's rules: not there for a customer's user
    expect((await c.superDespatcher.json(base(otherId))).status).toBe(404);
    expect((await c.superDespatcher.json(`${base(otherId)}/${rule.id}`, { method: "PUT", json: { name: "Moved" } })).status).toBe(404);
    // a rule of this customer under another customer's path is not found, even for staff
    expect((await c.admin.json(`${base(otherId)}/${rule.id}`)).status).toBe(404);
    expect((await c.admin.json(`${base(otherId)}/${rule.id}`, { method: "DELETE" })).status).toBe(404);
    // the site and item types must be the customer's own
    const [foreignSite] = await server.db.select({ id: sites.id }).from(sites).where(eq(sites.code, "LAX"));
    if (foreignSite) expect((await c.admin.json<Json>(base(otherId), { json: { name: "Foreign site", site_id: foreignSite.id } })).body.errors.site_id).toEqual([MESSAGES.site]);
  });

  it("every change of a rule bumps the rating data version, so each process drops its compiled rules", async () => {
    const version = async () => (await server.db.select({ v: ratingDataVersion.version }).from(ratingDataVersion))[0]!.v;
    const before = await version();
    const rule = await addRule({ name: "Bump", actions: { use: priced[1]!.key } });
    expect(await version()).toBeGreaterThan(before);
    expect(chosenKey(await rate())).toBe(priced[1]!.key);
    const after = await version();
    await c.admin.json(`${base()}/${rule.id}`, { method: "PUT", json: { actions: { use: priced[2]!.key } } });
    expect(await version()).toBeGreaterThan(after);
    expect(chosenKey(await rate())).toBe(priced[2]!.key);
  });

  it("reorders, changes, tests and deletes through the API", async () => {
    const a = await addRule({ name: "A", actions: { use: priced[2]!.key } });
    const b = await addRule({ name: "B", actions: { use: priced[1]!.key } });
    const order = await c.superDespatcher.json<Json>(`${base()}/update_sequence_order`, { json: { ids: [b.id, a.id] } });
    expect(order.body.shipping_rules.map((r: Json) => r.name)).toEqual(["B", "A"]);
    expect((await c.superDespatcher.json(`${base()}/update_sequence_order`, { json: { ids: [999999] } })).status).toBe(422);
    const tested = await c.superDespatcher.json<Json>(`${base()}/test`, { json: rateBody() });
    expect(tested.status, JSON.stringify(tested.body)).toBe(200);
    expect(tested.body).toMatchObject({ rule: { rule_name: "B" }, selection: "shipping_rule" });
    expect(`${tested.body.chosen.carrier}:${tested.body.chosen.service}`).toBe(priced[1]!.key);
    const changed = await c.superDespatcher.json<Json>(`${base()}/${b.id}`, { method: "PUT", json: { active: false } });
    expect(changed.body).toMatchObject({ name: "B", active: false, actions: { use: priced[1]!.key } });
    expect(chosenKey(await rate())).toBe(priced[2]!.key);
    expect((await c.superDespatcher.json<Json>(`${base()}/${a.id}`, { method: "DELETE" })).body).toEqual({ id: a.id, deleted: true });
    expect(chosenKey(await rate())).toBe(priced[0]!.key);
  });
});

describe("the screen, without JavaScript", () => {
  const path = () => `/customers/${acmeId}/shipping_rules`;
  it("saves a rule from the form, answers a bad one by field, and tests a consignment", async () => {
    expect((await c.superDespatcher.request(path())).status).toBe(200);
    expect((await c.despatcher.request(path())).status).toBe(403);
    const bad = await c.superDespatcher.request(`${path()}?rule=new`, { method: "POST", form: { intent: "save", name: "Bad range", dead_weight_min: "10", dead_weight_max: "5", action_kind: "use", use_service: "" } });
    expect(bad.status).toBe(422);
    const html = await bad.text();
    expect(html).toMatch(new RegExp(`id="dead_weight_min-error"[^>]*>${MESSAGES.range}`));
    expect(html).toContain('id="use_service-error"');
    expect(await server.db.select().from(shippingRules)).toHaveLength(0);

    const good = await c.superDespatcher.request(path(), {
      method: "POST",
      form: [["intent", "save"], ["name", "Form rule"], ["active", "on"], ["postcodes", "4000-4999, 2000"], ["regions", "QLD"], ["action_kind", "use"], ["use_service", priced[1]!.key], ["special_instructions", "Call ahead"], ["authority_to_leave", "on"]],
    });
    expect(good.status).toBe(302);
    expect(good.headers.get("location")).toBe(`${path()}?saved=new`);
    const [row] = await server.db.select().from(shippingRules);
    expect(row).toMatchObject({ name: "Form rule", active: true, conditions: { postcodes: [{ from: "4000", to: "4999" }, { from: "2000", to: null }], regions: ["QLD"] }, actions: { use: priced[1]!.key, special_instructions: "Call ahead", authority_to_leave: true } });

    const tested = await c.superDespatcher.request(path(), {
      method: "POST",
      form: { intent: "test", t_site_code: "MEL", t_receiver_locality: "WOOLLOONGABBA", t_receiver_postcode: "4102", t_receiver_region: "QLD", t_quantity: "1", t_weight: "5", t_length: "30", t_width: "20", t_height: "10" },
    });
    expect(tested.status).toBe(200);
    expect(await tested.text()).toMatch(/Matched rule <strong>Form rule<\/strong>/);
  });
});

describe("the bulk upload and a store's checkout apply the rules", () => {
  it("the rule picks the service of a row that names none; a row's own service is kept", async () => {
    await addRule({ name: "Bulk second", actions: { use: priced[1]!.key } });
    const [carrier, service] = priced[2]!.key.split(":");
    const day = futureDate().split("-").reverse().join("/");
    const header = "site_code,despatch_date,reference,receiver_name,receiver_address_line_1,receiver_locality,receiver_postcode,receiver_region,carrier_code,service_code,item_type,quantity,length,width,height,weight,item_reference";
    const line = (ref: string, carrierCode = "", serviceCode = "") => `MEL,${day},${ref},Brisbane Hardware,5 Ipswich Road,WOOLLOONGABBA,4102,QLD,${carrierCode},${serviceCode},Carton,1,40,30,20,5,`;
    const text = [header, line("BULK-RULE"), line("BULK-OWN", carrier, service), ""].join("\n");
    const res = await fetch(`${server.url}/api/bulk_upload/import?type=consignment&filename=rules.csv`, {
      method: "POST",
      headers: { "content-type": "text/csv", Accept: "application/json", "X-Requested-With": "XMLHttpRequest", cookie: c.superDespatcher.cookie },
      body: text,
    });
    const upload = (await res.json()) as Json;
    expect(res.status, JSON.stringify(upload)).toBe(200);
    const job = await support.workJob(world, upload.job_id, c.superDespatcher);
    expect(job.info, JSON.stringify(job)).toMatchObject({ created: 2 });
    const made = await support.rowsOf(world, job.info.consignment_ids);
    const byRef = Object.fromEntries(made.map((m) => [m.reference, m]));
    expect(byRef["BULK-RULE"]!.ruleBasedService?.toLowerCase()).toBe(priced[1]!.key.toLowerCase());
    expect((byRef["BULK-RULE"]!.ratingDetail as Json).shipping_rule.rule_name).toBe("Bulk second");
    const own = await c.superDespatcher.json<Json>(`/api/consignments/${byRef["BULK-OWN"]!.id}`);
    expect(`${own.body.carrier_code}:${own.body.service_code}`).toBe(priced[2]!.key);
  });

  it("checkout offers only the services a rule allows", async () => {
    const [mel] = await server.db.select({ id: sites.id }).from(sites).where(eq(sites.code, "MEL"));
    const store = await c.admin.json<Json>(`/api/customers/${acmeId}/store`, { method: "PUT", json: { cart_type: "shopify", rate_presentation: "full_list", site_id: mel!.id, external_id: "rules-shop" } });
    expect(store.status, JSON.stringify(store.body)).toBe(200);
    await server.db.insert(storeProducts).values({ storeId: store.body.store.id, sku: "BOX", name: "Box", length: "30", width: "20", height: "10", weight: "2" });
    const checkout = async () => {
      const res = await fetch(`${server.url}/api/store/rules-shop/rates`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${store.body.api_key}` },
        body: JSON.stringify({ rate: { destination: { country: "AU", postal_code: "4102", province: "QLD", city: "Woolloongabba" }, items: [{ sku: "BOX", quantity: 1, price: 5000, requires_shipping: true }] } }),
      });
      const body = (await res.json()) as Json;
      expect(res.status, JSON.stringify(body)).toBe(200);
      return (body.rates as Json[]).map((r) => r.service_code as string);
    };
    expect((await checkout()).length).toBeGreaterThanOrEqual(3);
    // a cart worth $50 matches; a set of two is what the buyer may choose from
    await addRule({ name: "Shop set", conditions: { declared_value: { min: 40 } }, actions: { choose: { by: "cheapest", services: [priced[1]!.key, priced[2]!.key] } } });
    expect((await checkout()).sort()).toEqual([priced[1]!.key, priced[2]!.key].map((k) => k.replace(":", "-")).sort());
  });
});
