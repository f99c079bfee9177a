import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../db/seed/demo";
import { createUser } from "../../db/seed/factories";
import { LOCKED_SIGN_IN, LOCK_AFTER_FAILURES } from "../../app/modules/auth/limits";
import { Client, signInAll, startTestServer, type TestServer } from "../support/server";

/** Issue 35 finding 10: two answers that told a caller what exists. */
let server: TestServer;
let demo: Awaited<ReturnType<typeof seedDemo>>;
const EMAILS = { admin: "admin@example.com", despatcher: "despatcher@example.com" };
let c: Record<keyof typeof EMAILS, Client>;

beforeAll(async () => {
  server = await startTestServer();
  demo = await seedDemo(server.db);
  c = await signInAll(server.url, EMAILS);
}, 120_000);
afterAll(() => server?.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

async function publishedNotice(customerId: number): Promise<number> {
  const made = await c.admin.json<Json>("/api/admin_notices", { json: { header: `For ${customerId}`, customer_id: customerId, content: "<p>Hello</p>" } });
  expect(made.status, JSON.stringify(made.body)).toBeLessThan(300);
  const id = (made.body.id ?? made.body.notice?.id) as number;
  expect((await c.admin.json(`/api/notices/${id}`, { method: "PUT", json: { published: true } })).status).toBe(200);
  return id;
}

describe("PUT /api/notices/{id} {seen: true}", () => {
  it("answers 404 for another customer's notice, as for one that does not exist; 200 for the user's own, again and again", async () => {
    const theirs = await publishedNotice(demo.testCustomer.id);
    const own = await publishedNotice(demo.acme.id);
    const seen = (id: number) => c.despatcher.json<Json>(`/api/notices/${id}`, { method: "PUT", json: { seen: true } });
    expect((await seen(theirs)).status).toBe(404);
    expect((await seen(99_999_999)).status).toBe(404);
    expect((await seen(theirs)).body).toEqual((await seen(99_999_999)).body);
    expect((await seen(own)).status).toBe(200);
    expect((await seen(own)).status).toBe(200);
    const list = await c.despatcher.json<Json>("/api/notices");
    expect(JSON.stringify(list.body)).not.toContain(`For ${demo.testCustomer.id}`);
  });
});

describe("GET /api/notices counts (one statement: issue 32)", () => {
  it("answers the total and the unseen count with every page, a page past the end included, and they follow a notice seen", async () => {
    const reader = await createUser(server.db, demo.acme.id, { email: "notice-counts@example.com" });
    const client = new Client(server.url);
    expect((await client.signIn(reader.email)).status).toBe(200);
    const ids = [await publishedNotice(demo.acme.id), await publishedNotice(demo.acme.id), await publishedNotice(demo.acme.id)];
    const page = (query: string) => client.json<Json>(`/api/notices${query}`).then((r) => r.body);
    const all = await page("");
    const before = { total: all.total as number, unseen: all.unseen as number };
    expect(before.total).toBeGreaterThanOrEqual(3);
    expect(before.unseen).toBe(before.total);
    const first = await page("?limit=1");
    expect(first).toMatchObject({ total: before.total, unseen: before.unseen });
    expect(first.notices).toHaveLength(1);
    // newest first: the last one published heads the list
    expect(first.notices[0].id).toBe(ids[2]);
    expect(await page(`?offset=${before.total + 5}`)).toEqual({ notices: [], total: before.total, unseen: before.unseen });
    expect((await client.json(`/api/notices/${ids[0]}`, { method: "PUT", json: { seen: true } })).status).toBe(200);
    expect(await page("?limit=1")).toMatchObject({ total: before.total, unseen: before.unseen - 1 });
    expect(await page(`?offset=${before.total}`)).toEqual({ notices: [], total: before.total, unseen: before.unseen - 1 });
    // the shell's badge reads the same count
    const home = await client.request("/home").then((r) => r.text());
    expect(home).toContain(`aria-label="${before.unseen - 1} unseen"`);
  });
});

describe("the lockout message", () => {
  it("reads alike for a real account and an e-mail no account has, failure by failure", async () => {
    const real = await createUser(server.db, demo.acme.id, { email: "lock-real@example.com" });
    const messages = async (email: string) => {
      const out: string[] = [];
      for (let i = 0; i < LOCK_AFTER_FAILURES + 2; i++) {
        const res = await new Client(server.url).signIn(email, "Wrong-password-00");
        out.push(`${res.status} ${res.body.error}`);
      }
      return out;
    };
    const forReal = await messages(real.email);
    expect(forReal.at(-1)).toBe(`401 ${LOCKED_SIGN_IN}`);
    expect(await messages("lock-nobody@example.com")).toEqual(forReal);
  });
});
