import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../db/seed/factories";
import { seedDemo } from "../../db/seed/demo";
import { PageMemo } from "../../server/page-memo";
import { startSecondProcess } from "../support/second-process";
import { Client, serveApp, startTestServer, type TestServer } from "../support/server";
import { withAppEnv } from "../support/app-env";

/**
 * Decision 048: a page viewed again with the same URL, status and data is answered as it was
 * rendered, with the view's own CSP nonce (server/page-memo.ts, app/entry.server.tsx). What it
 * answers must be what a render would answer, and every change a view depends on (its data, the
 * session, the user, the role, the customer) must show at the next view, since the loaders run
 * on every view. A second app over the same services renders every view (no memo): the reference.
 */
let server: TestServer;
let fresh: Awaited<ReturnType<typeof serveApp>>;
let demo: Awaited<ReturnType<typeof seedDemo>>;
const memo = new PageMemo();

beforeAll(async () => {
  server = await startTestServer({ pageMemo: memo });
  demo = await seedDemo(server.db);
  fresh = await serveApp(server.services, { pageMemo: false });
}, 120_000);
afterAll(async () => {
  await fresh?.close();
  await server?.close();
});

/** A page's HTML with its nonce (read from its CSP header) made a placeholder, and the nonce. */
async function view(client: Client, path: string, base = server.url) {
  // the app that renders every view answers with the same session
  const res = await (base === client.base ? client : Object.assign(new Client(base), { cookie: client.cookie })).request(path);
  const html = await res.text();
  const nonce = /'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1];
  expect(nonce, `${path} has a nonce`).toBeTruthy();
  return { status: res.status, html: html.split(nonce!).join("NONCE"), raw: html, nonce: nonce!, location: res.headers.get("location") };
}

async function signedIn(email: string) {
  const client = new Client(server.url);
  expect((await client.signIn(email)).status).toBe(200);
  return client;
}

describe("a page viewed again with the same data", () => {
  it("is answered as a render answers it, with the view's own nonce and nothing of the first view's", async () => {
    const despatcher = await signedIn("despatcher@example.com");
    const admin = await signedIn("admin@example.com");
    const out = new Client(server.url);
    for (const [client, path] of [
      [out, "/login"],
      [despatcher, "/home"],
      [despatcher, "/"],
      [despatcher, "/consignments?tab=today"],
      [admin, "/customers"],
    ] as const) {
      const before = memo.stats();
      const first = await view(client, path);
      const again = await view(client, path);
      const rendered = await view(client, path, fresh.url);
      expect(first.status, path).toBe(200);
      expect(memo.stats().hits - before.hits, `${path} was answered from the memo`).toBe(1);
      expect(again.html, path).toBe(rendered.html);
      expect(first.html, path).toBe(rendered.html);
      expect(again.raw).not.toContain(first.nonce);
      expect(again.raw).toContain(`nonce="${again.nonce}"`);
    }
  });

  it("shows a change to its data at the next view", async () => {
    const despatcher = await signedIn("despatcher@example.com");
    await view(despatcher, "/home");
    expect((await view(despatcher, "/home")).html).toContain("Dana Despatcher");
    await server.db.execute(sql`update users set full_name = 'Dana Renamed' where email = 'despatcher@example.com'`);
    try {
      const after = await view(despatcher, "/home");
      expect(after.html).toContain("Dana Renamed");
      expect(after.html).not.toContain("Dana Despatcher");
      expect(after.html).toBe((await view(despatcher, "/home", fresh.url)).html);
    } finally {
      await server.db.execute(sql`update users set full_name = 'Dana Despatcher' where email = 'despatcher@example.com'`);
    }
  });

  it("is each user's own: two customers' users viewing in turn each see their own customer", async () => {
    await createUser(server.db, demo.testCustomer.id, { email: "other-tenant@example.com", fullName: "Otto Other", siteIds: [] });
    const mine = await signedIn("despatcher@example.com");
    const theirs = await signedIn("other-tenant@example.com");
    for (let i = 0; i < 3; i++) {
      const a = await view(mine, "/home");
      const b = await view(theirs, "/home");
      expect(a.html).toContain(demo.acme.name);
      expect(a.html).not.toContain("Otto Other");
      expect(b.html).toContain("Otto Other");
      expect(b.html).not.toContain(demo.acme.name);
    }
  });

  it("sends a signed-out session, a disabled user or a disabled customer to sign in at the next view", async () => {
    await createUser(server.db, demo.acme.id, { email: "memo-disabled@example.com", siteIds: [demo.sites.melbourne.id] });
    const user = await signedIn("memo-disabled@example.com");
    for (let i = 0; i < 2; i++) expect((await view(user, "/")).status).toBe(200);
    await server.db.execute(sql`update users set disabled = true where email = 'memo-disabled@example.com'`);
    const refused = await view(user, "/");
    expect(refused.status).toBe(302);
    expect(refused.location).toMatch(/^\/login/);

    const despatcher = await signedIn("despatcher@example.com");
    for (let i = 0; i < 2; i++) expect((await view(despatcher, "/")).status).toBe(200);
    await server.db.execute(sql`update customers set disabled = true where id = ${demo.acme.id}`);
    try {
      expect((await view(despatcher, "/")).status).toBe(302);
    } finally {
      await server.db.execute(sql`update customers set disabled = false where id = ${demo.acme.id}`);
    }
    const cookie = despatcher.cookie;
    expect((await despatcher.json("/users/custom_sign_out", { method: "DELETE" })).status).toBeLessThan(300);
    despatcher.cookie = cookie;
    const signedOut = await view(despatcher, "/");
    expect(signedOut.status).toBe(302);
    expect(signedOut.location).toMatch(/^\/login/);
  });

  it("follows a role change at the next view: the new role's page, as a render answers it", async () => {
    await createUser(server.db, demo.acme.id, { email: "memo-promoted@example.com", siteIds: [demo.sites.melbourne.id] });
    const user = await signedIn("memo-promoted@example.com");
    const before = await view(user, "/home");
    expect((await view(user, "/home")).html).toBe(before.html);
    await server.db.execute(sql`update users set role = 'admin' where email = 'memo-promoted@example.com'`);
    const after = await view(user, "/home");
    expect(after.html).not.toBe(before.html);
    expect(after.html).toBe((await view(user, "/home", fresh.url)).html);
  });

  it("follows a staff user's customer switch at the next view", async () => {
    const admin = await signedIn("admin@example.com");
    const { body: me } = await admin.json<{ full_name: string; customer: { id: number } }>("/api/users/current");
    // the shell names the customer worked in beside the user
    const shown = async () => new RegExp(`${me.full_name}(?:<!-- -->)? · (?:<!-- -->)?([^<]+)<`).exec((await view(admin, "/home")).html)?.[1];
    const before = await shown();
    expect(before).toBeTruthy();
    expect(await shown()).toBe(before);
    const target = me.customer.id === demo.testCustomer.id ? demo.acme : demo.testCustomer;
    const switched = await admin.request("/home", { method: "POST", form: { intent: "switch_customer", customer_id: String(target.id) } });
    expect(switched.status).toBeLessThan(400);
    expect(await shown()).toBe(target.name);
    expect(target.name).not.toBe(before);
  });

  it.skipIf(!process.env.DATABASE_URL)("follows a change made through another web process at this one's next view", async () => {
    // B keeps its own pages (and sessions, with its own change feed); the changes are made on A's side
    const b = await startSecondProcess(server);
    try {
      const despatcher = await signedIn("despatcher@example.com");
      const onB = Object.assign(new Client(b.url), { cookie: despatcher.cookie });
      for (let i = 0; i < 2; i++) expect((await view(onB, "/home", b.url)).html).toContain("Dana Despatcher");
      await server.db.execute(sql`update users set full_name = 'Dana Elsewhere' where email = 'despatcher@example.com'`);
      expect((await view(onB, "/home", b.url)).html).toContain("Dana Elsewhere");
      expect((await despatcher.json("/users/custom_sign_out", { method: "DELETE" })).status).toBeLessThan(300);
      const out = await view(onB, "/home", b.url);
      expect(out.status).toBe(302);
    } finally {
      await server.db.execute(sql`update users set full_name = 'Dana Despatcher' where email = 'despatcher@example.com'`);
      await b.close();
    }
  });

  it("is true to the clock where the page depends on it: the cancel window, read with the data, closes at the next view", async () => {
    // Cancel shows to a despatcher until the consignment's cancellation_allowed_date (QA and UAT)
    const despatcher = await signedIn("despatcher@example.com");
    // saved incomplete (no receiver), then despatched as far as the screen's rules can tell
    const saved = await despatcher.json<{ id: number }>("/api/consignments", { json: { site_code: "MEL", reference: "MEMO-CANCEL" } });
    expect(saved.status).toBeLessThan(300);
    const id = saved.body.id;
    await withAppEnv("qa", async () => {
      await server.db.execute(sql`update consignments set state = 'despatched', cancellation_allowed_date = now() + interval '2 seconds' where id = ${id}`);
      const cancel = /data-button="cancel"/;
      for (let i = 0; i < 2; i++) expect((await view(despatcher, `/consignment/${id}`)).html).toMatch(cancel);
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const closed = await view(despatcher, `/consignment/${id}`);
      expect(closed.html).not.toMatch(cancel);
      expect(closed.html).toBe((await view(despatcher, `/consignment/${id}`, fresh.url)).html);
    });
  });

  it("is not kept for a form sent without JavaScript: its answer is rendered each time", async () => {
    const despatcher = await signedIn("despatcher@example.com");
    const before = memo.stats();
    for (let i = 0; i < 2; i++) {
      const res = await despatcher.request("/enquiries", { form: { intent: "create", full_name: "Dana", email: "", subject: "Memo" } });
      expect(res.status).toBeGreaterThanOrEqual(400);
      await res.text();
    }
    expect(memo.stats().hits).toBe(before.hits);
    expect(memo.stats().misses).toBe(before.misses);
  });
});
