import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../db/seed/demo";
import { createUser } from "../../db/seed/factories";
import { startSecondProcess } from "../support/second-process";
import { Client, startTestServer, type TestServer } from "../support/server";

/**
 * Issue 32: API callers' users (Bearer tokens) kept in memory by each web process
 * (token-cache.server.ts) never outlive a change. Two web processes (A, the test server, and B, a
 * second app with its own database handle, change feed and cache) over one PostgreSQL database:
 * each case has both keep the caller, changes something through a connection of its own, as an
 * administrator's screen or a script would, and asks B at once.
 */
const postgres = Boolean(process.env.DATABASE_URL);
if (!postgres) console.warn("token-cache.test.ts skipped: the change feed listens on PostgreSQL (set DATABASE_URL); embedded PGlite keeps no callers.");

let server: TestServer;
let demo: Awaited<ReturnType<typeof seedDemo>>;
let b: Awaited<ReturnType<typeof startSecondProcess>>;

beforeAll(async () => {
  if (!postgres) return;
  server = await startTestServer();
  demo = await seedDemo(server.db);
  b = await startSecondProcess(server);
}, 120_000);
afterAll(async () => {
  await b?.close();
  await server?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

let made = 0;
/** An API user whose token A and B both keep (each served it twice). */
async function keptEverywhere(over: Record<string, unknown> = {}) {
  made++;
  const token = `token-cache-${made}-${Date.now()}-abcdefghijklmnop`;
  const user = await createUser(server.db, demo.acme.id, { email: `api-${made}-${Date.now()}@example.com`, fullName: "Api Caller", siteIds: [demo.sites.melbourne.id], authenticationToken: token, ...over });
  const onA = new Client(server.url, token);
  const onB = new Client(b.url, token);
  for (const client of [onA, onB, onA, onB]) expect((await client.json("/api/users/current")).status).toBe(200);
  return { user, token, onA, onB };
}

const current = (client: Client) => client.json<Json>("/api/users/current");

describe.skipIf(!postgres)("an API caller kept by every web process", () => {
  it("is kept: a change nobody is told of is not seen (so the triggers are what the cases below test)", async () => {
    const { user, onB } = await keptEverywhere();
    await server.db.execute(sql`alter table users disable trigger users_changed`);
    try {
      await server.db.execute(sql`update users set full_name = 'Renamed Unheard' where id = ${user.id}`);
    } finally {
      await server.db.execute(sql`alter table users enable trigger users_changed`);
    }
    expect((await current(onB)).body.full_name).toBe("Api Caller");
    // the next change that is heard brings the row as it is
    await server.db.execute(sql`update users set phone_number = '0400 111 222' where id = ${user.id}`);
    expect((await current(onB)).body).toMatchObject({ full_name: "Renamed Unheard", phone_number: "0400 111 222" });
  });

  it("stops at the next call on B when the token is changed or removed, and the new token works", async () => {
    const { user, token, onB } = await keptEverywhere();
    const replaced = `${token}-new`;
    await server.db.execute(sql`update users set authentication_token = ${replaced} where id = ${user.id}`);
    expect((await current(onB)).status).toBe(401);
    expect((await current(new Client(b.url, replaced))).status).toBe(200);
    await server.db.execute(sql`update users set authentication_token = null where id = ${user.id}`);
    expect((await current(new Client(b.url, replaced))).status).toBe(401);
  });

  it("stops at the next call on B when the user is disabled, or deleted", async () => {
    const disabled = await keptEverywhere();
    await server.db.execute(sql`update users set disabled = true where id = ${disabled.user.id}`);
    expect((await current(disabled.onB)).status).toBe(401);
    expect((await current(disabled.onA)).status).toBe(401);

    const deleted = await keptEverywhere();
    await server.db.execute(sql`delete from user_sites where user_id = ${deleted.user.id}`);
    await server.db.execute(sql`delete from users where id = ${deleted.user.id}`);
    expect((await current(deleted.onB)).status).toBe(401);
  });

  it("answers with the new role at the next call on B after a role change", async () => {
    const { user, onB } = await keptEverywhere();
    expect((await current(onB)).body.roles).toEqual([{ name: "despatcher" }]);
    await server.db.execute(sql`update users set role = 'finance' where id = ${user.id}`);
    expect((await current(onB)).body.roles).toEqual([{ name: "finance" }]);
  });

  it("refuses at the next call on B when the user's customer is disabled, and follows a site taken from the user", async () => {
    const { user, onB } = await keptEverywhere({ siteIds: [demo.sites.melbourne.id, demo.sites.sydney.id] });
    await server.db.execute(sql`delete from user_sites where site_id = ${demo.sites.sydney.id} and user_id = ${user.id}`);
    expect(((await current(onB)).body.sites as Array<{ id: number }>).map((s) => s.id)).toEqual([demo.sites.melbourne.id]);
    await server.db.execute(sql`update customers set disabled = true where id = ${demo.acme.id}`);
    try {
      expect((await current(onB)).status).toBe(401);
    } finally {
      await server.db.execute(sql`update customers set disabled = false where id = ${demo.acme.id}`);
    }
  });
});
