/** The consignment API: create, update, a despatched consignment's update, dangerous goods. */
import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consignmentChanges, consignments, users } from "../../db/schema";
import { MEL_TO_BNE } from "../support/rating";
import { Client, type TestServer } from "../support/server";
import { receiver, startConsignmentWorld, type ConsignmentWorld, type Json } from "../support/consignments";

let server: TestServer;
let despatcher: Client;
let admin: Client;
let cartonTypeId: number;
let consignment: ConsignmentWorld["consignment"];

beforeAll(async () => {
  ({ server, despatcher, admin, cartonTypeId, consignment } = await startConsignmentWorld());
}, 120_000);
afterAll(() => server.close());

describe("POST /api/consignments", () => {
  it("creates a rated, despatchable consignment in one call, choosing the cheapest service", async () => {
    const res = await despatcher.json<Json>("/api/consignments", { json: consignment() });
    expect(res.status).toBe(201);
    const c = res.body;
    expect(c.state).toBe("despatchable");
    expect(c.errors).toEqual({});
    expect(c.version).toBe(1);
    expect(c.consignment_number).toBeNull();
    expect(c.site_code).toBe("MEL");
    expect(c.sender_address).toMatchObject({ name: "Melbourne DC", locality: "DANDENONG SOUTH" });
    expect(c.receiver_address).toMatchObject({ name: "Brisbane Hardware", postcode: "4102", address_type: "business" });
    expect(c.items).toHaveLength(1);
    // 2 x 0.4 x 0.3 x 0.3 m
    expect(c.items[0]).toMatchObject({ quantity: 2, weight_in_uom: 10, total_volume: 0.072, item_type_description: "Carton" });
    expect(c.service_rate).toBeGreaterThan(0);
    expect(c.rule_based_service).toBe(`${c.carrier_code}:${c.service_code}`);
    // the cheapest was chosen: its price is the cheapest price recorded
    expect(c.service_rate).toBe(c.cheapest_carrier_rate);
    expect(c.rating_detail.sell.length).toBeGreaterThan(0);
    expect(c.estimated_delivery_date > c.despatch_date).toBe(true);

    // the same price as the rate shop gives
    const shop = await despatcher.json<Json>("/api/carrier_selection", {
      json: {
        despatch_date: c.despatch_date,
        ...MEL_TO_BNE,
        items: [{ quantity: 2, item_type: cartonTypeId, length: 40, width: 30, height: 30, weight_in_uom: 10 }],
      },
    });
    const cheapest = shop.body.carriers[shop.body.selected_index];
    expect(cheapest.total).toBe(c.service_rate);
  });

  it("keeps the service the caller chose, priced on the server", async () => {
    const shop = await despatcher.json<Json>("/api/consignments", { json: consignment() });
    const all = await despatcher.json<Json>("/api/carrier_selection", {
      json: {
        despatch_date: shop.body.despatch_date,
        site_code: "MEL",
        sender_locality: "DANDENONG SOUTH",
        sender_postcode: "3175",
        receiver_locality: "WOOLLOONGABBA",
        receiver_postcode: "4102",
        items: [{ quantity: 2, item_type: cartonTypeId, length: 40, width: 30, height: 30, weight_in_uom: 10 }],
      },
    });
    const dearest = [...all.body.carriers].filter((r: Json) => !r.is_poa).sort((a: Json, b: Json) => b.total - a.total)[0];
    const res = await despatcher.json<Json>("/api/consignments", { json: consignment({ carrier_code: dearest.code, service_code: dearest.service_code, service_rate: 0.01 }) });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ carrier_code: dearest.code, service_code: dearest.service_code, service_rate: dearest.total, state: "despatchable" });
  });

  it("saves an incomplete consignment as open, listing what it lacks", async () => {
    const res = await despatcher.json<Json>("/api/consignments", {
      json: consignment({ receiver_address: null, items: [{ quantity: 1, item_type_id: cartonTypeId, length: 40, width: 30, height: 30, weight_in_uom: "" }] }),
    });
    expect(res.status).toBe(201);
    expect(res.body.state).toBe("open");
    expect(res.body.errors.receiver_address).toEqual(["Receiver address is required"]);
    expect(res.body.errors["items.0.weight_in_uom"]).toEqual(["Must have weight"]);
    expect(res.body.errors.carrier_name).toEqual(["Please select a carrier service"]);
    expect(res.body.service_rate).toBeNull();
  });

  it("flags an unknown receiver locality", async () => {
    const res = await despatcher.json<Json>("/api/consignments", { json: consignment({ receiver_address: { ...receiver, locality: "NOWHERE" } }) });
    expect(res.body.state).toBe("open");
    expect(res.body.errors["receiver_address.locality"]).toEqual(["Invalid receiver locality"]);
  });

  it("needs the receiver account when the receiver pays", async () => {
    const res = await despatcher.json<Json>("/api/consignments", { json: consignment({ account_payable: "receiver" }) });
    expect(res.body.errors.charge_account).toEqual(["Receiver account is required when the receiver pays"]);
    const ok = await despatcher.json<Json>("/api/consignments", { json: consignment({ account_payable: "receiver", charge_account: "ACC-778" }) });
    expect(ok.body.state).toBe("despatchable");
  });

  it("refuses input over the spec's limits with per-field errors and saves nothing", async () => {
    const [{ n: before }] = (await server.db.select({ n: count() }).from(consignments)) as [{ n: number }];
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ special_instructions: "x".repeat(81) }, "special_instructions", "Special instructions is too long (maximum is 80 characters)"],
      [{ charge_account: "x".repeat(31) }, "charge_account", "Receiver account is too long (maximum is 30 characters)"],
      [{ custom_reference: "x".repeat(4001) }, "custom_reference", "Custom reference is too long (maximum is 4000 characters)"],
      [{ special_requirements: "x".repeat(201) }, "special_requirements", "Special requirements is too long (maximum is 200 characters)"],
      [{ items: [{ quantity: 10000, length: 1, width: 1, height: 1, weight_in_uom: 1 }] }, "items.0.quantity", "Quantity must be a whole number of up to 4 digits"],
      [{ items: [{ quantity: 1, length: 12345, width: 1, height: 1, weight_in_uom: 1 }] }, "items.0.length", "Length must be a whole number of up to 4 digits"],
      [{ items: [{ quantity: 1, length: 1, width: 1, height: 1, weight_in_uom: "123456" }] }, "items.0.weight_in_uom", "Weight must be a number of up to 5 characters"],
      [{ receiver_address: { ...receiver, name: "" } }, "receiver_address.name", "Name is required"],
      [{ receiver_address: { ...receiver, email: "not-an-email" } }, "receiver_address.email", "Email is not a valid e-mail address"],
      [{ receiver_address: { ...receiver, special_instructions: "y".repeat(81) } }, "receiver_address.special_instructions", "Special instructions is too long (maximum is 80 characters)"],
      [{ despatch_date: "2020-01-01" }, "despatch_date", "Despatch date cannot be in the past"],
      [{ site_code: "LAX" }, "site_code", "Site is not one of yours"],
    ];
    for (const [over, field, message] of cases) {
      const res = await despatcher.json<Json>("/api/consignments", { json: consignment(over) });
      expect(res.status, field).toBe(422);
      expect(res.body.errors[field], field).toEqual([message]);
    }
    const [{ n: after }] = (await server.db.select({ n: count() }).from(consignments)) as [{ n: number }];
    expect(after).toBe(before);
  });

  it("answers 401 JSON without a session, and works for a scripted caller with a token", async () => {
    const anonymous = await new Client(server.url).json<Json>("/api/consignments", { json: consignment() });
    expect(anonymous.status).toBe(401);
    const [row] = await server.db.select({ token: users.authenticationToken }).from(users).where(eq(users.email, "despatcher@example.com"));
    await server.db.update(users).set({ authenticationToken: "script-token-123456" }).where(eq(users.email, "despatcher@example.com"));
    const script = new Client(server.url, "script-token-123456");
    const res = await script.json<Json>("/api/consignments", { json: consignment({ reference: "SCRIPTED" }) });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ reference: "SCRIPTED", state: "despatchable" });
    await server.db.update(users).set({ authenticationToken: row!.token }).where(eq(users.email, "despatcher@example.com"));
  });
});

describe("PUT /api/consignments/{id}", () => {
  it("updates from the version read; a second save from that version is stale and changes nothing", async () => {
    const created = (await despatcher.json<Json>("/api/consignments", { json: consignment() })).body;
    const first = await despatcher.json<Json>(`/api/consignments/${created.id}`, { method: "PUT", json: consignment({ version: created.version, reference: "PO-2002" }) });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ version: created.version + 1, reference: "PO-2002" });

    const second = await despatcher.json<Json>(`/api/consignments/${created.id}`, { method: "PUT", json: consignment({ version: created.version, reference: "PO-3003" }) });
    expect(second.status).toBe(409);
    expect(second.body).toEqual({ errors: { base: ["Unable to save. Someone else may have modified the consignment, please refresh."] }, error_code: "stale" });
    const now = await despatcher.json<Json>(`/api/consignments/${created.id}`);
    expect(now.body.reference).toBe("PO-2002");
  });

  it("writes every change to the audit history", async () => {
    const created = (await despatcher.json<Json>("/api/consignments", { json: consignment() })).body;
    await despatcher.json<Json>(`/api/consignments/${created.id}`, {
      method: "PUT",
      json: consignment({ version: 1, reference: "CHANGED", items: [{ quantity: 3, item_type_id: cartonTypeId, length: 40, width: 30, height: 30, weight_in_uom: "15" }] }),
    });
    const rows = await server.db.select().from(consignmentChanges).where(eq(consignmentChanges.consignmentId, created.id));
    const byField = Object.fromEntries(rows.map((r) => [r.field, r]));
    expect(byField.created).toMatchObject({ version: 1, toValue: "despatchable" });
    expect(byField.reference).toMatchObject({ version: 2, fromValue: "PO-1001", toValue: "CHANGED" });
    expect(byField["items.0.quantity"]).toMatchObject({ fromValue: "2", toValue: "3" });
    expect(byField["items.0.weight_in_uom"]).toMatchObject({ fromValue: "10", toValue: "15" });
    expect(byField.despatch_date).toBeUndefined();
  });

  it("needs the version, and refuses edits once despatched", async () => {
    const created = (await despatcher.json<Json>("/api/consignments", { json: consignment() })).body;
    const noVersion = await despatcher.json<Json>(`/api/consignments/${created.id}`, { method: "PUT", json: consignment() });
    expect(noVersion.status).toBe(422);
    expect(noVersion.body.errors.version).toEqual(["Version is required"]);
    await server.db.update(consignments).set({ state: "despatched" }).where(eq(consignments.id, created.id));
    const res = await despatcher.json<Json>(`/api/consignments/${created.id}`, { method: "PUT", json: consignment({ version: created.version }) });
    expect(res.status).toBe(409);
    expect(res.body.errors.base).toEqual(["This consignment can no longer be edited"]);
  });

  it("is scoped to the customer and the user's sites", async () => {
    const created = (await despatcher.json<Json>("/api/consignments", { json: consignment() })).body;
    const other = new Client(server.url);
    await other.signIn("tester@example.com");
    expect((await other.json<Json>(`/api/consignments/${created.id}`)).status).toBe(404);
    expect((await other.json<Json>(`/api/consignments/${created.id}`, { method: "PUT", json: consignment({ version: 1 }) })).status).toBe(404);

    // a Los Angeles consignment is out of reach of a despatcher without that site
    const superDespatcher = new Client(server.url);
    await superDespatcher.signIn("superdespatcher@example.com");
    const lax = await superDespatcher.json<Json>("/api/consignments", { json: consignment({ site_code: "LAX", sender_address: null, receiver_address: null }) });
    expect(lax.status).toBe(201);
    expect((await despatcher.json<Json>(`/api/consignments/${lax.body.id}`)).status).toBe(404);
    expect((await superDespatcher.json<Json>(`/api/consignments/${lax.body.id}`)).status).toBe(200);
  });
});

describe("PUT /api/consignments/{id}/update_despatched_consignment", () => {
  it("lets an admin change the charge account of a failed despatch only", async () => {
    const created = (await despatcher.json<Json>("/api/consignments", { json: consignment() })).body;
    const url = `/api/consignments/${created.id}/update_despatched_consignment`;
    const notFailed = await admin.json<Json>(url, { method: "PUT", json: { version: created.version, charge_account: "NEW-ACC" } });
    expect(notFailed.status).toBe(409);

    await server.db.update(consignments).set({ state: "despatch_failure" }).where(eq(consignments.id, created.id));
    const byDespatcher = await despatcher.json<Json>(url, { method: "PUT", json: { version: created.version, charge_account: "NEW-ACC" } });
    expect(byDespatcher.status).toBe(403);

    const tooLong = await admin.json<Json>(url, { method: "PUT", json: { version: created.version, charge_account: "x".repeat(31) } });
    expect(tooLong.status).toBe(422);

    const ok = await admin.json<Json>(url, { method: "PUT", json: { version: created.version, charge_account: "NEW-ACC" } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ charge_account: "NEW-ACC", version: created.version + 1, state: "despatch_failure" });
    const stale = await admin.json<Json>(url, { method: "PUT", json: { version: created.version, charge_account: "OTHER" } });
    expect(stale.status).toBe(409);
    expect(stale.body.error_code).toBe("stale");
    const audit = await server.db
      .select()
      .from(consignmentChanges)
      .where(and(eq(consignmentChanges.consignmentId, created.id), eq(consignmentChanges.field, "charge_account")));
    expect(audit.map((a) => a.toValue)).toEqual(["NEW-ACC"]);
  });
});

describe("dangerous goods", () => {
  it("searches by UN number or proper shipping name from 3 characters", async () => {
    const byNumber = await despatcher.json<Json>("/api/dangerous_goods_types?query=UN1203");
    expect(byNumber.body.dangerous_goods_types[0]).toMatchObject({ un_number: "1203", proper_shipping_name: "MOTOR SPIRIT", hazard_class: "3", packing_group: "II" });
    const byName = await despatcher.json<Json>("/api/dangerous_goods_types?query=lithium");
    expect(byName.body.dangerous_goods_types.map((d: Json) => d.un_number).sort()).toEqual(["3090", "3091", "3480", "3481"]);
    const short = await despatcher.json<Json>("/api/dangerous_goods_types?query=li");
    expect(short.body.dangerous_goods_types).toEqual([]);
    const nos = await despatcher.json<Json>("/api/dangerous_goods_types?query=1993");
    expect(nos.body.dangerous_goods_types[0]).toMatchObject({ proper_shipping_name: "FLAMMABLE LIQUID, N.O.S.", nos: true });
  });

  it("needs complete dangerous goods lines, and a technical name for N.O.S. entries", async () => {
    const dgItem = (dg: Json) => [{ quantity: 1, item_type_id: cartonTypeId, length: 40, width: 30, height: 30, weight_in_uom: "10", dangerous_goods_items: [dg] }];
    const partial = await despatcher.json<Json>("/api/consignments", { json: consignment({ items: dgItem({ un_number: "1993", proper_shipping_name: "FLAMMABLE LIQUID, N.O.S.", hazard_class: "3", nos: true }) }) });
    expect(partial.body, JSON.stringify(partial.body)).toMatchObject({ state: "open" });
    expect(partial.body.errors["items.0.dangerous_goods_items"]).toBeDefined();
    expect(partial.body.errors["items.0.dangerous_goods_items.0.technical_name"]).toEqual(["Technical name is required for N.O.S. entries"]);
    const full = await despatcher.json<Json>("/api/consignments", {
      json: consignment({ items: dgItem({ un_number: "1993", proper_shipping_name: "FLAMMABLE LIQUID, N.O.S.", technical_name: "contains xylene", hazard_class: "3", packing_group: "II", weight_in_uom: "4", nos: true }) }),
    });
    expect(full.body.state).toBe("despatchable");
    expect(full.body.items[0].has_dangerous_goods).toBe(true);
    expect(full.body.items[0].dangerous_goods_items[0]).toMatchObject({ un_number: "1993", technical_name: "contains xylene", weight_in_uom: 4 });
  });

  it("imports a CSV: good lines applied, bad lines reported; staff only", async () => {
    const csv = ["un_number,proper_shipping_name,hazard_class,sub_risk,packing_group,nos", "UN1090,ACETONE,3,,II,false", "9999,NEW ENTRY,9,,III,no", "12,BAD NUMBER,3,,,", "1111,BAD GROUP,3,,IV,"].join("\n");
    const form = new FormData();
    form.append("file", new Blob([csv], { type: "text/csv" }), "dg.csv");
    const post = (client: Client) =>
      fetch(`${server.url}/api/dangerous_goods_types/import`, { method: "POST", headers: { cookie: client.cookie, accept: "application/json" }, body: form });
    expect((await post(despatcher)).status).toBe(403);
    const res = await post(admin);
    const body = (await res.json()) as Json;
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ created: 1, updated: 1, skipped_total: 2 });
    expect(body.skipped).toEqual([
      { line: 4, errors: ["UN number must be 4 digits"] },
      { line: 5, errors: ["Packing group must be I, II or III"] },
    ]);
    const found = await despatcher.json<Json>("/api/dangerous_goods_types?query=9999");
    expect(found.body.dangerous_goods_types[0]).toMatchObject({ proper_shipping_name: "NEW ENTRY", hazard_class: "9" });
  });
});
