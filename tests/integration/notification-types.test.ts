import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customers, notificationConfigs, notificationTypes } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { MESSAGES } from "../../app/modules/notifications/types";
import { Client, signInAll, startTestServer, type TestServer } from "../support/server";

/**
 * Notification types (issue 14 item 6; spec 2 /index_notification_types, /notification_types/{id?}
 * and /api/notification_types): super admins keep them through the screens and the API.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

let server: TestServer;
const clients = {} as Record<"superAdmin" | "devs" | "admin" | "customerService" | "despatcher", Client>;
const EMAILS = { superAdmin: "superadmin@example.com", devs: "devs@example.com", admin: "admin@example.com", customerService: "customerservice@example.com", despatcher: "despatcher@example.com" };

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  Object.assign(clients, await signInAll(server.url, EMAILS));
}, 120_000);
afterAll(() => server?.close());

const create = (body: unknown, client = clients.superAdmin) => client.json<Json>("/api/notification_types", { json: body });
const list = async () => (await clients.superAdmin.json<Json>("/api/notification_types")).body.notification_types as Json[];
const typeRow = async (id: number) => (await server.db.select().from(notificationTypes).where(eq(notificationTypes.id, id)))[0];
const idOf = async (name: string) => (await server.db.select().from(notificationTypes).where(eq(notificationTypes.name, name)))[0]!.id;
/** A page's form, posted as a browser without JavaScript posts it. */
const post = (path: string, form: Record<string, string>, client = clients.superAdmin) => client.request(path, { form });

describe("notification types through the API", () => {
  it("lists them by name (case aside), and creates, reads, changes and deletes one", async () => {
    const seeded = await list();
    expect(seeded.map((t) => [t.name, t.field_name, t.max_length, t.used_by])).toEqual([
      ["Email", "email", null, 0],
      ["SMS", "phone", 160, 0],
    ]);
    for (const name of ["zeta", "Alpha", "bravo"]) expect((await create({ name, field_name: "email" })).status).toBe(201);
    expect((await list()).map((t) => t.name)).toEqual(["Alpha", "bravo", "Email", "SMS", "zeta"]);

    const created = await create({ name: "  Push  ", max_length: "240", field_name: "phone" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), name: "Push", max_length: 240, field_name: "phone", used_by: 0 });
    const id = created.body.id as number;
    expect((await clients.superAdmin.json<Json>(`/api/notification_types/${id}`)).body).toEqual(created.body);

    // a change names only what changes; max_length null is no limit
    const renamed = await clients.superAdmin.json<Json>(`/api/notification_types/${id}`, { method: "PUT", json: { name: "Push message" } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id, name: "Push message", max_length: 240, field_name: "phone" });
    const unlimited = await clients.devs.json<Json>(`/api/notification_types/${id}`, { method: "PUT", json: { max_length: null, field_name: "email" } });
    expect(unlimited.body).toMatchObject({ id, name: "Push message", max_length: null, field_name: "email" });
    // its own name again is no clash
    expect((await clients.superAdmin.json<Json>(`/api/notification_types/${id}`, { method: "PUT", json: { name: "push MESSAGE" } })).status).toBe(200);
    expect(await typeRow(id)).toMatchObject({ name: "push MESSAGE", maxLength: null, fieldName: "email" });

    const deleted = await clients.superAdmin.json<Json>(`/api/notification_types/${id}`, { method: "DELETE" });
    expect([deleted.status, deleted.body]).toEqual([200, { id, deleted: true }]);
    expect(await typeRow(id)).toBeUndefined();
    for (const method of ["GET", "PUT", "DELETE"]) {
      const gone = await clients.superAdmin.json<Json>(`/api/notification_types/${id}`, { method, ...(method === "PUT" ? { json: { name: "Back" } } : {}) });
      expect([method, gone.status, gone.body.errors.base]).toEqual([method, 404, [MESSAGES.notFound]]);
    }
    for (const bad of ["abc", "0", "99999999999"]) expect((await clients.superAdmin.json<Json>(`/api/notification_types/${bad}`)).status).toBeGreaterThanOrEqual(404);
  });

  it("answers per field: blank or duplicate name, max_length not a positive whole number, field_name not email or phone", async () => {
    const sms = await idOf("SMS");
    const cases: Array<[Json, string, string]> = [
      [{ field_name: "email" }, "name", MESSAGES.nameRequired],
      [{ name: "   ", field_name: "email" }, "name", MESSAGES.nameRequired],
      [{ name: "x".repeat(101), field_name: "email" }, "name", MESSAGES.nameTooLong],
      [{ name: "Email", field_name: "email" }, "name", MESSAGES.nameTaken],
      [{ name: "sms", field_name: "phone" }, "name", MESSAGES.nameTaken],
      [{ name: "T", max_length: 0, field_name: "email" }, "max_length", MESSAGES.maxLength],
      [{ name: "T", max_length: -1, field_name: "email" }, "max_length", MESSAGES.maxLength],
      [{ name: "T", max_length: "abc", field_name: "email" }, "max_length", MESSAGES.maxLength],
      [{ name: "T", max_length: 1.5, field_name: "email" }, "max_length", MESSAGES.maxLength],
      [{ name: "T", max_length: "1e3", field_name: "email" }, "max_length", MESSAGES.maxLength],
      [{ name: "T", max_length: 2 ** 31, field_name: "email" }, "max_length", MESSAGES.maxLengthTooBig],
      [{ name: "T", field_name: "fax" }, "field_name", MESSAGES.fieldName],
      [{ name: "T" }, "field_name", MESSAGES.fieldName],
    ];
    for (const [body, field, message] of cases) {
      const res = await create(body);
      expect([JSON.stringify(body), res.status, res.body.errors[field]]).toEqual([JSON.stringify(body), 422, [message]]);
    }
    // a change is checked the same way, against the other types' names
    const clash = await clients.superAdmin.json<Json>(`/api/notification_types/${sms}`, { method: "PUT", json: { name: "EMAIL", max_length: "abc" } });
    expect(clash.status).toBe(422);
    // every field at once: the taken name is told beside the bad max_length
    expect(clash.body.errors).toEqual({ name: [MESSAGES.nameTaken], max_length: [MESSAGES.maxLength] });
    const taken = await clients.superAdmin.json<Json>(`/api/notification_types/${sms}`, { method: "PUT", json: { name: "EMAIL" } });
    expect([taken.status, taken.body.errors]).toEqual([422, { name: [MESSAGES.nameTaken] }]);
    const badField = await clients.superAdmin.json<Json>(`/api/notification_types/${sms}`, { method: "PUT", json: { field_name: "pager" } });
    expect([badField.status, badField.body.errors]).toEqual([422, { field_name: [MESSAGES.fieldName] }]);
    expect(await typeRow(sms)).toMatchObject({ name: "SMS", maxLength: 160, fieldName: "phone" });
    // not JSON at all: a 4xx, never a 500
    const junk = await clients.superAdmin.request("/api/notification_types", { method: "POST", headers: { "content-type": "application/json" } });
    expect(junk.status).toBeLessThan(500);
    expect(junk.status).toBeGreaterThanOrEqual(400);
  });
});

describe("junk from a super admin (the junk test's users are refused before their bodies are read)", () => {
  it("answers 4xx or success, never 500, to generated bodies and ids", async () => {
    const before = new Set((await list()).map((t) => t.id as number));
    const target = (await create({ name: "Fuzz target", field_name: "email" })).body.id as number;
    const value = fc.oneof(fc.string({ maxLength: 120 }), fc.integer(), fc.double(), fc.constantFrom(null, true, [], {}, "", " 7", "1e3", "2147483648", "\u0000"), fc.jsonValue({ maxDepth: 2 }));
    const body = fc.record({ name: value, max_length: value, field_name: fc.oneof(value, fc.constantFrom("email", "phone")) }, { requiredKeys: [] });
    const id = fc.oneof(fc.constant(String(target)), fc.constantFrom("0", "-1", "abc", "2147483648", "1.5", "%00"));
    const result = await fc.check(
      fc.asyncProperty(fc.constantFrom("POST", "PUT"), id, body, async (method, at, json) => {
        const res = await clients.superAdmin.json<Json>(method === "POST" ? "/api/notification_types" : `/api/notification_types/${at}`, { method, json });
        return res.status < 500;
      }),
      { seed: 14_006, numRuns: 80 },
    );
    expect(result.failed ? fc.defaultReportMessage(result) : null).toBeNull();
    // what the junk made goes, so the tests after it see the types they expect
    for (const t of await list()) if (!before.has(t.id)) await server.db.delete(notificationTypes).where(eq(notificationTypes.id, t.id));
  });
});

describe("notification types through the screens", () => {
  it("lists by name, creates, edits and deletes with forms that need no JavaScript", async () => {
    const page = await clients.superAdmin.request("/index_notification_types");
    expect(page.status).toBe(200);
    const html = await page.text();
    const order = ["Alpha", "bravo", "Email", "SMS", "zeta"].map((name) => html.indexOf(`aria-label="Edit ${name}"`));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(html).toContain('href="/notification_types"');
    expect(html).not.toContain(MESSAGES.saved);

    const blank = await clients.superAdmin.request("/notification_types");
    expect(blank.status).toBe(200);
    const form = await blank.text();
    for (const field of ["name", "max_length", "field_name"]) expect(form).toContain(`<label for="${field}"`);
    expect(form).toContain('<option value="phone">');

    const saved = await post("/notification_types", { name: "Screen SMS", max_length: "70", field_name: "phone", intent: "save" });
    expect([saved.status, saved.headers.get("location")]).toEqual([302, "/index_notification_types?saved=1"]);
    const id = await idOf("Screen SMS");
    expect(await typeRow(id)).toMatchObject({ maxLength: 70, fieldName: "phone" });
    const after = await (await clients.superAdmin.request("/index_notification_types?saved=1")).text();
    expect(after).toContain(MESSAGES.saved);
    expect(after).toContain("Screen SMS");

    const editor = await (await clients.superAdmin.request(`/notification_types/${id}`)).text();
    expect(editor).toContain('value="Screen SMS"');
    expect(editor).toContain('value="70"');
    const changed = await post(`/notification_types/${id}`, { name: "Screen e-mail", max_length: "", field_name: "email", intent: "save" });
    expect([changed.status, changed.headers.get("location")]).toEqual([302, "/index_notification_types?saved=1"]);
    expect(await typeRow(id)).toMatchObject({ name: "Screen e-mail", maxLength: null, fieldName: "email" });

    const deleted = await post(`/notification_types/${id}`, { intent: "delete" });
    expect([deleted.status, deleted.headers.get("location")]).toEqual([302, "/index_notification_types?deleted=1"]);
    expect(await typeRow(id)).toBeUndefined();
    expect(await (await clients.superAdmin.request("/index_notification_types?deleted=1")).text()).toContain(MESSAGES.deleted);
    // a type that is not there: the page's 404
    expect((await clients.superAdmin.request(`/notification_types/${id}`)).status).toBe(404);
    expect((await clients.superAdmin.request("/notification_types/abc")).status).toBe(404);
    expect((await post(`/notification_types/${id}`, { name: "Again", field_name: "email", intent: "save" })).status).toBe(404);
  });

  it("shows the server's errors beside each field and keeps what was typed", async () => {
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ name: "", max_length: "", field_name: "email" }, "name", MESSAGES.nameRequired],
      [{ name: "email", max_length: "", field_name: "email" }, "name", MESSAGES.nameTaken],
      [{ name: "Typed", max_length: "0", field_name: "email" }, "max_length", MESSAGES.maxLength],
      [{ name: "Typed", max_length: "-1", field_name: "email" }, "max_length", MESSAGES.maxLength],
      [{ name: "Typed", max_length: "abc", field_name: "email" }, "max_length", MESSAGES.maxLength],
      [{ name: "Typed", max_length: "", field_name: "fax" }, "field_name", MESSAGES.fieldName],
      [{ name: "Ty\u0000ped", max_length: "", field_name: "email" }, "name", MESSAGES.nameControl],
    ];
    for (const [form, field, message] of cases) {
      const res = await post("/notification_types", { ...form, intent: "save" });
      expect([JSON.stringify(form), res.status]).toEqual([JSON.stringify(form), 422]);
      const html = await res.text();
      expect(html).toMatch(new RegExp(`<p id="${field}-error" class="field-error">${message.replace(/[()]/g, "\\$&")}</p>`));
      expect(html).toMatch(new RegExp(`id="${field}"[^>]*aria-invalid="true"[^>]*aria-describedby="[^"]*${field}-error`));
    }
    const both = await (await post("/notification_types", { name: "SMS", max_length: "0", field_name: "phone", intent: "save" })).text();
    expect(both).toContain(`<p id="name-error" class="field-error">${MESSAGES.nameTaken}</p>`);
    expect(both).toContain(`<p id="max_length-error" class="field-error">${MESSAGES.maxLength}</p>`);
    const kept = await (await post("/notification_types", { name: "Kept name", max_length: "abc", field_name: "phone", intent: "save" })).text();
    expect(kept).toContain('value="Kept name"');
    expect(kept).toContain('value="abc"');
    expect(kept).toMatch(/<option value="phone" selected="">/);
    const sms = await idOf("SMS");
    const renamed = await post(`/notification_types/${sms}`, { name: "Email", max_length: "160", field_name: "phone", intent: "save" });
    expect(renamed.status).toBe(422);
    expect(await renamed.text()).toContain(MESSAGES.nameTaken);
    expect(await typeRow(sms)).toMatchObject({ name: "SMS" });
  });
});

describe("a type notification preferences use", () => {
  it("cannot be deleted until none does", async () => {
    const sms = await idOf("SMS");
    const [acme] = await server.db.select().from(customers).where(eq(customers.code, "ACME"));
    const [config] = await server.db
      .insert(notificationConfigs)
      .values({ customerId: acme!.id, parentType: "customer", parentId: acme!.id, notificationTypeId: sms, consignmentState: "delivered", template: "<p>Delivered {{ consignment_number }}</p>" })
      .returning();
    expect((await list()).find((t) => t.id === sms)?.used_by).toBe(1);

    const api = await clients.superAdmin.json<Json>(`/api/notification_types/${sms}`, { method: "DELETE" });
    expect([api.status, api.body.errors]).toEqual([409, { base: [MESSAGES.inUse] }]);
    const screen = await post(`/notification_types/${sms}`, { intent: "delete" });
    expect(screen.status).toBe(409);
    expect(await screen.text()).toContain(MESSAGES.inUse);
    expect(await (await clients.superAdmin.request(`/notification_types/${sms}`)).text()).toContain("Used by 1 notification preference");
    expect(await typeRow(sms)).toBeDefined();

    await server.db.delete(notificationConfigs).where(eq(notificationConfigs.id, config!.id));
    expect((await clients.superAdmin.json<Json>(`/api/notification_types/${sms}`, { method: "DELETE" })).status).toBe(200);
  });
});

describe("who may keep notification types", () => {
  it("refuses everyone but super admins on every page, form and call", async () => {
    const email = await idOf("Email");
    const before = await server.db.select().from(notificationTypes);
    for (const who of ["admin", "customerService", "despatcher"] as const) {
      const client = clients[who];
      for (const path of ["/index_notification_types", "/notification_types", `/notification_types/${email}`]) {
        const res = await client.request(path);
        expect([who, path, res.status, res.headers.get("location")]).toEqual([who, path, 302, "/"]);
      }
      const created = await post("/notification_types", { name: `By ${who}`, field_name: "email", intent: "save" }, client);
      expect([who, created.status, created.headers.get("location")]).toEqual([who, 302, "/"]);
      for (const form of [{ intent: "delete" }, { name: `By ${who}`, field_name: "phone", intent: "save" }] as Array<Record<string, string>>) {
        const res = await post(`/notification_types/${email}`, form, client);
        expect([who, form.intent, res.status, res.headers.get("location")]).toEqual([who, form.intent, 302, "/"]);
      }
      const calls: Array<[string, string, unknown?]> = [
        ["GET", "/api/notification_types"],
        ["POST", "/api/notification_types", { name: `By ${who}`, field_name: "email" }],
        ["POST", "/api/notification_types", { name: "" }],
        ["GET", `/api/notification_types/${email}`],
        ["GET", "/api/notification_types/999999"],
        ["PUT", `/api/notification_types/${email}`, { name: `By ${who}` }],
        ["DELETE", `/api/notification_types/${email}`],
      ];
      for (const [method, path, json] of calls) {
        const res = await client.json<Json>(path, { method, json });
        expect([who, method, path, res.status]).toEqual([who, method, path, 403]);
        expect(res.body.errors.base[0]).toMatch(/not authorised/);
      }
    }
    expect(await server.db.select().from(notificationTypes)).toEqual(before);
    // without a session: the API says so, the pages go to sign in
    const stranger = new Client(server.url);
    expect((await stranger.json<Json>("/api/notification_types")).status).toBe(401);
    expect((await stranger.request("/index_notification_types")).headers.get("location")).toMatch(/^\/login/);
    // devs are super admins too
    expect((await clients.devs.request("/index_notification_types")).status).toBe(200);
  });
});

describe("an empty list", () => {
  it("says 'No Notification Types found.' on the screen and is [] through the API", async () => {
    await server.db.delete(notificationConfigs);
    await server.db.delete(notificationTypes);
    expect(await list()).toEqual([]);
    const html = await (await clients.superAdmin.request("/index_notification_types")).text();
    expect(html).toContain("No Notification Types found.");
    expect(html).not.toContain('data-testid="notification-types"');
  });
});
