import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consignmentItems, itemTypes } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { createCustomer, createItemType, createSite, createUser } from "../../db/seed/factories";
import { CSV_COLUMNS, MESSAGES } from "../../app/modules/item-types/item-types";
import { futureDate } from "../support/despatch";
import { Client, signInAll, startTestServer, type TestServer } from "../support/server";

/**
 * Item types (issue 16 item 6; spec 2 /customers/{id}/index_item_types and item_types/{id?},
 * /api/customers/{id}/item_types...): staff work in any customer's item types, a customer's users
 * in their own (another customer's id is 404), super despatchers may change them.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

let server: TestServer;
let demo: Awaited<ReturnType<typeof seedDemo>>;
const clients = {} as Record<"superAdmin" | "admin" | "customerService" | "despatcher" | "superDespatcher" | "other", Client>;
const EMAILS = {
  superAdmin: "superadmin@example.com",
  admin: "admin@example.com",
  customerService: "customerservice@example.com",
  despatcher: "despatcher@example.com",
  superDespatcher: "superdespatcher@example.com",
  other: "tester@example.com",
};

beforeAll(async () => {
  server = await startTestServer();
  demo = await seedDemo(server.db);
  Object.assign(clients, await signInAll(server.url, EMAILS));
}, 120_000);
afterAll(() => server?.close());

const base = (customerId: number) => `/api/customers/${customerId}/item_types`;
const list = async (customerId: number, client = clients.admin) => (await client.json<Json>(base(customerId))).body.item_types as Json[];
const descriptions = async (customerId: number) => (await list(customerId)).map((t) => t.description);
const csvPost = (client: Client, path: string, body: string, type = "text/csv") =>
  fetch(server.url + path, { method: "POST", headers: { cookie: client.cookie, "content-type": type, "X-Requested-With": "XMLHttpRequest" }, body });
const freshCustomer = async (code: string, types: string[] = []) => {
  const customer = await createCustomer(server.db, { code, name: `${code} Co` });
  for (const [i, description] of types.entries()) await createItemType(server.db, customer.id, { description, sequence: i + 1 });
  return customer;
};

describe("one item type through the API", () => {
  it("creates with the defaults, reads, changes by the rules and deletes", async () => {
    const customer = await freshCustomer("ITCRUD");
    const site = await createSite(server.db, customer.id, { code: "ITS", name: "Item site" });
    const created = await clients.admin.json<Json>(base(customer.id), { json: { description: "Plain box" } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ customer_id: customer.id, name: "Carton", description: "Plain box", labels: 1, pallet_vendor: 0, som: "metric", increments: "1", site_id: null, has_dangerous_goods: false, item_type_options: { manual_handling: false }, sequence: 1 });
    const id = created.body.id as number;
    expect((await clients.admin.json<Json>(`${base(customer.id)}/${id}`)).body).toEqual(created.body);

    // a pallet keeps its vendor, the weight goes up to the increments, the site is named
    const pallet = await clients.superAdmin.json<Json>(`${base(customer.id)}/${id}`, {
      method: "PUT",
      json: { name: "Pallet", pallet_vendor: 2, weight: "101.2", increments: "0.5", site_id: site.id, labels: 3, item_type_options: { manual_handling: true }, has_dangerous_goods: true, preselected_dg_items: [{ un_number: "1203", proper_shipping_name: "PETROL", hazard_class: "3" }] },
    });
    expect(pallet.status, JSON.stringify(pallet.body)).toBe(200);
    expect(pallet.body).toMatchObject({ name: "Pallet", pallet_vendor: 2, weight: "101.5", increments: "0.5", site_id: site.id, site_name: "Item site", labels: 3, item_type_options: { manual_handling: true }, description: "Plain box" });
    expect(pallet.body.preselected_dg_items).toEqual([expect.objectContaining({ un_number: "1203", proper_shipping_name: "PETROL", hazard_class: "3" })]);
    // no longer a pallet: the vendor resets to Plain
    expect((await clients.admin.json<Json>(`${base(customer.id)}/${id}`, { method: "PUT", json: { name: "Skid" } })).body).toMatchObject({ name: "Skid", pallet_vendor: 0 });

    expect((await clients.admin.json<Json>(`${base(customer.id)}/${id}`, { method: "DELETE" })).body).toEqual({ id, deleted: true });
    expect((await clients.admin.json(`${base(customer.id)}/${id}`)).status).toBe(404);
    expect((await clients.admin.json(`${base(customer.id)}/${id}`, { method: "DELETE" })).status).toBe(404);
  });

  it("answers every bad field at once, and a site of another customer is refused", async () => {
    const customer = await freshCustomer("ITBAD");
    const elsewhere = await createSite(server.db, demo.testCustomer.id, { code: "ELS", name: "Elsewhere" });
    const bad = await clients.admin.json<Json>(base(customer.id), {
      json: { description: "", som: "cubits", pallet_vendor: 9, length: "12345", width: "1.234", height: "x", weight: "123456", increments: "0", labels: 0 },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(["description", "height", "increments", "labels", "length", "pallet_vendor", "som", "weight", "width"]);
    expect(bad.body.errors.description).toEqual([MESSAGES.descriptionRequired]);
    const site = await clients.admin.json<Json>(base(customer.id), { json: { description: "Box", site_id: elsewhere.id } });
    expect(site.status).toBe(422);
    expect(site.body.errors).toEqual({ site_id: [MESSAGES.site] });
    expect((await clients.admin.json(`${base(customer.id)}/abc`)).status).toBe(422);
    expect((await list(customer.id)).length).toBe(0);
  });
});

describe("who may do what", () => {
  it("lets staff into any customer, a customer's users into their own only", async () => {
    const acme = demo.acme.id;
    const other = demo.testCustomer.id;
    for (const c of [clients.superAdmin, clients.admin, clients.customerService]) expect((await c.json(base(other))).status).toBe(200);
    expect((await clients.despatcher.json(base(acme))).status).toBe(200);
    expect((await clients.despatcher.json<Json>(base(acme))).body.item_types.map((t: Json) => t.description)).toEqual(["Carton", "Standard pallet", "Skid", "Satchel 3 kg"]);
    // another customer's ids read as ids that are not there
    const [theirs] = await list(other, clients.other).then((l) => (l.length ? l : Promise.all([clients.admin.json<Json>(base(other), { json: { description: "Tester box" } }).then((r) => r.body)])));
    for (const path of [base(other), `${base(other)}/${theirs!.id}`, `${base(other)}/export`, `${base(acme)}/${theirs!.id}`]) {
      expect((await clients.despatcher.json(path)).status, path).toBe(404);
    }
    expect((await clients.despatcher.json(`${base(other)}/${theirs!.id}`, { method: "PUT", json: { description: "Mine now" } })).status).toBe(404);
    expect((await clients.despatcher.json(`${base(other)}/bulk_delete`, { json: { bulk_item_types: [theirs!.id] } })).status).toBe(404);
    expect((await clients.admin.json(base(999_999))).status).toBe(404);
    expect((await new Client(server.url).json(base(acme))).status).toBe(401);
  });

  it("lets super despatchers change their item types and plain despatchers only read them", async () => {
    const acme = demo.acme.id;
    const denied = [
      clients.despatcher.json(base(acme), { json: { description: "Nope" } }),
      clients.despatcher.json(`${base(acme)}/sort_alphabetically`, { method: "POST" }),
      clients.despatcher.json(`${base(acme)}/update_sequence_order`, { json: { ids: [] } }),
      clients.despatcher.json(`${base(acme)}/bulk_delete`, { json: { bulk_item_types: [1] } }),
      csvPost(clients.despatcher, `${base(acme)}/import`, "description,type\nBox,Carton\n").then((r) => ({ status: r.status })),
    ];
    for (const r of await Promise.all(denied)) expect(r.status).toBe(403);
    const made = await clients.superDespatcher.json<Json>(base(acme), { json: { description: "Super box" } });
    expect(made.status).toBe(201);
    expect((await clients.superDespatcher.json(`${base(acme)}/${made.body.id}`, { method: "DELETE" })).status).toBe(200);
  });
});

describe("the list's order", () => {
  it("saves a new order, the ids not named following, and refuses ids of another customer", async () => {
    const customer = await freshCustomer("ITORDER", ["A", "B", "C", "D"]);
    const ids = (await list(customer.id)).map((t) => t.id as number);
    const moved = await clients.admin.json<Json>(`${base(customer.id)}/update_sequence_order`, { json: { ids: [ids[2], ids[0]] } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.item_types.map((t: Json) => [t.description, t.sequence])).toEqual([["C", 1], ["A", 2], ["B", 3], ["D", 4]]);
    const [foreign] = await list(demo.acme.id);
    const refused = await clients.admin.json<Json>(`${base(customer.id)}/update_sequence_order`, { json: { ids: [ids[1], foreign!.id] } });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ ids: [MESSAGES.ids] });
    expect((await clients.admin.json(`${base(customer.id)}/update_sequence_order`, { json: { ids: "1,2" } })).status).toBe(422);
    expect(await descriptions(customer.id)).toEqual(["C", "A", "B", "D"]);
    expect((await clients.admin.json(`${base(customer.id)}/update_sequence_order`)).status).toBe(405);
  });

  it("sorts alphabetically by description, ignoring case, and a new one goes to the end", async () => {
    const customer = await freshCustomer("ITSORT", ["pallet", "Carton", "box"]);
    const sorted = await clients.admin.json<Json>(`${base(customer.id)}/sort_alphabetically`, { method: "POST" });
    expect(sorted.status).toBe(200);
    expect(sorted.body.item_types.map((t: Json) => t.description)).toEqual(["box", "Carton", "pallet"]);
    await clients.admin.json(base(customer.id), { json: { description: "Aardvark crate" } });
    expect(await descriptions(customer.id)).toEqual(["box", "Carton", "pallet", "Aardvark crate"]);
  });
});

describe("Delete Selected", () => {
  it("deletes all the ids or none, and consignments that used one keep their lines", async () => {
    const customer = await freshCustomer("ITBULK", ["One", "Two", "Three"]);
    const [one, two, three] = (await list(customer.id)).map((t) => t.id as number);
    const [foreign] = await list(demo.acme.id);
    expect((await clients.admin.json(`${base(customer.id)}/bulk_delete`, { json: { bulk_item_types: [one, foreign!.id] } })).status).toBe(404);
    expect((await clients.admin.json(`${base(customer.id)}/bulk_delete`, { json: { bulk_item_types: [] } })).status).toBe(422);
    expect(await descriptions(customer.id)).toEqual(["One", "Two", "Three"]);
    const done = await clients.admin.json<Json>(`${base(customer.id)}/bulk_delete`, { json: { bulk_item_types: [one, three] } });
    expect(done.body).toEqual({ deleted: [one, three].sort((a, b) => a! - b!) });
    expect((await list(customer.id)).map((t) => t.id)).toEqual([two]);
  });

  it("unlinks consignment lines from a deleted item type and leaves the consignment readable", async () => {
    const acme = demo.acme.id;
    const type = await clients.admin.json<Json>(base(acme), { json: { description: "Doomed box", length: 40, width: 30, height: 30, weight: 5 } });
    const body = { site_code: "MEL", reference: "IT-DEL", despatch_date: futureDate(), items: [{ quantity: 2, item_type_id: type.body.id, length: 40, width: 30, height: 30, weight_in_uom: 5 }] };
    const saved = await clients.despatcher.json<Json>("/api/consignments", { json: body });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect((await clients.admin.json(`${base(acme)}/${type.body.id}`, { method: "DELETE" })).status).toBe(200);
    const [line] = await server.db.select().from(consignmentItems).where(eq(consignmentItems.consignmentId, saved.body.id));
    expect(line).toMatchObject({ itemTypeId: null, quantity: 2, length: "40.00" });
    expect((await clients.despatcher.json(`/api/consignments/${saved.body.id}`)).status).toBe(200);
    expect(await server.db.select().from(itemTypes).where(eq(itemTypes.id, type.body.id))).toEqual([]);
  });
});

describe("CSV", () => {
  it("imports good rows with the defaults and reports each bad line with its reasons", async () => {
    const customer = await freshCustomer("ITIMP", ["Existing"]);
    const csv = [
      "Description,Type,unit_of_measurement,vendor,length,width,height,weight,increments,label_count,manual_handling,colour,",
      "Chep pallet,pallet,metric,chep,120,100,150,20.2,0.5,2,yes,blue,x",
      "Bag,Satchel,,,,,,,,,,,",
      ",Carton,,,,,,,,,,,",
      "Crate,Box,,,,,,,,,,,",
      "Big box,Carton,metric,plain,12345,1,1,1,1,1,no,,",
      '"=HYPERLINK(""http://evil"")",Carton,,,,,,,,,,,',
      "Short line,Skid",
    ].join("\n");
    const res = await csvPost(clients.admin, `${base(customer.id)}/import`, csv);
    const report = (await res.json()) as Json;
    expect(res.status, JSON.stringify(report)).toBe(200);
    expect(report.errors).toEqual([
      { line: 4, errors: [MESSAGES.descriptionRequired] },
      { line: 5, errors: [MESSAGES.type] },
      { line: 6, errors: [MESSAGES.dimension("Length")] },
    ]);
    expect(report.successes.map((s: Json) => [s.line, s.description, s.name])).toEqual([
      [2, "Chep pallet", "Pallet"],
      [3, "Bag", "Satchel"],
      [7, '=HYPERLINK("http://evil")', "Carton"],
      [8, "Short line", "Skid"],
    ]);
    const types = await list(customer.id);
    expect(types.map((t) => [t.description, t.sequence])).toEqual([["Existing", 1], ["Chep pallet", 2], ["Bag", 3], ['=HYPERLINK("http://evil")', 4], ["Short line", 5]]);
    expect(types[1]).toMatchObject({ pallet_vendor: 1, weight: "20.5", labels: 2, item_type_options: { manual_handling: true } });
    expect(types[2]).toMatchObject({ som: "metric", pallet_vendor: 0, increments: "1", labels: 1, length: null, weight: null });

    // the export: spec columns, the order of the list, formulas neutralised
    const exported = await clients.despatcher.request(`${base(demo.acme.id)}/export`);
    expect(exported.headers.get("content-type")).toContain("text/csv");
    const mine = await clients.admin.request(`${base(customer.id)}/export`);
    const lines = (await mine.text()).trim().split("\n");
    expect(lines[0]).toBe(CSV_COLUMNS.join(","));
    expect(lines[1]).toBe("Existing,Carton,metric,plain,40,30,30,5,1,1,false");
    expect(lines[2]).toBe("Chep pallet,Pallet,metric,chep,120,100,150,20.5,0.5,2,true");
    expect(lines[4]).toContain(`'=HYPERLINK`);
    const template = (await (await clients.despatcher.request(`${base(demo.acme.id)}/export?template=1`)).text()).trim().split("\n");
    expect(template).toHaveLength(2);
    expect(template[0]).toBe(CSV_COLUMNS.join(","));
  });

  it("refuses a file without the mandatory columns, a file that is not CSV, another type and an oversized body", async () => {
    const customer = await freshCustomer("ITIMPBAD");
    const path = `${base(customer.id)}/import`;
    const noType = await csvPost(clients.admin, path, "description,length\nBox,1\n");
    expect(noType.status).toBe(422);
    expect(((await noType.json()) as Json).errors.file[0]).toContain("missing: type");
    expect((await csvPost(clients.admin, path, 'description,type\n"Box,Carton\n')).status).toBe(422);
    expect((await csvPost(clients.admin, path, '{"description":"Box"}', "application/json")).status).toBe(422);
    expect((await csvPost(clients.admin, path, `description,type\n${"x".repeat(10 * 1024 * 1024)},Carton\n`)).status).toBe(422);
    expect((await list(customer.id)).length).toBe(0);
  });
});

describe("GET /api/users/current", () => {
  it("carries the customer's item types in their order", async () => {
    const me = await clients.despatcher.json<Json>("/api/users/current");
    expect(me.status).toBe(200);
    const types = me.body.customer.item_types as Json[];
    expect(types.map((t) => t.description).slice(0, 4)).toEqual(["Carton", "Standard pallet", "Skid", "Satchel 3 kg"]);
    expect(types[1]).toEqual(
      expect.objectContaining({ id: expect.any(Number), name: "Pallet", description: "Standard pallet", width: "120", length: "120", height: "150", weight: "300", increments: "10", som: "metric", item_type_options: { manual_handling: false }, preselected_dg_items: [] }),
    );
    // a user of another customer sees theirs only
    const theirs = (await clients.other.json<Json>("/api/users/current")).body.customer.item_types as Json[];
    expect(theirs.every((t) => !types.some((m) => m.id === t.id))).toBe(true);
  });
});

it("a despatcher of a new customer sees that customer's item types", async () => {
  const customer = await freshCustomer("ITNEW", ["Own box"]);
  await createUser(server.db, customer.id, { email: "itnew@example.test" });
  const c = new Client(server.url);
  expect((await c.signIn("itnew@example.test")).status).toBe(200);
  expect((await c.json<Json>(base(customer.id))).body.item_types.map((t: Json) => t.description)).toEqual(["Own box"]);
  expect((await c.json(base(demo.acme.id))).status).toBe(404);
});

describe("the item type screens (forms without JavaScript)", () => {
  it("saves from the detail with 'Item type was saved.', shows field errors per field, and deletes back to the list", async () => {
    const customer = await freshCustomer("ITSCR");
    const path = `/customers/${customer.id}/item_types`;
    const form = { description: "Form box", name: "Pallet", som: "metric", pallet_vendor: "2", site_id: "", length: "10", width: "10", height: "10", weight: "3.3", increments: "0.5", labels: "2", manual_handling: "on" };
    const saved = await clients.admin.request(path, { form });
    expect(saved.status).toBe(302);
    const location = saved.headers.get("location")!;
    expect(location).toMatch(/\/item_types\/\d+\?saved=1$/);
    const page = await (await clients.admin.request(location)).text();
    expect(page).toContain(MESSAGES.saved);
    expect(page).toContain('value="3.5"');
    const id = Number(/item_types\/(\d+)/.exec(location)![1]);
    // an unticked box is not posted: it turns the option off
    await clients.admin.request(`${path}/${id}`, { form: { ...form, manual_handling: "" } });
    expect((await clients.admin.json<Json>(`${base(customer.id)}/${id}`)).body.item_type_options).toEqual({ manual_handling: false });

    const refused = await clients.admin.request(`${path}/${id}`, { form: { ...form, description: "", labels: "0" } });
    expect(refused.status).toBe(200);
    const html = await refused.text();
    expect(html).toContain(MESSAGES.descriptionRequired);
    expect(html).toContain(MESSAGES.labels);

    const deleted = await clients.admin.request(`${path}/${id}`, { form: { intent: "delete" } });
    expect(deleted.headers.get("location")).toBe(`/customers/${customer.id}/index_item_types?deleted=1`);
    expect(await (await clients.admin.request(deleted.headers.get("location")!)).text()).toContain(MESSAGES.deleted);
  });

  it("moves a row, sorts and deletes the selected ones from the list", async () => {
    const customer = await freshCustomer("ITSCRL", ["Beta", "Alpha", "Gamma"]);
    const path = `/customers/${customer.id}/index_item_types`;
    const [beta, alpha, gamma] = (await list(customer.id)).map((t) => String(t.id));
    expect((await clients.admin.request(path, { form: { intent: "move", id: alpha!, direction: "up" } })).status).toBe(200);
    expect(await descriptions(customer.id)).toEqual(["Alpha", "Beta", "Gamma"]);
    await clients.admin.request(path, { form: { intent: "move", id: alpha!, direction: "down" } });
    expect(await descriptions(customer.id)).toEqual(["Beta", "Alpha", "Gamma"]);
    await clients.admin.request(path, { form: { intent: "sort" } });
    expect(await descriptions(customer.id)).toEqual(["Alpha", "Beta", "Gamma"]);
    const body = new URLSearchParams([["intent", "bulk_delete"], ["bulk_item_types", beta!], ["bulk_item_types", gamma!]]).toString();
    // the checkboxes post bulk_item_types once for each row ticked
    const res = await fetch(server.url + path, { method: "POST", headers: { cookie: clients.admin.cookie, "content-type": "application/x-www-form-urlencoded" }, body });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("2 item types deleted.");
    expect(await descriptions(customer.id)).toEqual(["Alpha"]);
  });

  it("lets a despatcher read their own item types but not change them, and hides another customer's", async () => {
    const acme = `/customers/${demo.acme.id}`;
    const page = await (await clients.despatcher.request(`${acme}/index_item_types`)).text();
    expect(page).toContain("Standard pallet");
    expect(page).not.toContain("Delete Selected");
    expect((await clients.despatcher.request(`${acme}/item_types/1`)).status).toBe(200);
    expect((await clients.despatcher.request(`${acme}/item_types`, { form: { description: "Nope" } })).status).toBe(403);
    expect((await clients.despatcher.request(`${acme}/index_item_types`, { form: { intent: "sort" } })).status).toBe(403);
    expect((await clients.despatcher.request(`/customers/${demo.testCustomer.id}/index_item_types`)).status).toBe(404);
    expect((await clients.other.request(`${acme}/item_types/1`)).status).toBe(404);
  });
});
