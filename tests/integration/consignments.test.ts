import { and, count, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consignmentChanges, consignments, customers, itemTypes, sites, users } from "../../db/schema";
import { loadDangerousGoods } from "../../db/seed/dangerous-goods";
import { seedDemo } from "../../db/seed/demo";
import { loadLocalities } from "../../db/seed/localities";
import { seedRatingDemo } from "../../db/seed/rating-demo";
import { MEL_TO_BNE } from "../support/rating";
import { Client, startTestServer, type TestServer } from "../support/server";
import { loadCurrentUser } from "../../app/modules/auth/current-user.server";
import { saveConsignment } from "../../app/modules/consignments/consignments.server";
import { listQuotes } from "../../app/modules/consignments/quotes.server";

let server: TestServer;
let despatcher: Client;
let admin: Client;

/** A weekday at least a few days ahead, so the despatch date is never in the past. */
function futureDate(days = 7) {
  const d = new Date(Date.now() + days * 86_400_000);
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

const receiver = {
  name: "Brisbane Hardware",
  address_line_1: "5 Ipswich Road",
  locality: "WOOLLOONGABBA",
  postcode: "4102",
  region: "QLD",
  country: "AUSTRALIA",
  email: "receiving@example.net",
};
const sender = { name: "Melbourne DC", address_line_1: "120 Frankston Dandenong Road", locality: "DANDENONG SOUTH", postcode: "3175", region: "VIC", country: "AUSTRALIA" };

let cartonTypeId: number;
const consignment = (over: Record<string, unknown> = {}) => ({
  site_code: "MEL",
  reference: "PO-1001",
  despatch_date: futureDate(),
  sender_address: sender,
  receiver_address: receiver,
  items: [{ quantity: 2, item_type_id: cartonTypeId, length: 40, width: 30, height: 30, weight_in_uom: "10" }],
  ...over,
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  await loadLocalities(server.db);
  await seedRatingDemo(server.db);
  await loadDangerousGoods(server.db);
  despatcher = new Client(server.url);
  await despatcher.signIn("despatcher@example.com");
  admin = new Client(server.url);
  await admin.signIn("admin@example.com");
  const [carton] = await server.db.select({ id: itemTypes.id }).from(itemTypes).where(eq(itemTypes.name, "Carton"));
  cartonTypeId = carton!.id;
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

describe("address book: /api/addresses", () => {
  const entry = { name: "Hobart Chandlery", address_line_1: "1 Morrison Street", locality: "HOBART", postcode: "7000", region: "TAS", country: "AUSTRALIA", phone: "03 6200 0000", email: "orders@chandlery.example" };

  it("adds, reads and edits a recipient; the typeahead finds it", async () => {
    const editor = new Client(server.url);
    await editor.signIn("superdespatcher@example.com");
    const created = await editor.json<Json>("/api/addresses", { json: entry });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Hobart Chandlery", locality: "HOBART", postcode: "7000", address_type: "business" });
    const read = await despatcher.json<Json>(`/api/addresses/${created.body.id}`);
    expect(read.body.email).toBe("orders@chandlery.example");
    const edited = await editor.json<Json>(`/api/addresses/${created.body.id}`, { method: "PUT", json: { ...entry, phone: "03 6200 9999" } });
    expect(edited.body.phone).toBe("03 6200 9999");
    const found = await despatcher.json<Json>("/api/address_selection?type=recipient&query=chandl");
    expect(found.body.addresses.map((a: Json) => a.name)).toContain("Hobart Chandlery");
  });

  it("answers errors per field and refuses users without can_edit_recipients", async () => {
    const editor = new Client(server.url);
    await editor.signIn("superdespatcher@example.com");
    const bad = await editor.json<Json>("/api/addresses", { json: { ...entry, name: "", email: "nope", address_line_1: "" } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toMatchObject({ name: ["Name is required"], email: ["Email is not a valid e-mail address"] });
    const noLine = await editor.json<Json>("/api/addresses", { json: { ...entry, address_line_1: "" } });
    expect(noLine.body.errors).toEqual({ address_line_1: ["Address line 1 is required"] });
    const nowhere = await editor.json<Json>("/api/addresses", { json: { ...entry, locality: "ATLANTIS" } });
    expect(nowhere.body.errors).toEqual({ locality: ["7000 ATLANTIS is not a known place"] });
    const tooLong = await editor.json<Json>("/api/addresses", { json: { ...entry, special_instructions: "z".repeat(81) } });
    expect(tooLong.body.errors.special_instructions).toEqual(["Special instructions is too long (maximum is 80 characters)"]);

    const refused = await despatcher.json<Json>("/api/addresses", { json: entry });
    expect(refused.status).toBe(403);
  });

  it("keeps each customer's address book to itself", async () => {
    const editor = new Client(server.url);
    await editor.signIn("superdespatcher@example.com");
    const created = await editor.json<Json>("/api/addresses", { json: { ...entry, name: "Private Recipient" } });
    const other = new Client(server.url);
    await other.signIn("tester@example.com");
    expect((await other.json<Json>(`/api/addresses/${created.body.id}`)).status).toBe(404);
    const search = await other.json<Json>("/api/address_selection?type=recipient&query=private");
    expect(search.body.addresses).toEqual([]);
  });
});

describe("merging", () => {
  // Acme has merging on with a limit of 4 (demo data)
  const mergeDate = futureDate(10);
  const mergeable = (over: Record<string, unknown> = {}) => consignment({ despatch_date: mergeDate, receiver_address: { ...receiver, name: "Merge Receiver" }, ...over });

  it("lists consignments to the same receiver address and despatch date only", async () => {
    const a = (await despatcher.json<Json>("/api/consignments", { json: mergeable({ reference: "A" }) })).body;
    const b = (await despatcher.json<Json>("/api/consignments", { json: mergeable({ reference: "B" }) })).body;
    await despatcher.json<Json>("/api/consignments", { json: mergeable({ reference: "OTHER-DATE", despatch_date: futureDate(11) }) });
    await despatcher.json<Json>("/api/consignments", { json: mergeable({ reference: "OTHER-RECEIVER", receiver_address: { ...receiver, name: "Someone Else" } }) });
    const despatched = (await despatcher.json<Json>("/api/consignments", { json: mergeable({ reference: "GONE" }) })).body;
    await server.db.update(consignments).set({ state: "despatched" }).where(eq(consignments.id, despatched.id));

    const res = await despatcher.json<Json>("/api/consignments/mergeable_consignments", { json: { id: a.id } });
    expect(res.status).toBe(200);
    expect(res.body.merge_limit).toBe(4);
    expect(res.body.consignments.map((c: Json) => c.reference)).toEqual(["B"]);
    expect(res.body.consignments[0]).toMatchObject({ id: b.id, receiver_name: "Merge Receiver", item_count: 2, weight: 10 });
  });

  it("merges: the source's lines join the target, which is re-priced; the source becomes merged", async () => {
    const target = (await despatcher.json<Json>("/api/consignments", { json: mergeable({ reference: "TARGET", receiver_address: { ...receiver, name: "Merge Two" } }) })).body;
    const source = (
      await despatcher.json<Json>("/api/consignments", {
        json: mergeable({ reference: "SOURCE", receiver_address: { ...receiver, name: "Merge Two" }, items: [{ quantity: 1, item_type_id: cartonTypeId, length: 50, width: 40, height: 40, weight_in_uom: "20" }] }),
      })
    ).body;
    const res = await despatcher.json<Json>(`/api/consignments/${target.id}/merge`, { json: { source_id: source.id } });
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: Json) => i.weight_in_uom)).toEqual([10, 20]);
    expect(res.body.version).toBe(target.version + 1);
    expect(res.body.state).toBe("despatchable");
    expect(res.body.service_rate).toBeGreaterThan(target.service_rate);
    const [row] = await server.db.select().from(consignments).where(eq(consignments.id, source.id));
    expect(row).toMatchObject({ state: "merged", active: false, mergedIntoId: target.id });
    // merged consignments are no longer offered, and cannot be merged again
    const again = await despatcher.json<Json>(`/api/consignments/${target.id}/merge`, { json: { source_id: source.id } });
    expect(again.status).toBe(409);
    expect(again.body.errors.base).toEqual(["Only open or despatchable consignments can be merged"]);
  });

  it("refuses a different receiver, and stops at the merge limit", async () => {
    const name = { receiver_address: { ...receiver, name: "Merge Limit" } };
    const target = (await despatcher.json<Json>("/api/consignments", { json: mergeable(name) })).body;
    const stranger = (await despatcher.json<Json>("/api/consignments", { json: mergeable({ receiver_address: { ...receiver, name: "Stranger" } }) })).body;
    const refused = await despatcher.json<Json>(`/api/consignments/${target.id}/merge`, { json: { source_id: stranger.id } });
    expect(refused.status).toBe(409);
    expect(refused.body.errors.base).toEqual(["Consignments must go to the same receiver address"]);

    // limit 4: the target may absorb three others
    for (let i = 0; i < 3; i++) {
      const s = (await despatcher.json<Json>("/api/consignments", { json: mergeable(name) })).body;
      expect((await despatcher.json<Json>(`/api/consignments/${target.id}/merge`, { json: { source_id: s.id } })).status).toBe(200);
    }
    const fifth = (await despatcher.json<Json>("/api/consignments", { json: mergeable(name) })).body;
    const over = await despatcher.json<Json>(`/api/consignments/${target.id}/merge`, { json: { source_id: fifth.id } });
    expect(over.body.errors.base).toEqual(["The merge limit of 4 consignments has been reached"]);
    const list = await despatcher.json<Json>("/api/consignments/mergeable_consignments", { json: { id: fifth.id } });
    expect(list.body.consignments.map((c: Json) => c.id)).not.toContain(target.id);
  });

  it("offers nothing when the customer has merging off, and keeps other customers out", async () => {
    const other = new Client(server.url);
    await other.signIn("tester@example.com");
    const a = (await despatcher.json<Json>("/api/consignments", { json: mergeable({ receiver_address: { ...receiver, name: "Merge Scope" } }) })).body;
    expect((await other.json<Json>("/api/consignments/mergeable_consignments", { json: { id: a.id } })).status).toBe(404);
    expect((await other.json<Json>(`/api/consignments/${a.id}/merge`, { json: { source_id: a.id } })).status).toBe(404);

    const b = (await despatcher.json<Json>("/api/consignments", { json: mergeable({ receiver_address: { ...receiver, name: "Merge Scope" } }) })).body;
    expect((await despatcher.json<Json>("/api/consignments/mergeable_consignments", { json: { id: a.id } })).body.consignments).toHaveLength(1);
    await server.db.update(customers).set({ mergingEnabled: false }).where(eq(customers.code, "ACME"));
    try {
      expect((await despatcher.json<Json>("/api/consignments/mergeable_consignments", { json: { id: a.id } })).body.consignments).toEqual([]);
      const off = await despatcher.json<Json>(`/api/consignments/${b.id}/merge`, { json: { source_id: a.id } });
      expect(off.body.errors.base).toEqual(["Merging is not enabled for this customer"]);
    } finally {
      await server.db.update(customers).set({ mergingEnabled: true }).where(eq(customers.code, "ACME"));
    }
  });
});

describe("quotes", () => {
  it("saves a quote in state quote, with 1 or 2 digit quantities", async () => {
    const res = await despatcher.json<Json>("/api/consignments", { json: consignment({ is_quote: true, reference: "Q-1" }) });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ is_quote: true, state: "quote", errors: {} });
    expect(res.body.service_rate).toBeGreaterThan(0);
    const tooMany = await despatcher.json<Json>("/api/consignments", { json: consignment({ is_quote: true, items: [{ quantity: 100, item_type_id: cartonTypeId, length: 1, width: 1, height: 1, weight_in_uom: 1 }] }) });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors["items.0.quantity"]).toEqual(["Quantity must be 1 or 2 digits"]);
    // a consignment takes 100 happily
    const consignmentOk = await despatcher.json<Json>("/api/consignments", { json: consignment({ items: [{ quantity: 100, item_type_id: cartonTypeId, length: 10, width: 10, height: 10, weight_in_uom: 100 }] }) });
    expect(consignmentOk.status).toBe(201);
  });

  it("promotes a valid quote to a consignment in place; an incomplete one is refused", async () => {
    const quote = (await despatcher.json<Json>("/api/consignments", { json: consignment({ is_quote: true, reference: "Q-PROMOTE" }) })).body;
    const res = await despatcher.json<Json>(`/api/promote_quote_to_consignment/${quote.id}`, { method: "PUT" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: quote.id, is_quote: false, has_quote_origin: true, state: "despatchable", reference: "Q-PROMOTE", service_code: quote.service_code });
    expect(res.body.version).toBe(quote.version + 1);
    // already a consignment
    expect((await despatcher.json<Json>(`/api/promote_quote_to_consignment/${quote.id}`, { method: "PUT" })).status).toBe(404);

    const incomplete = (await despatcher.json<Json>("/api/consignments", { json: consignment({ is_quote: true, receiver_address: null }) })).body;
    expect(incomplete.state).toBe("quote");
    const refused = await despatcher.json<Json>(`/api/promote_quote_to_consignment/${incomplete.id}`, { method: "PUT" });
    expect(refused.status).toBe(409);
    expect(refused.body.errors.base).toEqual(["Only a complete quote with a rate can become a consignment"]);
    expect((await despatcher.json<Json>(`/api/promote_quote_to_consignment/${incomplete.id}`, { method: "GET" })).status).toBe(405);
  });

  it("keeps quotes to their own kind and to their customer", async () => {
    const quote = (await despatcher.json<Json>("/api/consignments", { json: consignment({ is_quote: true }) })).body;
    const other = new Client(server.url);
    await other.signIn("tester@example.com");
    expect((await other.json<Json>(`/api/promote_quote_to_consignment/${quote.id}`, { method: "PUT" })).status).toBe(404);
    // an update keeps the quote a quote
    const updated = await despatcher.json<Json>(`/api/consignments/${quote.id}`, { method: "PUT", json: consignment({ version: quote.version, reference: "STILL-A-QUOTE" }) });
    expect(updated.body).toMatchObject({ is_quote: true, state: "quote", reference: "STILL-A-QUOTE" });
  });
});

describe("delete and reinstate", () => {
  it("soft-deletes consignments that are not despatched, and reinstates them to the state they had", async () => {
    const a = (await despatcher.json<Json>("/api/consignments", { json: consignment() })).body;
    const b = (await despatcher.json<Json>("/api/consignments", { json: consignment({ receiver_address: null }) })).body;
    const gone = await despatcher.json<Json>(`/api/consignments/destroy_all?ids=${a.id},${b.id}`, { method: "POST" });
    expect(gone.status).toBe(200);
    expect(gone.body.deleted.sort()).toEqual([a.id, b.id].sort());
    expect((await despatcher.json<Json>(`/api/consignments/${a.id}`)).body).toMatchObject({ state: "deleted", active: false });
    const back = await despatcher.json<Json>("/api/consignments/reinstate_all", { json: { ids: [a.id, b.id] } });
    expect(back.body.reinstated).toHaveLength(2);
    expect((await despatcher.json<Json>(`/api/consignments/${a.id}`)).body).toMatchObject({ state: "despatchable", active: true });
    expect((await despatcher.json<Json>(`/api/consignments/${b.id}`)).body).toMatchObject({ state: "open", active: true });
  });

  it("refuses despatched ones and other customers' ids, changing nothing", async () => {
    const a = (await despatcher.json<Json>("/api/consignments", { json: consignment() })).body;
    const b = (await despatcher.json<Json>("/api/consignments", { json: consignment() })).body;
    await server.db.update(consignments).set({ state: "despatched" }).where(eq(consignments.id, b.id));
    const refused = await despatcher.json<Json>("/api/consignments/destroy_all", { json: { ids: [a.id, b.id] } });
    expect(refused.status).toBe(409);
    expect((await despatcher.json<Json>(`/api/consignments/${a.id}`)).body.state).toBe("despatchable");
    const other = new Client(server.url);
    await other.signIn("tester@example.com");
    expect((await other.json<Json>("/api/consignments/destroy_all", { json: { ids: [a.id] } })).status).toBe(404);
    expect((await despatcher.json<Json>("/api/consignments/destroy_all", { json: { ids: [] } })).body.errors.ids).toEqual(["No consignments have been selected."]);
  });
});

describe("returns and third-party pickups: /api/returns", () => {
  const pickupDay = futureDate(5);
  const info = { ready_at: `${pickupDay} 09:05`, closing_at: `${pickupDay} 16:50`, contact_name: "Pat Picker", phone_number: "(07) 3000-1111", pickup_location: "Loading dock 2" };
  // a return: collected from the customer's customer, back to the Melbourne site
  const aReturn = (over: Record<string, unknown> = {}) => consignment({ sender_address: receiver, receiver_address: sender, return_info: info, ...over });

  it("creates a return priced as a return, with pickup times rounded up to the quarter hour and the phone cleaned", async () => {
    const res = await despatcher.json<Json>("/api/returns", { json: aReturn() });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ return_type: "return", state: "despatchable", errors: {} });
    expect(res.body.return_info).toMatchObject({ ready_at: `${pickupDay} 09:15`, closing_at: `${pickupDay} 17:00`, phone_number: "07 30001111", contact_name: "Pat Picker" });
    expect(res.body.service_rate).toBeGreaterThan(0);
    const got = await despatcher.json<Json>(`/api/returns/${res.body.id}`);
    expect(got.body.id).toBe(res.body.id);
  });

  it("needs the pickup window, a contact and a phone; closing must follow ready", async () => {
    const res = await despatcher.json<Json>("/api/returns", { json: aReturn({ return_info: { ready_at: info.ready_at } }) });
    expect(res.body.state).toBe("open");
    expect(res.body.errors).toMatchObject({
      "return_info.closing_at": ["Closing time is required"],
      "return_info.contact_name": ["Contact name is required"],
      "return_info.phone_number": ["Phone number is required"],
    });
    const backwards = await despatcher.json<Json>("/api/returns", { json: aReturn({ return_info: { ...info, closing_at: `${pickupDay} 08:00` } }) });
    expect(backwards.status).toBe(422);
    expect(backwards.body.errors["return_info.closing_at"]).toEqual(["Closing time must be after the ready time"]);
    const notes = await despatcher.json<Json>("/api/returns", { json: aReturn({ return_info: { ...info, email_body: "n".repeat(4001) } }) });
    expect(notes.body.errors["return_info.email_body"]).toEqual(["Additional notes is too long (maximum is 4000 characters)"]);
  });

  it("a third-party pickup needs both addresses", async () => {
    const res = await despatcher.json<Json>("/api/returns", { json: aReturn({ return_type: "third_party", receiver_address: null }) });
    expect(res.body).toMatchObject({ return_type: "third_party", state: "open" });
    expect(res.body.errors.receiver_address).toEqual(["Receiver address is required"]);
    const noSender = await despatcher.json<Json>("/api/returns", { json: aReturn({ sender_address: null }) });
    expect(noSender.body.errors.sender_address).toEqual(["Sender address is required"]);
  });

  it("keeps returns and consignments apart", async () => {
    const outbound = (await despatcher.json<Json>("/api/consignments", { json: consignment() })).body;
    expect((await despatcher.json<Json>(`/api/returns/${outbound.id}`)).status).toBe(404);
    expect((await despatcher.json<Json>(`/api/returns/${outbound.id}`, { method: "PUT", json: aReturn({ version: 1 }) })).status).toBe(404);
  });

  it("lets a super admin alone correct the pickup information of a despatched return", async () => {
    const created = (await despatcher.json<Json>("/api/returns", { json: aReturn() })).body;
    await server.db.update(consignments).set({ state: "despatched" }).where(eq(consignments.id, created.id));
    const body = { superadmin: true, version: created.version, return_info: { ...info, contact_name: "Corrected Name" } };
    expect((await admin.json<Json>(`/api/returns/${created.id}`, { method: "PUT", json: body })).status).toBe(403);
    const superAdmin = new Client(server.url);
    await superAdmin.signIn("superadmin@example.com");
    const ok = await superAdmin.json<Json>(`/api/returns/${created.id}`, { method: "PUT", json: body });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ state: "despatched", version: created.version + 1 });
    expect(ok.body.return_info.contact_name).toBe("Corrected Name");
    const stale = await superAdmin.json<Json>(`/api/returns/${created.id}`, { method: "PUT", json: body });
    expect(stale.body.error_code).toBe("stale");
    // an ordinary update of a despatched return is refused
    const plain = await despatcher.json<Json>(`/api/returns/${created.id}`, { method: "PUT", json: aReturn({ version: created.version + 1 }) });
    expect(plain.status).toBe(409);
  });
});

describe("time slots", () => {
  it("a service that needs a pickup time leaves the consignment open until it has one", async () => {
    const without = await despatcher.json<Json>("/api/consignments", { json: consignment({ carrier_code: "SIMEX", service_code: "ONT" }) });
    expect(without.body).toMatchObject({ carrier_code: "SIMEX", service_code: "ONT", state: "open" });
    expect(without.body.errors).toEqual({ pickup_at: ["Pickup time is required for this service"] });
    const pickupAt = `${futureDate()} 10:30`;
    const withSlot = await despatcher.json<Json>("/api/consignments", { json: consignment({ carrier_code: "SIMEX", service_code: "ONT", pickup_at: pickupAt }) });
    expect(withSlot.body).toMatchObject({ state: "despatchable", pickup_at: pickupAt, errors: {} });
    // services without slots do not ask
    const road = await despatcher.json<Json>("/api/consignments", { json: consignment({ carrier_code: "NORTHLINE", service_code: "GEN" }) });
    expect(road.body.state).toBe("despatchable");
  });
});

describe("custom reference by the customer's type", () => {
  it("dropdown_generic takes one of the customer's references and needs one; dropdown_charge_site takes a site", async () => {
    const [acme] = await server.db.select().from(customers).where(eq(customers.code, "ACME"));
    await server.db
      .update(customers)
      .set({ customConsignmentReferenceType: "dropdown_generic", customConsignmentReferenceLabel: "Cost centre", options: { ...acme!.options, custom_references: ["COST-A", "COST-B"] } })
      .where(eq(customers.id, acme!.id));
    try {
      const wrong = await despatcher.json<Json>("/api/consignments", { json: consignment({ custom_reference: "COST-C" }) });
      expect(wrong.status).toBe(422);
      expect(wrong.body.errors.custom_reference).toEqual(["Cost centre must be one of the list"]);
      const missing = await despatcher.json<Json>("/api/consignments", { json: consignment() });
      expect(missing.body).toMatchObject({ state: "open", errors: { custom_reference: ["Cost centre is required"] } });
      const ok = await despatcher.json<Json>("/api/consignments", { json: consignment({ custom_reference: "COST-B" }) });
      expect(ok.body).toMatchObject({ state: "despatchable", custom_reference: "COST-B" });
      // the screen offers the list
      expect(await (await despatcher.request("/")).text()).toContain('<option value="COST-A">COST-A</option>');

      await server.db.update(customers).set({ customConsignmentReferenceType: "dropdown_charge_site", customConsignmentReferenceLabel: "Charge to site" }).where(eq(customers.id, acme!.id));
      expect((await despatcher.json<Json>("/api/consignments", { json: consignment({ custom_reference: "SYD" }) })).body.state).toBe("despatchable");
      const notASite = await despatcher.json<Json>("/api/consignments", { json: consignment({ custom_reference: "NOPE" }) });
      expect(notASite.body.errors.custom_reference).toEqual(["Charge to site must be one of the list"]);
    } finally {
      await server.db.update(customers).set({ customConsignmentReferenceType: "text", customConsignmentReferenceLabel: null, options: acme!.options }).where(eq(customers.id, acme!.id));
    }
  });
});

describe("GET /api/consignment_changes", () => {
  it("gives admins the audit history, newest first, with who made each change; others are refused", async () => {
    const created = (await despatcher.json<Json>("/api/consignments", { json: consignment({ reference: "HIST-1" }) })).body;
    await despatcher.json<Json>(`/api/consignments/${created.id}`, { method: "PUT", json: consignment({ version: 1, reference: "HIST-2" }) });
    const res = await admin.json<Json>(`/api/consignment_changes?id=${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body.changes[0]).toMatchObject({ version: 2, field: "reference", from: "HIST-1", to: "HIST-2", by: "Dana Despatcher" });
    expect(res.body.changes.at(-1)).toMatchObject({ version: 1, field: "created" });
    expect((await despatcher.json<Json>(`/api/consignment_changes?id=${created.id}`)).status).toBe(403);
    expect((await admin.json<Json>("/api/consignment_changes?id=abc")).status).toBe(422);
  });
});

describe("dates at the sending site", () => {
  it("'the past' is before today in the site's time zone, not in UTC", async () => {
    const [row] = await server.db.select({ id: users.id }).from(users).where(eq(users.email, "admin@example.com"));
    const user = (await loadCurrentUser(server.db, row!.id))!;
    // 07:00 on 2 December in Melbourne is still 1 December in UTC: 1 December has passed there
    const melbourneMorning = new Date("2026-12-01T20:00:00Z");
    await expect(saveConsignment(server.db, user, null, consignment({ despatch_date: "2026-12-01" }), { now: melbourneMorning })).rejects.toThrow("Despatch date cannot be in the past");
    const today = await saveConsignment(server.db, user, null, consignment({ despatch_date: "2026-12-02" }), { now: melbourneMorning });
    expect(today.consignment.errors.despatch_date).toBeUndefined();
    // 18:00 on 1 December in Los Angeles is already 2 December in UTC: 1 December is still today there
    const losAngelesEvening = new Date("2026-12-02T02:00:00Z");
    const la = await saveConsignment(server.db, user, null, consignment({ site_code: "LAX", despatch_date: "2026-12-01" }), { now: losAngelesEvening });
    expect(la.consignment.errors.despatch_date).toBeUndefined();
    await expect(saveConsignment(server.db, user, null, consignment({ despatch_date: "2026-12-01" }), { now: losAngelesEvening })).rejects.toThrow("Despatch date cannot be in the past");
  });

  it("a quote's date on the quotes list is the day it was made at its site", async () => {
    const [row] = await server.db.select({ id: users.id }).from(users).where(eq(users.email, "admin@example.com"));
    const user = (await loadCurrentUser(server.db, row!.id))!;
    const mel = (await saveConsignment(server.db, user, null, consignment({ is_quote: true, reference: "Q-MEL-TZ" }), { isQuote: true })).consignment;
    const lax = (await saveConsignment(server.db, user, null, consignment({ is_quote: true, site_code: "LAX", reference: "Q-LAX-TZ" }), { isQuote: true })).consignment;
    // both made at 20:00 UTC on 1 December: 07:00 on 2 December in Melbourne, 12:00 on 1 December in Los Angeles
    await server.db.update(consignments).set({ createdAt: new Date("2026-12-01T20:00:00Z") }).where(inArray(consignments.id, [mel.id, lax.id]));
    const quotes = await listQuotes(server.db, user, new Date("2026-12-03T00:00:00Z"));
    expect(quotes.find((q) => q.id === mel.id)?.date).toBe("2026-12-02");
    expect(quotes.find((q) => q.id === lax.id)?.date).toBe("2026-12-01");
  });

  it("a quote on the quotes list carries its site's system of measurement, for the units shown", async () => {
    const [row] = await server.db.select({ id: users.id }).from(users).where(eq(users.email, "admin@example.com"));
    await server.db.update(sites).set({ som: "imperial" }).where(eq(sites.code, "LAX"));
    try {
      const user = (await loadCurrentUser(server.db, row!.id))!;
      const mel = (await saveConsignment(server.db, user, null, consignment({ is_quote: true, reference: "Q-MEL-SOM" }), { isQuote: true })).consignment;
      const lax = (await saveConsignment(server.db, user, null, consignment({ is_quote: true, site_code: "LAX", reference: "Q-LAX-SOM" }), { isQuote: true })).consignment;
      const quotes = await listQuotes(server.db, user);
      expect(quotes.find((q) => q.id === mel.id)?.som).toBe("metric");
      expect(quotes.find((q) => q.id === lax.id)?.som).toBe("imperial");
    } finally {
      await server.db.update(sites).set({ som: "metric" }).where(eq(sites.code, "LAX"));
    }
  });
});
