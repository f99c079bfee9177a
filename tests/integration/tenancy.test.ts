import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { createCustomer, createNotice, createUser } from "../../db/seed/factories";
import { Client, startTestServer, type TestServer } from "../support/server";

let server: TestServer;
let demo: Awaited<ReturnType<typeof seedDemo>>;

beforeAll(async () => {
  server = await startTestServer();
  demo = await seedDemo(server.db);
});
afterAll(() => server.close());

async function signedIn(email: string) {
  const c = new Client(server.url);
  const r = await c.signIn(email);
  expect(r.status).toBe(200);
  return { c, user: r.body.user as { id: number } };
}

describe("switch customer", () => {
  it("lets staff work in another customer and answers the user in it", async () => {
    const { c } = await signedIn("customerservice@example.com");
    const list = await c.json<{ customers: { id: number; code: string; status: string }[] }>("/api/customers/list");
    expect(list.body.customers.map((x) => [x.code, x.status])).toEqual(
      expect.arrayContaining([
        ["ACME", "LIVE"],
        ["TESTCO", "TEST"],
        ["OLDCO", "DISABLED"],
      ]),
    );
    const switched = await c.json<{ customer: { code: string } }>(`/api/users/switch_customer/${demo.testCustomer.id}`, { method: "POST" });
    expect(switched.status).toBe(200);
    expect(switched.body.customer.code).toBe("TESTCO");
    expect((await c.json<{ customer: { code: string } }>("/api/users/current")).body.customer.code).toBe("TESTCO");
    // and back home
    await c.json(`/api/users/switch_customer/${demo.acme.id}`, { method: "PUT" });
    expect((await c.json<{ customer: { code: string } }>("/api/users/current")).body.customer.code).toBe("ACME");
  });

  it("answers status failed for an unknown customer", async () => {
    const { c } = await signedIn("admin@example.com");
    const r = await c.json(`/api/users/switch_customer/999999`, { method: "POST" });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ status: "failed" });
  });

  it("is refused to despatchers (403) and never happens on GET (405)", async () => {
    const { c } = await signedIn("superdespatcher@example.com");
    const r = await c.json<{ errors: { base: string[] } }>(`/api/users/switch_customer/${demo.testCustomer.id}`, { method: "POST" });
    expect(r.status).toBe(403);
    expect(r.body.errors.base[0]).toBe("You are not authorised to do that.");
    expect((await c.json("/api/customers/list")).status).toBe(403);

    const staff = await signedIn("admin@example.com");
    const get = await staff.c.json(`/api/users/switch_customer/${demo.testCustomer.id}`);
    expect(get.status).toBe(405);
    expect((await staff.c.json<{ customer: { code: string } }>("/api/users/current")).body.customer.code).toBe("ACME");
  });

  it("from the home form, tells staff where they now work", async () => {
    const { c } = await signedIn("superadmin@example.com");
    const res = await c.request("/home", { form: { intent: "switch_customer", customer_id: String(demo.testCustomer.id) } });
    expect(await res.text()).toContain("You are now working in Testing Pty Ltd.");
    await c.json(`/api/users/switch_customer/${demo.acme.id}`, { method: "POST" });
  });

  it("shows staff a personal 403 message; others the normal one", async () => {
    // running maintenance is for super admins: customer service is staff, so the message names them
    const cs = await signedIn("customerservice@example.com");
    const staff = await cs.c.request("/home", { form: { intent: "run_cleanup" } });
    expect(staff.status).toBe(403);
    expect(await staff.text()).toContain("Sorry Casey, You are not authorised to do that.");
    const d = await signedIn("despatcher@example.com");
    const plain = await d.c.request("/home", { form: { intent: "run_cleanup" } });
    expect(plain.status).toBe(403);
    const html = await plain.text();
    expect(html).toContain("You are not authorised to do that.");
    expect(html).not.toContain("Sorry");
  });
});

describe("route access", () => {
  it("sends a despatcher from a restricted area to /, lets staff in", async () => {
    const d = await signedIn("despatcher@example.com");
    const res = await d.c.request("/index_customers");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    const a = await signedIn("customerservice@example.com");
    expect((await a.c.request("/index_customers")).status).toBe(200);
  });

  it("blocks /bookings without can_book", async () => {
    const d = await signedIn("despatcher@example.com");
    expect((await d.c.request("/bookings")).headers.get("location")).toBe("/");
    await server.db.update(users).set({ canBook: true }).where(eq(users.email, "despatcher@example.com"));
    expect((await d.c.request("/bookings")).status).toBe(200);
    await server.db.update(users).set({ canBook: false }).where(eq(users.email, "despatcher@example.com"));
  });

  it("lets the demo's super despatcher try pickup bookings and the bulk uploader, and no other demo user (issue 31 item 11)", async () => {
    const flagged = await server.db.select({ email: users.email, canBook: users.canBook, canBulkupload: users.canBulkupload }).from(users).where(eq(users.customerId, demo.acme.id));
    expect(flagged.filter((u) => u.canBook).map((u) => u.email)).toEqual(["superdespatcher@example.com"]);
    expect(flagged.filter((u) => u.canBulkupload).map((u) => u.email)).toEqual(["superdespatcher@example.com"]);
    const s = await signedIn("superdespatcher@example.com");
    for (const path of ["/bookings", "/new_bookings", "/bulk_upload"]) expect((await s.c.request(path)).status, path).toBe(200);
  });

  it("sends unknown paths to / and a FINANCE user from / to /invoices_payable", async () => {
    const d = await signedIn("despatcher@example.com");
    expect((await d.c.request("/no/such/page")).headers.get("location")).toBe("/");
    const f = await signedIn("finance@example.com");
    expect((await f.c.request("/")).headers.get("location")).toBe("/invoices_payable");
    expect((await f.c.request("/invoices_payable")).status).toBe(200);
  });
});

describe("user options", () => {
  it("saves the options a user sets and merges them with the rest", async () => {
    const { c, user } = await signedIn("superdespatcher@example.com");
    // the demo user starts with a printer configuration, which must survive the merge
    const start = (await c.json<{ user_options: Record<string, unknown> }>("/api/users/current")).body.user_options;
    expect(start.printers).toBeDefined();
    const a = await c.json<{ user_options: Record<string, unknown> }>(`/api/update_user_options/${user.id}`, {
      method: "PUT",
      json: { options: { consignment_date_filter: "last_7_days", quote_button: "quick_quote" } },
    });
    expect(a.status).toBe(200);
    const b = await c.json<{ user_options: Record<string, unknown> }>(`/api/update_user_options/${user.id}`, {
      method: "PUT",
      json: { options: { consignment_site_filter: "all" } },
    });
    expect(b.body.user_options).toEqual({ ...start, consignment_date_filter: "last_7_days", quote_button: "quick_quote", consignment_site_filter: "all" });
    expect((await c.json<{ user_options: unknown }>("/api/users/current")).body.user_options).toEqual(b.body.user_options);
  });

  it("refuses unknown options and bad values with per-field errors, changing nothing", async () => {
    const { c, user } = await signedIn("superdespatcher@example.com");
    const before = (await c.json<{ user_options: unknown }>("/api/users/current")).body.user_options;
    const bad = await c.json<{ errors: Record<string, string[]> }>(`/api/update_user_options/${user.id}`, {
      method: "PUT",
      json: { options: { view: "MANAGER", invoice_details_per_page: 33 } },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(expect.arrayContaining(["options.view", "options.invoice_details_per_page"]));
    const unknown = await c.json(`/api/update_user_options/${user.id}`, { method: "PUT", json: { options: { colour: "red" } } });
    expect(unknown.status).toBe(422);
    expect((await c.json<{ user_options: unknown }>("/api/users/current")).body.user_options).toEqual(before);
  });

  it("switches the view, which changes the landing page", async () => {
    // the FINANCE view needs finance (decision 022; tests/integration/finance-access.test.ts)
    const u = await createUser(server.db, demo.acme.id, { email: "viewer@example.com", canReconcile: true });
    const { c } = await signedIn(u.email);
    await c.json(`/api/update_user_options/${u.id}`, { method: "PUT", json: { options: { view: "FINANCE" } } });
    expect((await c.request("/")).headers.get("location")).toBe("/invoices_payable");
  });

  it("keeps users to their own options: another customer's user is not found, a colleague's is forbidden", async () => {
    const other = await createCustomer(server.db, { code: "OTHERCO" });
    const stranger = await createUser(server.db, other.id, { email: "stranger@example.com" });
    const colleague = await createUser(server.db, demo.acme.id, { email: "colleague@example.com" });
    const { c } = await signedIn("despatcher@example.com");
    const options = { options: { quote_button: "quick_quote" } };
    expect((await c.json(`/api/update_user_options/${stranger.id}`, { method: "PUT", json: options })).status).toBe(404);
    expect((await c.json(`/api/update_user_options/${colleague.id}`, { method: "PUT", json: options })).status).toBe(403);
    // staff of the same customer may
    const admin = await signedIn("admin@example.com");
    expect((await admin.c.json(`/api/update_user_options/${colleague.id}`, { method: "PUT", json: options })).status).toBe(200);
  });
});

describe("notices", () => {
  it("lists the user's published notices newest first, 20 a page, with sanitised content", async () => {
    const u = await createUser(server.db, demo.acme.id, { email: "reader@example.com" });
    for (let i = 0; i < 23; i++) {
      await createNotice(server.db, demo.acme.id, {
        header: `N${i}`,
        content: `<p onclick="steal()">Body ${i}<script>alert(1)</script><img src="https://evil.example/x.png"></p>`,
        publishAt: new Date(Date.now() - (i + 1) * 60_000),
        publishTo: [u.id],
      });
    }
    await createNotice(server.db, demo.acme.id, { header: "Future", publishAt: new Date(Date.now() + 86_400_000), publishTo: [u.id] });
    await createNotice(server.db, demo.acme.id, { header: "Draft", published: false });
    const { c } = await signedIn(u.email);
    const first = await c.json<{ notices: { header: string; content: string }[]; total: number; unseen: number }>("/api/notices");
    expect(first.body.notices).toHaveLength(20);
    expect(first.body.total).toBe(23);
    expect(first.body.unseen).toBe(23);
    expect(first.body.notices[0]!.header).toBe("N0");
    expect(first.body.notices[0]!.content).toBe("<p>Body 0</p>");
    const second = await c.json<{ notices: { header: string }[] }>("/api/notices?limit=20&offset=20");
    expect(second.body.notices.map((n) => n.header)).toEqual(["N20", "N21", "N22"]);
    expect((await c.json("/api/notices?limit=0")).status).toBe(422);
  });

  it("marks all as seen for this user only, and deletes a notice from this user's list only", async () => {
    const a = await createUser(server.db, demo.acme.id, { email: "reader-a@example.com" });
    const b = await createUser(server.db, demo.acme.id, { email: "reader-b@example.com" });
    const n1 = await createNotice(server.db, demo.acme.id, { header: "Shared 1", publishTo: [a.id, b.id] });
    await createNotice(server.db, demo.acme.id, { header: "Shared 2", publishTo: [a.id, b.id] });
    const ca = (await signedIn(a.email)).c;
    const cb = (await signedIn(b.email)).c;
    const marked = await ca.json<{ unseen: number; marked: number }>("/api/notices/mark_all_as_seen", { method: "POST", json: {} });
    expect(marked.body).toEqual({ marked: 2, unseen: 0 });
    expect((await cb.json<{ unseen: number }>("/api/notices")).body.unseen).toBe(2);

    expect((await ca.json(`/api/notices/${n1.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await ca.json<{ total: number }>("/api/notices")).body.total).toBe(1);
    expect((await cb.json<{ total: number }>("/api/notices")).body.total).toBe(2);
  });

  it("mark all as seen leaves a notice published later unseen", async () => {
    const u = await createUser(server.db, demo.acme.id, { email: "later@example.com" });
    await createNotice(server.db, demo.acme.id, { header: "Now", publishTo: [u.id] });
    const later = await createNotice(server.db, demo.acme.id, { header: "Tomorrow", publishAt: new Date(Date.now() + 86_400_000), publishTo: [u.id] });
    const { c } = await signedIn(u.email);
    expect((await c.json<{ marked: number }>("/api/notices/mark_all_as_seen", { method: "POST", json: {} })).body.marked).toBe(1);
    const { noticeReceipts } = await import("../../db/schema");
    const { and: both, eq: is } = await import("drizzle-orm");
    const [receipt] = await server.db.select().from(noticeReceipts).where(both(is(noticeReceipts.noticeId, later.id), is(noticeReceipts.userId, u.id)));
    expect(receipt!.seen).toBe(false);
  });

  it("cannot touch another user's notice (404)", async () => {
    const other = await createCustomer(server.db, { code: "NOTICECO" });
    const stranger = await createUser(server.db, other.id, { email: "notice-stranger@example.com" });
    const theirs = await createNotice(server.db, other.id, { header: "Theirs", publishTo: [stranger.id] });
    const { c } = await signedIn("despatcher@example.com");
    expect((await c.json(`/api/notices/${theirs.id}`, { method: "DELETE" })).status).toBe(404);
    const list = await c.json<{ notices: { header: string }[] }>("/api/notices");
    expect(list.body.notices.map((n) => n.header)).not.toContain("Theirs");
  });

  it("the bell form marks all as seen and returns to the page it was on", async () => {
    const u = await createUser(server.db, demo.acme.id, { email: "bell@example.com" });
    await createNotice(server.db, demo.acme.id, { header: "Ring", publishTo: [u.id] });
    const { c } = await signedIn(u.email);
    expect(await (await c.request("/home")).text()).toContain('aria-label="1 unseen"');
    const res = await c.request("/home", { form: { intent: "mark_all_seen", redirectTo: "/manifests" } });
    expect(res.headers.get("location")).toBe("/manifests");
    expect(await (await c.request("/home")).text()).not.toContain("unseen-count");
    // an off-site redirect is refused
    const evil = await c.request("/home", { form: { intent: "mark_all_seen", redirectTo: "//evil.example" } });
    expect(evil.headers.get("location")).toBe("/home");
  });
});
