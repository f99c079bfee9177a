import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../db/seed/demo";
import { createUser } from "../../db/seed/factories";
import { CHANGES_APPLICATION_NAME } from "../../db/changes.server";
import { startSecondProcess } from "../support/second-process";
import { Client, startTestServer, type TestServer } from "../support/server";

/**
 * Issue 32 item 4: signed-in users kept in memory by each web process (session-cache.server.ts)
 * never outlive a change. Two web processes (A, the test server, and B, a second app with its own
 * database handle, change feed and cache) over one PostgreSQL database. Each case first has both
 * keep the session, then changes something (through A, or through a third connection as a script
 * or another host would) and asks B at once.
 */
const postgres = Boolean(process.env.DATABASE_URL);
if (!postgres) console.warn("session-cache.test.ts skipped: the change feed listens on PostgreSQL (set DATABASE_URL); embedded PGlite keeps no sessions.");

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

/** A user signed in on A, whose session both A and B now keep (each served it twice). */
async function signedInEverywhere(email: string) {
  const onA = new Client(server.url);
  expect((await onA.signIn(email)).status).toBe(200);
  const onB = new Client(b.url);
  onB.cookie = onA.cookie;
  for (const client of [onA, onB, onA, onB]) expect((await client.json("/api/users/current")).status).toBe(200);
  return { onA, onB };
}

const current = (client: Client) => client.json<Json>("/api/users/current");

/** Runs `change` with the trigger on `table` switched off: nothing tells the processes. */
async function unheard(table: string, change: () => Promise<unknown>) {
  await server.db.execute(sql.raw(`alter table ${table} disable trigger ${table}_changed`));
  try {
    await change();
  } finally {
    await server.db.execute(sql.raw(`alter table ${table} enable trigger ${table}_changed`));
  }
}

describe.skipIf(!postgres)("a session kept by every web process", () => {
  it("is kept: a change nobody is told of is not seen (so the triggers are what the cases below test)", async () => {
    const user = await createUser(server.db, demo.acme.id, { email: "kept@example.com", fullName: "Kept Name", siteIds: [demo.sites.melbourne.id] });
    const { onB } = await signedInEverywhere(user.email);
    await unheard("users", () => server.db.execute(sql`update users set full_name = 'Renamed Unheard' where id = ${user.id}`));
    expect((await current(onB)).body.full_name).toBe("Kept Name");
    // the next change that is heard brings the row as it is
    await server.db.execute(sql`update users set phone_number = '0400 111 222' where id = ${user.id}`);
    expect((await current(onB)).body).toMatchObject({ full_name: "Renamed Unheard", phone_number: "0400 111 222" });
  });

  it("ends on B at the next request when the user signs out on A", async () => {
    const { onA, onB } = await signedInEverywhere("despatcher@example.com");
    const cookie = onA.cookie;
    expect((await onA.json("/users/custom_sign_out", { method: "DELETE" })).status).toBeLessThan(300);
    onB.cookie = cookie;
    expect((await current(onB)).status).toBe(401);
    // and a page sends the browser to sign in
    const page = await onB.request("/home");
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toMatch(/^\/login/);
  });

  it("ends everywhere at the next request when the user is disabled, and their sessions when another connection deletes them", async () => {
    const { onA, onB } = await signedInEverywhere("finance@example.com");
    await server.db.execute(sql`update users set disabled = true where email = 'finance@example.com'`);
    expect((await current(onB)).status).toBe(401);
    expect((await current(onA)).status).toBe(401);

    const other = await signedInEverywhere("superdespatcher@example.com");
    await server.db.execute(sql`delete from sessions where user_id = (select id from users where email = 'superdespatcher@example.com')`);
    expect((await current(other.onB)).status).toBe(401);
    expect((await current(other.onA)).status).toBe(401);
  });

  it("answers with the new role at the next request on B after a role change", async () => {
    await createUser(server.db, demo.acme.id, { email: "promoted@example.com", siteIds: [demo.sites.melbourne.id] });
    const { onB } = await signedInEverywhere("promoted@example.com");
    expect((await current(onB)).body.roles).toEqual([{ name: "despatcher" }]);
    await server.db.execute(sql`update users set role = 'admin' where email = 'promoted@example.com'`);
    const after = await current(onB);
    expect(after.body.roles).toEqual([{ name: "admin" }]);
    expect(after.body.is_admin).toBe(true);
  });

  it("follows a staff user's customer switch made on A at the next request on B", async () => {
    const { onA, onB } = await signedInEverywhere("admin@example.com");
    const before = (await current(onB)).body.customer.id as number;
    const target = before === demo.testCustomer.id ? demo.acme.id : demo.testCustomer.id;
    const switched = await onA.request("/home", { method: "POST", form: { intent: "switch_customer", customer_id: String(target) } });
    expect(switched.status).toBeLessThan(400);
    expect((await current(onB)).body.customer.id).toBe(target);
  });

  it("refuses at the next request when the user's customer is disabled, and follows a site taken from the user", async () => {
    const { onB } = await signedInEverywhere("despatcher@example.com");
    const sites = (await current(onB)).body.sites as Array<{ id: number }>;
    expect(sites.length).toBeGreaterThan(0);
    const [first] = sites;
    await server.db.execute(sql`delete from user_sites where site_id = ${first!.id} and user_id = (select id from users where email = 'despatcher@example.com')`);
    expect(((await current(onB)).body.sites as Array<{ id: number }>).map((s) => s.id)).not.toContain(first!.id);

    await server.db.execute(sql`update customers set disabled = true where id = ${demo.acme.id}`);
    try {
      expect((await current(onB)).status).toBe(401);
    } finally {
      await server.db.execute(sql`update customers set disabled = false where id = ${demo.acme.id}`);
    }
  });

  it("forgets everything when its listening connection is cut: a change made meanwhile is seen at the next request", async () => {
    const { onB } = await signedInEverywhere("admin@example.com");
    const name = `Cut ${Date.now()}`;
    // every listening connection of this database is cut, then a change is made before either listens again
    const cut = await server.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity
      where datname = current_database() and application_name = ${CHANGES_APPLICATION_NAME}`);
    expect([...(cut as unknown as unknown[])].length).toBeGreaterThanOrEqual(1);
    await unheard("users", () => server.db.execute(sql`update users set full_name = ${name} where email = 'admin@example.com'`));
    expect((await current(onB)).body.full_name).toBe(name);
  });
});

describe.skipIf(!postgres)("a customer's item types kept by every web process", () => {
  it("are kept (a change nobody is told of is not seen), and follow an item type changed, added or deleted at the next request on B", async () => {
    const { onB } = await signedInEverywhere("superdespatcher@example.com");
    const types = () => current(onB).then((r) => r.body.customer.item_types as Array<{ id: number; description: string }>);
    const before = await types();
    expect(before.length).toBeGreaterThan(0);
    const first = before[0]!;
    await unheard("item_types", () => server.db.execute(sql`update item_types set description = 'Unheard carton' where id = ${first.id}`));
    expect((await types())[0]!.description).toBe(first.description);

    await server.db.execute(sql`update item_types set description = 'Renamed carton' where id = ${first.id}`);
    expect((await types())[0]!.description).toBe("Renamed carton");
    await server.db.execute(sql`insert into item_types (customer_id, description, sequence) values (${demo.acme.id}, 'Added satchel', 0)`);
    expect((await types()).map((t) => t.description)).toContain("Added satchel");
    await server.db.execute(sql`delete from item_types where description = 'Added satchel'`);
    expect((await types()).map((t) => t.description)).not.toContain("Added satchel");
  });
});

describe.skipIf(!postgres)("a user's sites kept by every web process", () => {
  it("are kept (a change nobody is told of is not seen), and follow a site changed or taken from the user at B's next view of the consignment screen", async () => {
    const user = await createUser(server.db, demo.acme.id, { email: "sites-kept@example.com", siteIds: [demo.sites.melbourne.id, demo.sites.sydney.id] });
    const { onB } = await signedInEverywhere(user.email);
    const screen = async () => {
      const res = await onB.request("/", { headers: { accept: "text/html" } });
      expect(res.status).toBe(200);
      return res.text();
    };
    for (let i = 0; i < 2; i++) expect(await screen()).toContain("45 Victoria Street");
    await unheard("sites", () => server.db.execute(sql`update sites set address_line_1 = '9 Unheard Lane' where id = ${demo.sites.melbourne.id}`));
    expect(await screen()).not.toContain("9 Unheard Lane");

    await server.db.execute(sql`update sites set address_line_1 = '7 Heard Street' where id = ${demo.sites.melbourne.id}`);
    expect(await screen()).toContain("7 Heard Street");
    await server.db.execute(sql`delete from user_sites where user_id = ${user.id} and site_id = ${demo.sites.sydney.id}`);
    const after = await screen();
    expect(after).toContain("7 Heard Street");
    expect(after).not.toContain("45 Victoria Street");
  });
});
