// @engines: PostgreSQL and PGlite in CI, because the drivers name a violated unique index differently (constraint_name, constraint).
import { gzipSync } from "node:zlib";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessions, users, userSites } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { createCustomer, createSite, createUser } from "../../db/seed/factories";
import { isValidPassword } from "../../app/modules/auth/password-rule";
import { MESSAGES } from "../../app/modules/users/admin";
import { IMPORT_MESSAGES, MAX_DECOMPRESSED_BYTES, MAX_IMPORT_ROWS } from "../../app/modules/users/import.server";
import { Client, startTestServer, type TestServer } from "../support/server";

/**
 * Users administration (issue 16 item 4; spec 2 /customers/{id}/index_users, /customers/{id}/users/{id?},
 * GET /api/generate_password, GET /api/generate_authentication_token, POST .../users/create_bulk).
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
  superDespatcher: "superdespatcher@example.com",
};
type Who = keyof typeof EMAILS;
const clients = {} as Record<Who, Client>;
const GOOD = "Goodpassword12";

const signedIn = async (email: string, password?: string) => {
  const c = new Client(server.url);
  expect((await c.signIn(email, password)).status).toBe(200);
  return c;
};

beforeAll(async () => {
  server = await startTestServer();
  demo = await seedDemo(server.db);
  for (const [k, email] of Object.entries(EMAILS)) clients[k as Who] = await signedIn(email);
}, 120_000);
afterAll(() => server?.close());

const base = () => `/api/customers/${demo.acme.id}/users`;
const create = (body: Json, client = clients.admin, customerId = demo.acme.id) => client.json<Json>(`/api/customers/${customerId}/users`, { json: body });
const put = (id: number, body: Json, client = clients.admin, customerId = demo.acme.id) =>
  client.json<Json>(`/api/customers/${customerId}/users/${id}`, { method: "PUT", json: body });
let serial = 0;
const newEmail = () => `person-${++serial}@example.org`;
const person = (extra: Json = {}) => ({ email: newEmail(), full_name: "Pat Person", password: GOOD, password_confirmation: GOOD, ...extra });

function upload(client: Client | null, name: string, content: string | Uint8Array, customerId = demo.acme.id) {
  const form = new FormData();
  form.set("file", new File([content as BlobPart], name));
  const headers: Record<string, string> = { Accept: "application/json", "X-Requested-With": "XMLHttpRequest", Origin: server.url };
  if (client) headers.cookie = client.cookie;
  return fetch(`${server.url}/api/customers/${customerId}/users/create_bulk`, { method: "POST", body: form, headers }).then(async (res) => ({ status: res.status, body: (await res.json()) as Json }));
}

describe("role matrix", () => {
  it("lets staff and no one else reach every users call and screen", async () => {
    const target = await createUser(server.db, demo.acme.id, { email: newEmail() });
    const calls: Array<[string, (c: Client) => Promise<number>]> = [
      ["GET list", async (c) => (await c.json(base())).status],
      ["POST create", async (c) => (await c.json(base(), { json: {} })).status],
      ["GET one", async (c) => (await c.json(`${base()}/${target.id}`)).status],
      ["PUT one", async (c) => (await c.json(`${base()}/${target.id}`, { method: "PUT", json: { full_name: "Renamed" } })).status],
      ["GET generate_password", async (c) => (await c.json("/api/generate_password")).status],
      ["GET roles", async (c) => (await c.json("/api/roles")).status],
    ];
    const expected: Record<Who, number[]> = {
      devs: [200, 422, 200, 200, 200, 200],
      superAdmin: [200, 422, 200, 200, 200, 200],
      admin: [200, 422, 200, 200, 200, 200],
      customerService: [200, 422, 200, 200, 200, 200],
      despatcher: [403, 403, 403, 403, 403, 403],
      superDespatcher: [403, 403, 403, 403, 403, 403],
    };
    for (const who of Object.keys(expected) as Who[]) {
      const got = [];
      for (const [, call] of calls) got.push(await call(clients[who]));
      expect(got, who).toEqual(expected[who]);
    }
    const anonymous = new Client(server.url);
    for (const [name, call] of calls) expect(await call(anonymous), name).toBe(401);

    // the token generator: super admins only
    for (const who of ["devs", "superAdmin"] as Who[]) expect((await clients[who].json("/api/generate_authentication_token")).status).toBe(200);
    for (const who of ["admin", "customerService", "despatcher"] as Who[]) expect((await clients[who].json("/api/generate_authentication_token")).status).toBe(403);
    expect((await anonymous.json("/api/generate_authentication_token")).status).toBe(401);

    // the import: staff only, refused before the file is read
    const csv = "email,full_name\n";
    expect((await upload(clients.despatcher, "u.csv", csv)).status).toBe(403);
    expect((await upload(null, "u.csv", csv)).status).toBe(401);
    expect((await upload(clients.customerService, "u.csv", csv)).status).toBe(200);

    // the screens: staff 200, a despatcher goes to /
    for (const path of [`/customers/${demo.acme.id}/index_users`, `/customers/${demo.acme.id}/users/${target.id}`, `/customers/${demo.acme.id}/users`]) {
      expect((await clients.customerService.request(path, { headers: { Accept: "text/html" } })).status, path).toBe(200);
      const away = await clients.despatcher.request(path, { headers: { Accept: "text/html" } });
      expect(away.status).toBe(302);
      expect(away.headers.get("location")).toBe("/");
    }
  });

  it("answers 404 for a user of another customer and for a customer that does not exist", async () => {
    const other = await createCustomer(server.db, { code: "USROTHER" });
    const stranger = await createUser(server.db, other.id, { email: newEmail() });
    expect((await clients.admin.json(`${base()}/${stranger.id}`)).status).toBe(404);
    expect((await put(stranger.id, { full_name: "Hijack" })).status).toBe(404);
    expect((await clients.admin.json(`/api/customers/999999/users`)).status).toBe(404);
    const page = await clients.admin.request(`/customers/${demo.acme.id}/users/${stranger.id}`, { headers: { Accept: "text/html" } });
    expect(page.status).toBe(404);
    // the other customer's own list has them
    expect((await clients.admin.json<Json>(`/api/customers/${other.id}/users`)).body.users.map((u: Json) => u.id)).toEqual([stranger.id]);
  });
});

describe("creating and changing users", () => {
  it("creates a despatcher by default with sites, flags and the customer's published notices, never showing the hash", async () => {
    const r = await create(person({ site_ids: [demo.sites.melbourne.id, demo.sites.sydney.id], site_id: demo.sites.sydney.id, can_book: true, can_export: "true" }));
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ role: "despatcher", site_ids: [demo.sites.melbourne.id, demo.sites.sydney.id].sort((a, b) => a - b), site_id: demo.sites.sydney.id, can_book: true, can_export: true, can_reconcile: false, disabled: false });
    expect(r.body).not.toHaveProperty("password_hash");
    expect(r.body).not.toHaveProperty("authentication_token");
    expect(JSON.stringify(r.body)).not.toContain("argon2");
    // the new user signs in with the password given
    await signedIn(r.body.email, GOOD);
  });

  it("refuses bad input per field with the spec's messages", async () => {
    const taken = await create(person({ email: "ADMIN@example.com" }));
    expect(taken.status).toBe(422);
    expect(taken.body.errors.email).toEqual([MESSAGES.emailTaken]);
    const noPassword = await create({ email: newEmail(), full_name: "No Pass" });
    expect(noPassword.body.errors.password).toEqual([MESSAGES.passwordRequired]);
    const weak = await create(person({ password: "weakpass1", password_confirmation: "weakpass1" }));
    expect(weak.body.errors.password).toEqual([MESSAGES.passwordRule]);
    const mismatch = await create(person({ password_confirmation: "Goodpassword13" }));
    expect(mismatch.body.errors.password_confirmation).toEqual([MESSAGES.confirmation]);
    const foreignSite = await createSite(server.db, (await createCustomer(server.db, { code: "USRSITE" })).id, { code: "FOR" });
    const badSites = await create(person({ site_ids: [foreignSite.id], site_id: demo.sites.melbourne.id }));
    expect(badSites.body.errors).toMatchObject({ site_ids: [MESSAGES.site], site_id: [MESSAGES.defaultSite] });
    const badRole = await create(person({ role: "owner", email: "not-an-email" }));
    expect(Object.keys(badRole.body.errors).sort()).toEqual(["email", "role"]);
  });

  it("lets only super admins give super_admin or devs, and lists each caller's roles", async () => {
    expect((await clients.admin.json<Json>("/api/roles")).body.roles).toEqual(["despatcher", "admin", "customer_service"]);
    expect((await clients.superAdmin.json<Json>("/api/roles")).body.roles).toEqual(["despatcher", "admin", "super_admin", "customer_service", "devs"]);
    const refused = await create(person({ role: "super_admin" }), clients.admin);
    expect(refused.body.errors.role).toEqual([MESSAGES.roleNotYours]);
    const made = await create(person({ role: "super_admin" }), clients.superAdmin);
    expect(made.status).toBe(201);
    // and an admin may not edit a super admin (say, set their password)
    expect((await put(made.body.id, { password: GOOD, password_confirmation: GOOD }, clients.customerService)).status).toBe(403);
  });

  it("clears sites and the default site when the role is not despatcher", async () => {
    const made = (await create(person({ site_ids: [demo.sites.melbourne.id], site_id: demo.sites.melbourne.id }))).body;
    const changed = await put(made.id, { role: "customer_service" });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ role: "customer_service", site_ids: [], site_id: null });
    expect(await server.db.select().from(userSites).where(eq(userSites.userId, made.id))).toEqual([]);
  });

  it("keeps the password when blank, changes it when given, and refuses a taken e-mail on edit", async () => {
    const made = (await create(person())).body;
    expect((await put(made.id, { full_name: "Kept Pass", password: "", password_confirmation: "" })).status).toBe(200);
    await signedIn(made.email, GOOD);
    expect((await put(made.id, { password: "Newpassword34", password_confirmation: "Newpassword34" })).status).toBe(200);
    await signedIn(made.email, "Newpassword34");
    const dup = await put(made.id, { email: "Despatcher@Example.com" });
    expect(dup.status).toBe(422);
    expect(dup.body.errors.email).toEqual([MESSAGES.emailTaken]);
  });

  it("shows and changes the authentication token for super admins only", async () => {
    const made = (await create(person())).body;
    const token = (await clients.superAdmin.json<Json>("/api/generate_authentication_token")).body.authentication_token as string;
    expect(token.length).toBeGreaterThanOrEqual(40);
    expect((await put(made.id, { authentication_token: "x".repeat(30) }, clients.admin)).status).toBe(403);
    const set = await put(made.id, { authentication_token: token }, clients.superAdmin);
    expect(set.body.authentication_token).toBe(token);
    expect((await clients.admin.json<Json>(`${base()}/${made.id}`)).body).not.toHaveProperty("authentication_token");
    // an admin's edit that leaves the token out keeps it
    expect((await put(made.id, { can_book: true }, clients.admin)).status).toBe(200);
    // a token is one user's only
    const other = (await create(person())).body;
    expect((await put(other.id, { authentication_token: token }, clients.superAdmin)).body.errors).toEqual({ authentication_token: [MESSAGES.tokenTaken] });
    const scripted = new Client(server.url, token);
    expect((await scripted.json("/api/users/current")).status).toBe(200);
  });

  it("ends a disabled user's sessions at once: their next request is signed out", async () => {
    const made = (await create(person())).body;
    const them = await signedIn(made.email, GOOD);
    expect((await them.json("/api/users/current")).status).toBe(200);
    const r = await put(made.id, { disabled: true });
    expect(r.body.disabled).toBe(true);
    expect(await server.db.select().from(sessions).where(eq(sessions.userId, made.id))).toEqual([]);
    expect((await them.json("/api/users/current")).status).toBe(401);
    const page = await them.request("/", { headers: { Accept: "text/html" } });
    expect(page.headers.get("location")).toMatch(/^\/login/);
    // and it shows in the disabled list
    const list = (await clients.admin.json<Json>(`${base()}?q=${encodeURIComponent(made.email)}`)).body.users;
    expect(list.map((u: Json) => [u.id, u.disabled])).toEqual([[made.id, true]]);
  });

  it("lets no one disable themselves or change their own role", async () => {
    const me = (await clients.admin.json<Json>("/api/users/current")).body;
    const id = (me.user?.id ?? me.id) as number;
    const r = await put(id, { disabled: true });
    expect(r.body.errors.disabled).toEqual([MESSAGES.disableSelf]);
    expect((await put(id, { role: "despatcher" })).body.errors.role).toEqual([MESSAGES.ownRole]);
  });

  it("unlocks a locked user from the screen's form", async () => {
    const made = await createUser(server.db, demo.acme.id, { email: newEmail(), lockedAt: new Date(), failedSignIns: 10 });
    const res = await clients.admin.request(`/customers/${demo.acme.id}/users/${made.id}`, { form: { intent: "unlock" } });
    expect(res.status).toBe(302);
    const [row] = await server.db.select().from(users).where(eq(users.id, made.id));
    expect(row).toMatchObject({ lockedAt: null, failedSignIns: 0 });
  });

  it("saves from the screen's form with 'User was saved.' and keeps a refused form with 'There was an error saving the user.'", async () => {
    const email = newEmail();
    const form = { email, full_name: "Form Person", role: "despatcher", site_ids: String(demo.sites.melbourne.id), site_id: String(demo.sites.melbourne.id), can_book: "on", password: GOOD, password_confirmation: GOOD };
    const res = await clients.admin.request(`/customers/${demo.acme.id}/users`, { form });
    expect(res.status).toBe(302);
    const [row] = await server.db.select().from(users).where(sql`lower(${users.email}) = ${email}`);
    expect(row).toMatchObject({ role: "despatcher", canBook: true, defaultSiteId: demo.sites.melbourne.id });
    expect(res.headers.get("location")).toBe(`/customers/${demo.acme.id}/users/${row!.id}?saved=1`);
    const page = await (await clients.admin.request(res.headers.get("location")!, { headers: { Accept: "text/html" } })).text();
    expect(page).toContain(MESSAGES.saved);
    // the trail: customer, its users, this user
    expect(page).toContain(`href="/customers/${demo.acme.id}/index_users"`);
    expect(page).toContain('aria-current="page">Form Person<');
    const refused = await clients.admin.request(`/customers/${demo.acme.id}/users`, { form: { ...form, password_confirmation: "nope" } });
    expect(refused.status).toBe(422);
    const html = await refused.text();
    expect(html).toContain(MESSAGES.saveFailed);
    expect(html).toContain(MESSAGES.confirmation);
  });
});

describe("generated passwords", () => {
  it("satisfy the password rule and differ each time", async () => {
    const a = (await clients.admin.json<Json>("/api/generate_password")).body.password as string;
    const b = (await clients.admin.json<Json>("/api/generate_password")).body.password as string;
    expect(isValidPassword(a) && isValidPassword(b)).toBe(true);
    expect(a).not.toBe(b);
  });
});

describe("CSV import", () => {
  it("creates the good rows and reports every skipped line with its reasons", async () => {
    const dupe = newEmail();
    const csv = [
      "email,full_name,phone_number,role,site_codes,default_site_code,can_book,can_export,password",
      `${newEmail()},Good One,0400000000,,MEL;SYD,SYD,true,false,${GOOD}`,
      `${newEmail()},Good Two,,customer_service,,,,,`,
      `not-an-email,Bad Email,,,,,,,`,
      `${dupe},Dupe First,,,,,,,`,
      `${dupe.toUpperCase()},Dupe Second,,,,,,,`,
      `admin@example.com,Taken,,,,,,,`,
      `${newEmail()},Bad Role,,owner,,,,,`,
      `${newEmail()},Bad Site,,,NOPE,,,,`,
      `${newEmail()},Weak,,,,,,,weak`,
      `${newEmail()},Granting,,super_admin,,,,,`,
      `${newEmail()},,,,,,,,`,
      `${newEmail()},Bad Flag,,,,,maybe,,`,
    ].join("\n");
    const r = await upload(clients.admin, "users.csv", csv);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.created).toBe(3);
    expect(r.body.skipped_total).toBe(9);
    const byLine = Object.fromEntries((r.body.skipped as Json[]).map((s) => [s.line, s.errors.join(" | ")]));
    expect(Object.keys(byLine).map(Number)).toEqual([4, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(byLine[4]).toContain(MESSAGES.emailInvalid);
    expect(byLine[6]).toContain("earlier in the file");
    expect(byLine[7]).toContain(MESSAGES.emailTaken);
    expect(byLine[8]).toContain("Role must be one of");
    expect(byLine[9]).toContain("Unknown site code nope");
    expect(byLine[10]).toContain(MESSAGES.passwordRule);
    expect(byLine[11]).toContain(MESSAGES.roleNotYours);
    expect(byLine[12]).toContain(MESSAGES.fullNameRequired);
    expect(byLine[13]).toContain("can_book must be true or false");

    const [one] = await server.db.select().from(users).where(eq(users.fullName, "Good One"));
    expect(one).toMatchObject({ role: "despatcher", canBook: true, canExport: false, defaultSiteId: demo.sites.sydney.id, passwordResetRequired: false });
    expect((await server.db.select().from(userSites).where(eq(userSites.userId, one!.id))).length).toBe(2);
    // no password given: a generated one, to be replaced at first sign-in
    const [two] = await server.db.select().from(users).where(and(eq(users.fullName, "Good Two"), eq(users.customerId, demo.acme.id)));
    expect(two).toMatchObject({ role: "customer_service", passwordResetRequired: true });
  });

  it("names an unknown site code once, though the row's sites and its default site both give it (issue 31 item 8)", async () => {
    const csv = ["email,full_name,site_codes,default_site_code", `${newEmail()},Twice Unknown,NOPE;nope,nope`, `${newEmail()},Two Unknown,NOPE;ELSE,ELSE`].join("\n");
    const r = await upload(clients.admin, "users.csv", csv);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const byLine = Object.fromEntries((r.body.skipped as Json[]).map((s) => [s.line, s.errors]));
    expect(byLine[2]).toEqual(["Unknown site code nope"]);
    expect(byLine[3]).toEqual(["Unknown site code nope, else"]);
  });

  it("takes a gz file, and cuts off a gz bomb at the stated decompressed size", async () => {
    const gz = gzipSync(`email,full_name\n${newEmail()},Zipped Person\n`);
    const r = await upload(clients.admin, "users.csv.gz", gz);
    expect(r.body).toMatchObject({ created: 1, skipped_total: 0 });
    // a few KB that inflate past the cap
    const bomb = gzipSync(Buffer.concat([Buffer.from("email,full_name\n"), Buffer.alloc(MAX_DECOMPRESSED_BYTES + 1024, 0x61)]));
    expect(bomb.byteLength).toBeLessThan(100 * 1024);
    const refused = await upload(clients.admin, "bomb.gz", bomb);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.file).toEqual([IMPORT_MESSAGES.bomb]);
  });

  it("refuses another type, a fake gz, a file over the limit and a file without an email column before creating anything", async () => {
    const before = (await server.db.select({ n: sql<number>`count(*)::int` }).from(users))[0]!.n;
    const cases: Array<[string, string | Uint8Array, string]> = [
      ["users.xlsx", "email,full_name\nx@example.org,X\n", IMPORT_MESSAGES.type],
      ["users.txt", "email,full_name\nx@example.org,X\n", IMPORT_MESSAGES.type],
      ["users.gz", "email,full_name\nx@example.org,X\n", IMPORT_MESSAGES.notGzip],
      ["users.csv", "name\nX\n", IMPORT_MESSAGES.noEmailColumn],
      ["users.csv", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), "The file is not a CSV text file."],
      ["big.csv", `email,full_name\n${"a".repeat(10 * 1024 * 1024)}\n`, IMPORT_MESSAGES.tooLarge],
    ];
    for (const [name, content, message] of cases) {
      const r = await upload(clients.admin, name, content);
      expect(r.status, name).toBeGreaterThanOrEqual(400);
      expect(r.status, name).toBeLessThan(500);
      expect(JSON.stringify(r.body.errors), name).toContain(message);
    }
    expect((await server.db.select({ n: sql<number>`count(*)::int` }).from(users))[0]!.n).toBe(before);
  });

  it("creates 300 rows without passwords in one call, and refuses a file over the row limit whole", async () => {
    const rows = Array.from({ length: 300 }, (_, i) => `bulk-${i}-${Date.now()}@example.org,Bulk ${i},,,MEL,MEL`);
    const started = Date.now();
    const r = await upload(clients.admin, "bulk.csv", `email,full_name,phone_number,role,site_codes,default_site_code\n${rows.join("\n")}\n`);
    expect(r.body).toMatchObject({ created: 300, skipped_total: 0 });
    expect(Date.now() - started).toBeLessThan(30_000);
    const tooMany = Array.from({ length: MAX_IMPORT_ROWS + 1 }, (_, i) => `over-${i}@example.org,Over`).join("\n");
    const refused = await upload(clients.admin, "many.csv", `email,full_name\n${tooMany}\n`);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.file).toEqual([IMPORT_MESSAGES.tooManyRows]);
    expect((await server.db.select().from(users).where(eq(users.email, "over-0@example.org"))).length).toBe(0);
  });

  it("imports from the screen's form and lists the skipped lines under Upload Errors", async () => {
    const form = new FormData();
    form.set("file", new File([`email,full_name\n${newEmail()},Screen Person\nbad,Bad\n`], "users.csv"));
    const res = await fetch(`${server.url}/customers/${demo.acme.id}/index_users`, { method: "POST", body: form, headers: { cookie: clients.admin.cookie, Origin: server.url } });
    // React marks where text pieces join with <!-- -->; the reader sees the text
    const html = (await res.text()).replaceAll("<!-- -->", "");
    expect(res.status).toBe(200);
    expect(html).toContain("Users imported: 1 added, 1 skipped.");
    expect(html).toContain("Upload Errors");
    expect(html).toContain(`line 3: ${MESSAGES.emailInvalid}`);
  });
});
