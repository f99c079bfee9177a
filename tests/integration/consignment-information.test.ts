import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consignmentChanges, customers, users } from "../../db/schema";
import { Client, type TestServer } from "../support/server";
import * as support from "../support/despatch";
import type { DespatchWorld, Json } from "../support/despatch";
import { withAppEnv } from "../support/app-env";

/**
 * The consignment information view's calls (issue 15 item 6), through the real server: who may
 * read and who may edit, optimistic locking, the 5 s block, the QA-only state edit by
 * environment, scoping to the working customer, and the documents printed for it.
 */
let world: DespatchWorld;
let server: TestServer;
let admin: Client;
let despatcher: Client;
let superadmin: Client;

const STALE = "Unable to save. Someone else may have modified the consignment, please refresh.";
const BLOCKED = "Please wait 5 seconds before saving this consignment again.";
const QA_ONLY = "The state can be edited only in the qa or uat environments.";
const calls = (id: number) => [`/api/consignment_information?id=${id}`, `/api/consignment_changes?id=${id}`, `/api/item_changes?id=${id}`, `/api/retrieve_file?id=${id}&type=labels`];

const create = (over: Record<string, unknown> = {}) => support.createDespatchable(world, despatcher, "MEL", "NORTHLINE", "GEN", over);
/** the despatcher's ordinary save of what `c` holds, with `over` changed */
const resave = (c: Json, over: Record<string, unknown>) =>
  despatcher.json<Json>(`/api/consignments/${c.id}`, {
    method: "PUT",
    json: { version: c.version, site_code: "MEL", reference: c.reference, despatch_date: c.despatch_date, sender_address: support.senders.MEL, receiver_address: support.receiver, items: [{ quantity: 2, item_type_id: world.cartonTypeId, length: 40, width: 30, height: 30, weight_in_uom: "10" }], carrier_code: "NORTHLINE", service_code: "GEN", ...over },
  });
const info = async (client: Client, id: number) => (await client.json<Json>(`/api/consignment_information?id=${id}`)).body;
const valueOf = (body: Json, field: string) => (body.fields as Array<{ field: string; value: string | null }>).find((f) => f.field === field)?.value;
const superadminPut = (client: Client, id: number, json: Record<string, unknown>) => client.json<Json>(`/api/consignments/${id}`, { method: "PUT", json: { superadmin: true, ...json } });
/** as if the last super admin save was `seconds` ago (no waiting in tests) */
const backdateSaves = (id: number, seconds = 6) =>
  server.db
    .update(consignmentChanges)
    .set({ changedAt: sql`${consignmentChanges.changedAt} - make_interval(secs => ${seconds})` })
    .where(eq(consignmentChanges.consignmentId, id));

beforeAll(async () => {
  world = await support.startDespatchWorld();
  server = world.server;
  ({ admin, despatcher } = world.clients);
  superadmin = new Client(server.url);
  expect((await superadmin.signIn("superadmin@example.com")).status).toBe(200);
}, 120_000);
afterAll(() => server.close());

describe("reading: GET /api/consignment_information, /consignment_changes, /item_changes, /retrieve_file", () => {
  it("answers admin, super admin and devs; refuses despatchers and customer service (403) and callers without a session (401)", async () => {
    const c = await create();
    for (const url of calls(c.id)) {
      expect((await despatcher.json(url)).status, url).toBe(403);
      const cs = await world.clients.customerService.json<Json>(url);
      expect(cs.status, url).toBe(403);
      expect(cs.body.errors.base[0]).toMatch(/^Sorry Casey, You are not authorised to do that\./);
      expect((await new Client(server.url).json(url)).status, url).toBe(401);
    }
    for (const client of [admin, world.clients.devs, superadmin]) {
      const res = await client.json<Json>(`/api/consignment_information?id=${c.id}`);
      expect(res.status).toBe(200);
      expect((await client.json(`/api/consignment_changes?id=${c.id}`)).status).toBe(200);
      expect((await client.json(`/api/item_changes?id=${c.id}`)).status).toBe(200);
    }
  });

  it("gives the field/value table with the site, carrier account and who made it; only super admins get fields to edit", async () => {
    const c = await create({ reference: "INFO-TABLE", special_instructions: "Leave at the dock" });
    const body = await info(admin, c.id);
    expect(body.id).toBe(c.id);
    expect(body.version).toBe(c.version);
    expect(valueOf(body, "consignment_number")).toBe("Pending");
    expect(valueOf(body, "reference")).toBe("INFO-TABLE");
    expect(valueOf(body, "special_instructions")).toBe("Leave at the dock");
    expect(valueOf(body, "state")).toBe("despatchable");
    expect(valueOf(body, "carrier_name")).toBe("Northline");
    expect(valueOf(body, "service_name")).toBe("General Road");
    expect(valueOf(body, "site")).toBe("Melbourne DC (MEL)");
    expect(valueOf(body, "carrier_account")).toBeTruthy();
    expect(valueOf(body, "receiver_name")).toBe("Brisbane Hardware");
    expect(valueOf(body, "total_quantity")).toBe("2");
    const [creator] = await server.db.select({ name: users.fullName }).from(users).where(eq(users.email, "despatcher@example.com"));
    expect(valueOf(body, "created_by")).toBe(creator!.name);
    expect(body.site).toMatchObject({ code: "MEL", name: "Melbourne DC", href: `/customers/${body.site.customer_id}/sites/${body.site.id}` });
    expect(body.documents).toEqual([]);
    expect(body.can_edit).toBe(false);
    expect(body.editable_fields).toEqual([]);
    const mine = await info(superadmin, c.id);
    expect(mine.can_edit).toBe(true);
    expect(mine.editable_fields).toEqual(expect.arrayContaining(["reference", "despatch_date", "consignment_number", "active"]));
  });

  it("keeps the consignment's changes and its items' changes apart; an item change names the item", async () => {
    const c = await create({ reference: "BEFORE" });
    const saved = await resave(c, { reference: "AFTER", items: [{ quantity: 3, item_type_id: world.cartonTypeId, length: 40, width: 30, height: 30, weight_in_uom: "12" }] });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const changes = (await admin.json<Json>(`/api/consignment_changes?id=${c.id}`)).body.changes as Json[];
    expect(changes.find((x) => x.field === "reference")).toMatchObject({ version: c.version + 1, from: "BEFORE", to: "AFTER", by: expect.any(String) });
    expect(changes.some((x) => String(x.field).startsWith("items."))).toBe(false);
    const items = (await admin.json<Json>(`/api/item_changes?id=${c.id}`)).body.changes as Json[];
    expect(items.find((x) => x.field === "items.0.quantity")).toMatchObject({ from: "2", to: "3", item_id: saved.body.items[0].id });
    expect(items.find((x) => x.field === "items.0.weight_in_uom")).toMatchObject({ from: "10", to: "12" });
  });

  it("answers 404 for another customer's consignment, also to staff working in that other customer", async () => {
    const c = await create();
    const [testco] = await server.db.select().from(customers).where(eq(customers.code, "TESTCO"));
    // the working customer is the user's (every session of it): back home afterwards
    expect((await superadmin.json(`/api/users/switch_customer/${testco!.id}`, { method: "POST" })).status).toBe(200);
    try {
      for (const url of calls(c.id)) expect((await superadmin.json(url)).status, url).toBe(404);
      const put = await superadminPut(superadmin, c.id, { version: c.version, reference: "NOT-YOURS" });
      expect(put.status).toBe(404);
    } finally {
      expect((await superadmin.json(`/api/users/switch_customer/${c.customer_id}`, { method: "POST" })).status).toBe(200);
    }
    expect(valueOf(await info(admin, c.id), "reference")).toBe("REF-NORTHLINE");
  });

  it("refuses a missing or bad id and an unknown document type (422)", async () => {
    expect((await admin.json("/api/consignment_information")).status).toBe(422);
    expect((await admin.json("/api/item_changes?id=abc")).status).toBe(422);
    const c = await create();
    const bad = await admin.json<Json>(`/api/retrieve_file?id=${c.id}&type=invoice`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors.type[0]).toBe("type must be one of labels, connote, dangerous_goods, manifest");
  });
});

describe("GET /api/retrieve_file", () => {
  it("answers each document that applies as a PDF, and 404 saying so for one that does not", async () => {
    const c = await create();
    const notYet = await admin.json<Json>(`/api/retrieve_file?id=${c.id}&type=labels`);
    expect(notYet.status).toBe(404);
    expect(notYet.body.errors.type).toEqual(["Labels have not been printed for this consignment."]);
    expect((await despatcher.request(`/print/${c.id}/labels`, { method: "POST" })).status).toBe(200);

    const listed = await info(admin, c.id);
    expect(listed.documents.map((d: Json) => d.type)).toEqual(["labels", "connote"]);
    for (const type of ["labels", "connote"]) {
      const res = await admin.request(`/api/retrieve_file?id=${c.id}&type=${type}`);
      expect(res.status, type).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/pdf");
      expect(Buffer.from(await res.arrayBuffer()).subarray(0, 4).toString()).toBe("%PDF");
    }
    const dg = await admin.json<Json>(`/api/retrieve_file?id=${c.id}&type=dangerous_goods`);
    expect(dg.status).toBe(404);
    expect(dg.body.errors.type).toEqual(["This consignment has no dangerous goods document: it carries no dangerous goods, or it has no number yet."]);
    expect((await admin.json(`/api/retrieve_file?id=${c.id}&type=manifest`)).status).toBe(404);

    // once despatched, its manifest
    const job = await despatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids: [c.id] } });
    expect((await support.workJob(world, job.body.job_id)).status).toBe("complete");
    expect((await info(admin, c.id)).documents.map((d: Json) => d.type)).toContain("manifest");
    const manifest = await admin.request(`/api/retrieve_file?id=${c.id}&type=manifest`);
    expect(manifest.status).toBe(200);
    expect(Buffer.from(await manifest.arrayBuffer()).subarray(0, 4).toString()).toBe("%PDF");
  });
});

describe("a super admin's edit: PUT /api/consignments/{id} { superadmin: true }", () => {
  it("is refused to admins and despatchers (403) and changes nothing", async () => {
    const c = await create({ reference: "KEEP" });
    for (const client of [admin, despatcher, world.clients.customerService]) {
      const res = await superadminPut(client, c.id, { version: c.version, reference: "CHANGED" });
      expect(res.status).toBe(403);
    }
    expect(valueOf(await info(admin, c.id), "reference")).toBe("KEEP");
  });

  it("saves the fields given, even on a despatched consignment, and writes each change with the super admin as 'by'", async () => {
    const c = await create({ reference: "OLD-REF", charge_account: "ACC1" });
    const job = await despatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids: [c.id] } });
    expect((await support.workJob(world, job.body.job_id)).status).toBe("complete");
    const now = await info(superadmin, c.id);
    const res = await superadminPut(superadmin, c.id, { version: now.version, reference: "NEW-REF", special_instructions: "Call ahead", estimated_delivery_date: "2030-01-31" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ version: now.version + 1, reference: "NEW-REF", special_instructions: "Call ahead", estimated_delivery_date: "2030-01-31", charge_account: "ACC1", state: "despatched" });
    const [me] = await server.db.select({ name: users.fullName }).from(users).where(eq(users.email, "superadmin@example.com"));
    const changes = (await admin.json<Json>(`/api/consignment_changes?id=${c.id}`)).body.changes as Json[];
    expect(changes.find((x) => x.field === "reference")).toMatchObject({ version: now.version + 1, from: "OLD-REF", to: "NEW-REF", by: me!.name });
    expect(changes.find((x) => x.field === "special_instructions")).toMatchObject({ from: null, to: "Call ahead", by: me!.name });
    expect(changes.find((x) => x.field === "charge_account")).toBeUndefined();
  });

  it("refuses a stale version with the stale message and changes nothing", async () => {
    const c = await create({ reference: "FIRST" });
    expect((await resave(c, { reference: "SECOND" })).status).toBe(200);
    const res = await superadminPut(superadmin, c.id, { version: c.version, reference: "THIRD" });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ errors: { base: [STALE] }, error_code: "stale" });
    expect(valueOf(await info(admin, c.id), "reference")).toBe("SECOND");
  });

  it("blocks a second save of the same consignment by the same super admin within 5 s", async () => {
    const c = await create({ reference: "ONE" });
    const first = await superadminPut(superadmin, c.id, { version: c.version, reference: "TWO" });
    expect(first.status).toBe(200);
    const second = await superadminPut(superadmin, c.id, { version: first.body.version, reference: "THREE" });
    expect(second.status).toBe(409);
    expect(second.body.errors.base).toEqual([BLOCKED]);
    expect(valueOf(await info(admin, c.id), "reference")).toBe("TWO");
    // another super admin is not blocked by it
    const devs = await superadminPut(world.clients.devs, c.id, { version: first.body.version, reference: "DEVS" });
    expect(devs.status).toBe(200);
    // five seconds on, the first may save again
    await backdateSaves(c.id);
    const later = await superadminPut(superadmin, c.id, { version: devs.body.version, reference: "FOUR" });
    expect(later.status, JSON.stringify(later.body)).toBe(200);
    expect(later.body.reference).toBe("FOUR");
  });

  it("validates the fields (422 per field) and needs the version", async () => {
    const c = await create();
    const noVersion = await superadminPut(superadmin, c.id, { reference: "X" });
    expect(noVersion.status).toBe(422);
    expect(noVersion.body.errors.version).toEqual(["Version is required"]);
    const bad = await superadminPut(superadmin, c.id, { version: c.version, special_instructions: "x".repeat(81), estimated_delivery_date: "31/01/2030", consignment_number: "AB 12" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.special_instructions).toEqual(["Special instructions is too long (maximum is 80 characters)"]);
    expect(bad.body.errors.estimated_delivery_date).toEqual(["Estimated delivery date must be a date (YYYY-MM-DD)"]);
    expect(bad.body.errors.consignment_number).toEqual(["Consignment number may hold letters, digits and dashes only"]);
    const rows = await server.db.select().from(consignmentChanges).where(and(eq(consignmentChanges.consignmentId, c.id), eq(consignmentChanges.field, "superadmin_save")));
    expect(rows).toEqual([]);
  });

  it("sets the state past the state machine only in qa or uat; refuses it in production", async () => {
    const c = await create();
    await withAppEnv("production", async () => {
      expect((await info(superadmin, c.id)).editable_fields).not.toContain("state");
      const res = await superadminPut(superadmin, c.id, { version: c.version, state: "delivered" });
      expect(res.status).toBe(403);
      expect(res.body.errors.state).toEqual([QA_ONLY]);
      expect(valueOf(await info(admin, c.id), "state")).toBe("despatchable");
    });
    await withAppEnv("uat", async () => {
      expect((await info(superadmin, c.id)).editable_fields).toContain("state");
      const res = await superadminPut(superadmin, c.id, { version: c.version, state: "delivered" });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.state).toBe("delivered");
      const changes = (await admin.json<Json>(`/api/consignment_changes?id=${c.id}`)).body.changes as Json[];
      expect(changes.find((x) => x.field === "state")).toMatchObject({ from: "despatchable", to: "delivered" });
    });
  });
});

describe("the information page without JavaScript, /consignment/{id}/information", () => {
  const page = async (client: Client, url: string, form?: Record<string, string>) => {
    const res = await client.request(url, form ? { form } : {});
    return { status: res.status, html: (await res.text()).replaceAll("<!-- -->", ""), location: res.headers.get("location") };
  };

  it("shows the tables and the buttons to admins; refuses despatchers", async () => {
    const c = await create({ reference: "PAGE-REF" });
    const shown = await page(admin, `/consignment/${c.id}/information`);
    expect(shown.status).toBe(200);
    expect(shown.html).toContain("Consignment information");
    expect(shown.html).toContain("PAGE-REF");
    expect(shown.html).toContain("Change history");
    expect(shown.html).toContain("Item audit history");
    expect(shown.html).toContain("Download Files");
    expect(shown.html).toMatch(/href="\/customers\/\d+\/sites\/\d+"/);
    // an admin reads; only a super admin gets Info Save and the inputs
    expect(shown.html).not.toContain("Info Save");
    expect(shown.html).not.toContain('name="reference"');
    expect((await page(despatcher, `/consignment/${c.id}/information`)).status).toBe(403);
    expect((await page(admin, `/consignment/99999999/information`)).status).toBe(404);
  });

  it("lets a super admin save from the form (PRG), and answers the form's errors", async () => {
    const c = await create({ reference: "FORM-OLD" });
    const form = await page(superadmin, `/consignment/${c.id}/information`);
    expect(form.html).toContain("Info Save");
    expect(form.html).toContain('name="reference"');
    const saved = await page(superadmin, `/consignment/${c.id}/information`, { version: String(c.version), reference: "FORM-NEW", intent: "info_save" });
    expect(saved.status).toBe(302);
    expect(saved.location).toBe(`/consignment/${c.id}/information?saved=1`);
    const after = await page(superadmin, saved.location!);
    expect(after.html).toContain("Consignment information was saved.");
    expect(after.html).toContain("FORM-NEW");
    await backdateSaves(c.id);
    const stale = await page(superadmin, `/consignment/${c.id}/information`, { version: String(c.version), reference: "LOST" });
    expect(stale.status).toBe(409);
    expect(stale.html).toContain(STALE);
    // what was typed comes back in the form
    expect(stale.html).toContain('value="LOST"');
    expect((await page(admin, `/consignment/${c.id}/information`, { version: String(c.version + 1), reference: "ADMIN" })).status).toBe(403);
  });
});
