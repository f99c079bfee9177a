import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { noticeReceipts, notices, users } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { createCustomer, createUser } from "../../db/seed/factories";
import { MESSAGES } from "../../app/modules/notices/admin";
import { deliverPublishedNotices } from "../../app/modules/notices/admin.server";
import { Client, signInAll, startTestServer, type TestServer } from "../support/server";

/**
 * Notices administration (issue 15 item 5; spec 2 /notices, /notice/{id?}, PUT /api/notices/{id},
 * GET /api/unpublished_notices): staff other than customer service write notices and publish them
 * to every user of a customer; content is sanitised before it is stored and again when shown.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

let server: TestServer;
let demo: Awaited<ReturnType<typeof seedDemo>>;
const clients = {} as Record<"superAdmin" | "admin" | "customerService" | "despatcher", Client>;
const EMAILS = { superAdmin: "superadmin@example.com", admin: "admin@example.com", customerService: "customerservice@example.com", despatcher: "despatcher@example.com" };

beforeAll(async () => {
  server = await startTestServer();
  demo = await seedDemo(server.db);
  Object.assign(clients, await signInAll(server.url, EMAILS));
}, 120_000);
afterAll(() => server?.close());

const create = (body: Json, client = clients.admin) => client.json<Json>("/api/admin_notices", { json: body });
const publish = (id: number, published = true, client = clients.admin) => client.json<Json>(`/api/notices/${id}`, { method: "PUT", json: { published } });
const signedIn = async (email: string) => {
  const c = new Client(server.url);
  expect((await c.signIn(email)).status).toBe(200);
  return c;
};
const readerList = async (c: Client) => (await c.json<Json>("/api/notices")).body as { notices: Json[]; unseen: number; total: number };
const receiptsOf = (noticeId: number) => server.db.select().from(noticeReceipts).where(eq(noticeReceipts.noticeId, noticeId));

const EVIL = '<p onclick="steal()">Hello <a href="javascript:alert(1)">click</a><img src=x onerror="alert(2)"><script>alert(3)</script><strong>bold</strong></p>';

describe("notices through the API", () => {
  it("creates, reads, lists, changes and deletes a notice", async () => {
    const created = await create({ header: "  Depot closed  ", customer_id: demo.acme.id, publish_at: "01/12/2026", content: "<p>The depot is closed.</p>" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ header: "Depot closed", customer_id: demo.acme.id, customer_name: demo.acme.name, published: false, publish_date: "01/12/2026" });
    const id = created.body.id as number;
    expect((await clients.admin.json<Json>(`/api/admin_notices/${id}`)).body).toEqual(created.body);

    const changed = await clients.superAdmin.json<Json>(`/api/admin_notices/${id}`, { method: "PUT", json: { header: "Depot reopened", publish_at: "2026-12-02" } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id, header: "Depot reopened", publish_date: "02/12/2026", content: "<p>The depot is closed.</p>" });

    const other = await createCustomer(server.db, { code: "NOTLIST", name: "Listing Co" });
    await create({ header: "For Listing Co", customer_id: other.id, content: "<p>x</p>" });
    const all = (await clients.admin.json<Json>("/api/admin_notices")).body;
    expect(all.notices.map((n: Json) => n.header)).toEqual(expect.arrayContaining(["Depot reopened", "For Listing Co"]));
    const mine = (await clients.admin.json<Json>(`/api/admin_notices?customer_id=${other.id}`)).body;
    expect(mine.notices.map((n: Json) => n.header)).toEqual(["For Listing Co"]);
    expect(mine).toMatchObject({ total: 1, page: 1, page_size: 20 });
    expect((await clients.admin.json("/api/admin_notices?page=0")).status).toBe(422);

    // published, it stays with its customer: the receipts belong to that customer's users
    expect((await publish(id)).status).toBe(200);
    const moved = await clients.admin.json<Json>(`/api/admin_notices/${id}`, { method: "PUT", json: { customer_id: other.id } });
    expect(moved.status).toBe(422);
    expect(Object.keys(moved.body.errors)).toEqual(["customer_id"]);
    expect((await clients.admin.json<Json>(`/api/admin_notices/${id}`, { method: "DELETE" })).body).toEqual({ id, deleted: true });
    expect((await clients.admin.json(`/api/admin_notices/${id}`)).status).toBe(404);
    expect((await clients.admin.json(`/api/admin_notices/${id}`, { method: "DELETE" })).status).toBe(404);
  });

  it("pages the list by 20, newest publish date first", async () => {
    const customer = await createCustomer(server.db, { code: "NOTPAGE" });
    for (let i = 0; i < 23; i++) await create({ header: `P${i}`, customer_id: customer.id, publish_at: `${String(i + 1).padStart(2, "0")}/01/2026`, content: "<p>x</p>" });
    const first = (await clients.admin.json<Json>(`/api/admin_notices?customer_id=${customer.id}`)).body;
    expect(first.notices).toHaveLength(20);
    expect(first.notices[0].header).toBe("P22");
    const second = (await clients.admin.json<Json>(`/api/admin_notices?customer_id=${customer.id}&page=2`)).body;
    expect(second.notices.map((n: Json) => n.header)).toEqual(["P2", "P1", "P0"]);
  });

  it("answers field errors per field (header, content, customer, publish date)", async () => {
    const blank = await create({ header: " ", content: "" });
    expect(blank.status).toBe(422);
    expect(blank.body.errors).toMatchObject({ header: [MESSAGES.headerRequired], content: [MESSAGES.contentRequired], customer_id: [MESSAGES.customerRequired] });
    const badDate = await create({ header: "H", customer_id: demo.acme.id, content: "<p>x</p>", publish_at: "31/02/2026" });
    expect(badDate.body.errors).toEqual({ publish_at: [MESSAGES.publishDate] });
    const noCustomer = await create({ header: "H", customer_id: 999_999, content: "<p>x</p>" });
    expect(noCustomer.body.errors).toEqual({ customer_id: [MESSAGES.customerRequired] });
    // only a script is no content at all once it is sanitised
    const onlyScript = await create({ header: "H", customer_id: demo.acme.id, content: "<script>alert(1)</script>" });
    expect(onlyScript.body.errors).toEqual({ content: [MESSAGES.contentRequired] });
    expect((await create({ header: "x".repeat(201), customer_id: demo.acme.id, content: "<p>x</p>" })).body.errors).toEqual({ header: [MESSAGES.headerTooLong] });
  });

  it("refuses customer service and despatchers (403), and unknown callers (401)", async () => {
    const { body } = await create({ header: "Roles", customer_id: demo.acme.id, content: "<p>x</p>" });
    for (const client of [clients.customerService, clients.despatcher]) {
      expect((await create({ header: "No", customer_id: demo.acme.id, content: "<p>x</p>" }, client)).status).toBe(403);
      expect((await client.json("/api/admin_notices")).status).toBe(403);
      expect((await client.json(`/api/admin_notices/${body.id}`)).status).toBe(403);
      expect((await client.json(`/api/admin_notices/${body.id}`, { method: "PUT", json: { header: "Mine" } })).status).toBe(403);
      expect((await client.json(`/api/admin_notices/${body.id}`, { method: "DELETE" })).status).toBe(403);
      expect((await publish(body.id, true, client)).status).toBe(403);
      expect((await client.json("/api/unpublished_notices")).status).toBe(403);
    }
    expect((await new Client(server.url).json("/api/unpublished_notices")).status).toBe(401);
    const [row] = await server.db.select().from(notices).where(eq(notices.id, body.id));
    expect(row).toMatchObject({ header: "Roles", published: false });
  });
});

describe("publishing", () => {
  it("gives every user of that customer, and only them, an unseen notice", async () => {
    const customer = await createCustomer(server.db, { code: "NOTPUB", name: "Publish Co" });
    const a = await createUser(server.db, customer.id, { email: "pub-a@example.com" });
    const b = await createUser(server.db, customer.id, { email: "pub-b@example.com" });
    const stranger = await createUser(server.db, demo.acme.id, { email: "pub-stranger@example.com" });
    const { body } = await create({ header: "Hello {{ first_name }}", customer_id: customer.id, content: "<p>Dear {{ full_name }} of {{ customer_name }}, {{ unknown }}</p>" });
    expect((await clients.admin.json<Json>("/api/unpublished_notices")).body.notices.map((n: Json) => n.id)).toContain(body.id);
    const ca = await signedIn(a.email);
    expect((await readerList(ca)).total).toBe(0);

    const published = await publish(body.id);
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ id: body.id, published: true });
    expect((await receiptsOf(body.id)).map((r) => r.userId).sort()).toEqual([a.id, b.id].sort());
    expect((await clients.admin.json<Json>("/api/unpublished_notices")).body.notices.map((n: Json) => n.id)).not.toContain(body.id);

    const list = await readerList(ca);
    expect(list.unseen).toBe(1);
    // the reader's tags are filled in when shown; an unknown one stays as written
    expect(list.notices[0]).toMatchObject({ header: "Hello {{ first_name }}", content: `<p>Dear ${a.fullName} of Publish Co, {{ unknown }}</p>`, seen: false });
    expect((await readerList(await signedIn(stranger.email))).notices.map((n) => n.id)).not.toContain(body.id);

    // publishing again changes nothing: a reader who saw it keeps it seen
    expect((await ca.json(`/api/notices/${body.id}`, { method: "PUT", json: { seen: true } })).status).toBe(200);
    expect((await publish(body.id)).status).toBe(200);
    expect((await readerList(ca)).unseen).toBe(0);
    // withdrawn, it leaves the bell; published again, it is news again
    await publish(body.id, false);
    expect((await readerList(ca)).total).toBe(0);
    await publish(body.id, true);
    expect((await readerList(ca)).unseen).toBe(1);
  });

  it("reaches a user added to the customer later", async () => {
    const customer = await createCustomer(server.db, { code: "NOTLATE" });
    const { body } = await create({ header: "Before you came", customer_id: customer.id, content: "<p>x</p>" });
    const draft = await create({ header: "Draft", customer_id: customer.id, content: "<p>x</p>" });
    await publish(body.id);
    const late = await createUser(server.db, customer.id, { email: "late-user@example.com" });
    await deliverPublishedNotices(server.db, late.id);
    const list = await readerList(await signedIn(late.email));
    expect(list.notices.map((n) => n.header)).toEqual(["Before you came"]);
    expect(list.unseen).toBe(1);
    expect((await receiptsOf(draft.body.id)).length).toBe(0);
  });

  it("shows a notice with a future publish date only from that date", async () => {
    const customer = await createCustomer(server.db, { code: "NOTFUT" });
    const u = await createUser(server.db, customer.id, { email: "future-reader@example.com" });
    const { body } = await create({ header: "Next year", customer_id: customer.id, publish_at: "01/01/2099", content: "<p>x</p>" });
    await publish(body.id);
    const c = await signedIn(u.email);
    expect(await readerList(c)).toMatchObject({ total: 0, unseen: 0 });
    // the receipt is there, waiting for the date
    await server.db.update(notices).set({ publishAt: new Date(Date.now() - 1000) }).where(eq(notices.id, body.id));
    expect(await readerList(c)).toMatchObject({ total: 1, unseen: 1 });
  });

  it("PUT {seen} marks only the caller's receipt; a bad body or id is refused", async () => {
    const customer = await createCustomer(server.db, { code: "NOTSEEN" });
    const a = await createUser(server.db, customer.id, { email: "seen-a@example.com" });
    const b = await createUser(server.db, customer.id, { email: "seen-b@example.com" });
    const { body } = await create({ header: "Seen", customer_id: customer.id, content: "<p>x</p>" });
    await publish(body.id);
    const ca = await signedIn(a.email);
    expect((await ca.json<Json>(`/api/notices/${body.id}`, { method: "PUT", json: { seen: true } })).body).toEqual({ id: body.id, seen: true });
    const [ra] = await server.db.select().from(noticeReceipts).where(and(eq(noticeReceipts.noticeId, body.id), eq(noticeReceipts.userId, a.id)));
    const [rb] = await server.db.select().from(noticeReceipts).where(and(eq(noticeReceipts.noticeId, body.id), eq(noticeReceipts.userId, b.id)));
    expect([ra!.seen, rb!.seen]).toEqual([true, false]);
    for (const json of [{ seen: false }, { published: "yes" }, {}, { seen: true, published: true }]) {
      const res = await ca.json<Json>(`/api/notices/${body.id}`, { method: "PUT", json });
      expect(res.status, JSON.stringify(json)).toBe(422);
      expect(res.body.errors).toBeDefined();
    }
    expect((await ca.json(`/api/notices/${body.id}`, { method: "PUT", json: { published: false } })).status).toBe(403);
    expect((await publish(2_000_000_000)).status).toBe(404);
  });
});

describe("sanitising", () => {
  it("keeps scripts, handlers and javascript: links out of the stored row, the API, the bell and the home page", async () => {
    const customer = await createCustomer(server.db, { code: "NOTXSS" });
    const u = await createUser(server.db, customer.id, { email: "xss-reader@example.com" });
    const { body } = await create({ header: "Careful", customer_id: customer.id, content: EVIL });
    expect(body.content).toBe('<p>Hello <a rel="noopener noreferrer" target="_blank">click</a><strong>bold</strong></p>');
    const [row] = await server.db.select().from(notices).where(eq(notices.id, body.id));
    for (const text of [row!.content, JSON.stringify(body)]) expect(text).not.toMatch(/script|onerror|onclick|javascript:/i);
    // a row written before the rule (or by hand) is cleaned on the way out too
    await server.db.update(notices).set({ content: EVIL }).where(eq(notices.id, body.id));
    const unpublished = JSON.stringify((await clients.admin.json("/api/unpublished_notices")).body);
    await publish(body.id);
    const c = await signedIn(u.email);
    const shown = [
      JSON.stringify((await clients.admin.json(`/api/admin_notices/${body.id}`)).body),
      unpublished,
      JSON.stringify(await readerList(c)),
      await (await c.request("/home")).text(),
      await (await clients.admin.request(`/notice/${body.id}`)).text(),
    ];
    for (const text of shown) {
      expect(text).not.toMatch(/onerror|onclick|javascript:|alert\(/i);
      expect(text).toContain("bold");
    }
    // a tag's value is escaped: a user named like markup stays text
    await server.db.update(users).set({ fullName: "<img/src=x/onerror=alert(4)>" }).where(eq(users.id, u.id));
    await server.db.update(notices).set({ content: "<p>Hi {{ full_name }}</p>" }).where(eq(notices.id, body.id));
    expect((await readerList(await signedIn(u.email))).notices[0]!.content).toBe("<p>Hi &lt;img/src=x/onerror=alert(4)&gt;</p>");
  });
});

describe("the notices screens", () => {
  it("save from the editor says 'Notice created.' for a new notice and 'Notice updated.' for a change (issue 31 item 8), and field errors come back per field", async () => {
    const saved = await clients.admin.request("/notice", { form: { header: "From the form", customer_id: String(demo.acme.id), publish_at: "05/12/2026", content: "<p>Typed</p>" } });
    expect(saved.status).toBe(302);
    const location = saved.headers.get("location")!;
    expect(location).toMatch(/^\/notice\/\d+\?created=1$/);
    const page = await (await clients.admin.request(location)).text();
    expect(page).toContain(MESSAGES.created);
    expect(page).not.toContain(MESSAGES.updated);
    expect(page).toContain('value="From the form"');
    expect(page).toContain('value="05/12/2026"');
    const changed = await clients.admin.request(location.replace(/\?.*$/, ""), { form: { header: "From the form, changed", customer_id: String(demo.acme.id), publish_at: "05/12/2026", content: "<p>Typed</p>" } });
    expect(changed.headers.get("location")).toMatch(/^\/notice\/\d+\?saved=1$/);
    const again = await (await clients.admin.request(changed.headers.get("location")!)).text();
    expect(again).toContain(MESSAGES.updated);
    expect(again).not.toContain(MESSAGES.created);

    const refused = await clients.admin.request("/notice", { form: { header: "", customer_id: String(demo.acme.id), publish_at: "", content: "" } });
    expect(refused.status).toBe(422);
    const html = await refused.text();
    expect(html).toContain(`id="header-error" class="field-error">${MESSAGES.headerRequired}`);
    expect(html).toContain(`id="content-error" class="field-error">${MESSAGES.contentRequired}`);
  });

  it("the list publishes and deletes by POST, filters by customer and says 'Notice updated.'", async () => {
    const customer = await createCustomer(server.db, { code: "NOTSCR", name: "Screen Co" });
    const reader = await createUser(server.db, customer.id, { email: "screen-reader@example.com" });
    const { body } = await create({ header: "Screen notice", customer_id: customer.id, content: "<p>x</p>" });
    const list = await (await clients.admin.request(`/notices?customer_id=${customer.id}`)).text();
    expect(list).toContain("Screen notice");
    expect(list).toContain("Screen Co");
    const res = await clients.admin.request(`/notices?customer_id=${customer.id}`, { form: { intent: "publish", id: String(body.id) } });
    expect(res.headers.get("location")).toBe(`/notices?customer_id=${customer.id}&updated=1`);
    expect(await (await clients.admin.request(res.headers.get("location")!)).text()).toContain(MESSAGES.updated);
    expect((await readerList(await signedIn(reader.email))).unseen).toBe(1);
    // GET changes nothing
    await clients.admin.request(`/notices?intent=delete&id=${body.id}`);
    expect((await server.db.select().from(notices).where(eq(notices.id, body.id))).length).toBe(1);
    const deleted = await clients.admin.request(`/notices?customer_id=${customer.id}`, { form: { intent: "delete", id: String(body.id) } });
    expect(deleted.headers.get("location")).toBe(`/notices?customer_id=${customer.id}&deleted=1`);
    expect((await server.db.select().from(notices).where(eq(notices.id, body.id))).length).toBe(0);
    expect(await (await clients.admin.request(`/notices?customer_id=${customer.id}`)).text()).toContain("There are no notices to display.");
    // publishing what is gone shows the server's error on the list
    const gone = await clients.admin.request("/notices", { form: { intent: "publish", id: String(body.id) } });
    expect(gone.status).toBe(404);
    expect(await gone.text()).toContain(MESSAGES.notFound);
  });

  it("sends customer service and despatchers from /notices and /notice to /", async () => {
    for (const client of [clients.customerService, clients.despatcher]) {
      for (const path of ["/notices", "/notice", "/notice/1"]) {
        const res = await client.request(path);
        expect(res.status, path).toBe(302);
        expect(res.headers.get("location")).toBe("/");
      }
      const post = await client.request("/notices", { form: { intent: "delete", id: "1" } });
      expect(post.headers.get("location")).toBe("/");
    }
    expect((await clients.admin.request("/notice/2000000000")).status).toBe(404);
  });
});
