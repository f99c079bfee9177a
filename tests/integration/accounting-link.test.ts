import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountingConnections, carriers, simulatedAccounting } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { MYOB_MESSAGES } from "../../app/modules/accounting/accounting";
import { exportPayableBill } from "../../app/modules/accounting/connection.server";
import { REDIRECT_NOT_REGISTERED, SIMULATED_BUSINESS, seedSupplierUid, simulatedAccountingAdapter } from "../../app/modules/accounting/simulated.server";
import { Client, signInAll, startTestServer, type TestServer } from "../support/server";

/**
 * The accounting link (issue 17 item 8; spec 2 "/myob", POST /users/auth/myob, GET/PUT /api/myob):
 * the OAuth round trip through the simulated MYOB, the supplier typeahead, the carrier mapping and bill export.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

let server: TestServer;
const EMAILS = { superAdmin: "superadmin@example.com", admin: "admin@example.com", customerService: "customerservice@example.com", despatcher: "despatcher@example.com" };
type Who = keyof typeof EMAILS;
const clients = {} as Record<Who, Client>;
const AUSPOST_UID = seedSupplierUid(0); // "Australia Post", first of the seeded suppliers

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  Object.assign(clients, await signInAll(server.url, EMAILS));
}, 120_000);
afterAll(() => server?.close());

const html = async (c: Client, path: string) => (await c.request(path, { headers: { Accept: "text/html" } })).text();
const tokenOf = async (c: Client) => /name="authenticity_token" value="([^"]+)"/.exec(await html(c, "/myob"))![1]!;
const pathOf = (location: string | null) => {
  const url = new URL(location!, server.url);
  return url.pathname + url.search;
};

/** Authenticate up to the consent page: its URL. */
async function start(c: Client): Promise<string> {
  const res = await c.request("/users/auth/myob", { form: { authenticity_token: await tokenOf(c) } });
  expect(res.status).toBe(302);
  expect(res.headers.get("location")).toMatch(/^\/simulated\/myob\/authorize\?/);
  return res.headers.get("location")!;
}

/** The consent page's decision: the callback address the service sends the browser back to. */
async function decide(c: Client, consent: string, decision: "allow" | "deny"): Promise<string> {
  const params = new URL(consent, server.url).searchParams;
  const page = await html(c, consent);
  expect(page).toContain(SIMULATED_BUSINESS.name);
  const res = await c.request(consent, { form: { client_id: params.get("client_id")!, redirect_uri: params.get("redirect_uri")!, state: params.get("state")!, decision } });
  expect(res.status).toBe(302);
  return pathOf(res.headers.get("location"));
}

/** The callback, then the /myob page it leads to (with the outcome shown once). */
async function callback(c: Client, path: string): Promise<string> {
  const res = await c.request(path);
  expect(res.status).toBe(302);
  expect(res.headers.get("location")).toBe("/myob");
  return html(c, "/myob");
}

const decodeHtml = (s: string) => s.replace(/&#x27;|&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, "&");

describe("the consent page takes only the registered callback (issue 35 finding 9)", () => {
  it("refuses any other redirect_uri, on the page and on Allow, and issues no code", async () => {
    const consent = new URL(await start(clients.admin), server.url);
    const own = consent.searchParams.get("redirect_uri")!;
    expect(own).toBe(`${server.url}/users/auth/myob/callback`);
    const { host, port } = new URL(server.url);
    const others = [
      "https://evil.example/users/auth/myob/callback",
      `http://evil.example:${port}/users/auth/myob/callback`,
      `http://${host}.evil.example/users/auth/myob/callback`,
      `http://user@evil.example/users/auth/myob/callback`,
      `http://${host}@evil.example/users/auth/myob/callback`,
      own.replace("http:", "https:"),
      `${own}?next=https://evil.example`,
      `${own}/../../evil`,
      own.toUpperCase(),
      `${own} `,
      "",
    ];
    const codesBefore = (await server.db.select().from(simulatedAccounting).where(eq(simulatedAccounting.kind, "code"))).length;
    for (const other of others) {
      const asked = new URL(consent);
      asked.searchParams.set("redirect_uri", other);
      const page = await clients.admin.request(asked.pathname + asked.search, { headers: { Accept: "text/html" } });
      expect(page.status, other).toBe(400);
      expect(decodeHtml(await page.text()), other).toContain(REDIRECT_NOT_REGISTERED);
      const allow = await clients.admin.request(consent.pathname + consent.search, { form: { client_id: consent.searchParams.get("client_id")!, redirect_uri: other, state: consent.searchParams.get("state")!, decision: "allow" } });
      expect(allow.status, other).toBe(400);
      expect(allow.headers.get("location"), other).toBeNull();
    }
    expect((await server.db.select().from(simulatedAccounting).where(eq(simulatedAccounting.kind, "code"))).length).toBe(codesBefore);
    // the registered one still goes through
    expect(await decide(clients.admin, consent.pathname + consent.search, "deny")).toMatch(/^\/users\/auth\/myob\/callback\?/);
    // the started authentication goes no further: the tests below start from none
    await server.db.update(accountingConnections).set({ pendingState: null });
  });
});

describe("before authenticating", () => {
  it("refuses the supplier list and a mapping with 409, and shows Not authenticated", async () => {
    const suppliers = await clients.admin.json<Json>("/api/myob/suppliers?query=toll");
    expect(suppliers.status).toBe(409);
    expect(suppliers.body.errors.base).toEqual([MYOB_MESSAGES.notConnected]);
    expect((await clients.admin.json("/api/myob", { method: "PUT", json: { carriers: [{ code: "auspost", myob_uid: AUSPOST_UID }] } })).status).toBe(409);
    expect(await html(clients.admin, "/myob")).toContain("Not authenticated.");
  });
});

describe("roles", () => {
  it("lets admins and super admins in, and not customer service or despatchers", async () => {
    for (const who of ["customerService", "despatcher"] as const) {
      expect((await clients[who].json("/api/myob")).status, who).toBe(403);
      expect((await clients[who].json("/api/myob", { method: "PUT", json: { carriers: [] } })).status, who).toBe(403);
      expect((await clients[who].json("/api/myob/suppliers?query=toll")).status, who).toBe(403);
      expect((await clients[who].request("/myob")).headers.get("location"), who).toBe("/");
      expect((await clients[who].request("/users/auth/myob", { form: { authenticity_token: "x" } })).headers.get("location"), who).toBe("/");
      expect((await clients[who].request("/simulated/myob/authorize")).headers.get("location"), who).toBe("/");
    }
    expect((await clients.superAdmin.json("/api/myob")).status).toBe(200);
    expect((await new Client(server.url).json("/api/myob")).status).toBe(401);
  });

  it("refuses to start without the form's authenticity token, and nothing starts on a GET", async () => {
    const res = await clients.admin.request("/users/auth/myob", { form: { authenticity_token: "forged" } });
    expect(res.headers.get("location")).toBe("/myob");
    expect(decodeHtml(await html(clients.admin, "/myob"))).toContain(MYOB_MESSAGES.failed(MYOB_MESSAGES.badToken));
    expect((await clients.admin.request("/users/auth/myob")).headers.get("location")).toBe("/myob");
    const [conn] = await server.db.select().from(accountingConnections);
    expect(conn?.pendingState ?? null).toBeNull();
  });
});

describe("the OAuth round trip through the simulated MYOB", () => {
  it("refuses a denied consent with its message and stays unauthenticated", async () => {
    const page = await callback(clients.admin, await decide(clients.admin, await start(clients.admin), "deny"));
    expect(decodeHtml(page)).toContain(MYOB_MESSAGES.failed("Access was denied at the consent page"));
    expect((await clients.admin.json<Json>("/api/myob")).body.connected).toBe(false);
  });

  it("refuses a callback whose state is not the one started", async () => {
    const back = await decide(clients.admin, await start(clients.admin), "allow");
    const forged = back.replace(/state=[^&]+/, "state=forged-state");
    expect(decodeHtml(await callback(clients.admin, forged))).toContain(MYOB_MESSAGES.failed(MYOB_MESSAGES.stateMismatch));
    expect((await clients.admin.json<Json>("/api/myob")).body.connected).toBe(false);
  });

  it("connects on Allow, shows the business name, and refuses the code used again", async () => {
    const back = await decide(clients.admin, await start(clients.admin), "allow");
    const page = await callback(clients.admin, back);
    expect(page).toContain(MYOB_MESSAGES.authenticated);
    expect(decodeHtml(page)).toContain(SIMULATED_BUSINESS.name);
    // shown once: the next visit has no outcome
    expect(await html(clients.admin, "/myob")).not.toContain(MYOB_MESSAGES.authenticated);
    const status = await clients.admin.json<Json>("/api/myob");
    expect(status.body).toMatchObject({ connected: true, business_name: SIMULATED_BUSINESS.name });
    // the same callback again: its state is used up
    expect(decodeHtml(await callback(clients.admin, back))).toContain(MYOB_MESSAGES.failed(MYOB_MESSAGES.stateMismatch));
    // the used code with a fresh state: the service refuses the code itself
    const fresh = new URL(await start(clients.admin), server.url).searchParams.get("state")!;
    const reused = back.replace(/state=[^&]+/, `state=${encodeURIComponent(fresh)}`);
    expect(decodeHtml(await callback(clients.admin, reused))).toContain(MYOB_MESSAGES.failed("The authorisation code is invalid or has already been used."));
    // still connected with the first tokens
    expect((await clients.admin.json<Json>("/api/myob")).body.connected).toBe(true);
  });

  it("the simulated service refuses an expired code and a code for another redirect address", async () => {
    const adapter = simulatedAccountingAdapter(server.db);
    const [expired] = await server.db
      .insert(simulatedAccounting)
      .values({ kind: "code", key: "expired-code", data: { redirectUri: "http://x/users/auth/myob/callback", businessId: "b", expiresAt: new Date(Date.now() - 1000).toISOString() } })
      .returning();
    expect(expired).toBeDefined();
    await expect(adapter.exchangeCode({ code: "expired-code", redirectUri: "http://x/users/auth/myob/callback" })).rejects.toThrow("The authorisation code has expired.");
    await server.db.insert(simulatedAccounting).values({ kind: "code", key: "other-code", data: { redirectUri: "http://x/users/auth/myob/callback", businessId: "b", expiresAt: new Date(Date.now() + 60_000).toISOString() } });
    await expect(adapter.exchangeCode({ code: "other-code", redirectUri: "http://evil/users/auth/myob/callback" })).rejects.toThrow("redirect_uri does not match");
  });
});

describe("suppliers and the carrier mapping (authenticated)", () => {
  it("finds suppliers by typeahead from the service's seeded list", async () => {
    const toll = await clients.admin.json<Json>("/api/myob/suppliers?query=toll");
    expect(toll.status).toBe(200);
    expect(toll.body.suppliers.map((s: Json) => s.name)).toEqual(["Toll IPEC", "Toll Priority"]);
    expect((await clients.admin.json<Json>("/api/myob/suppliers?query=%25")).body.suppliers).toEqual([]);
    expect((await clients.admin.json<Json>("/api/myob/suppliers")).status).toBe(422);
  });

  it("saves the mapping with PUT /api/myob, all or nothing", async () => {
    const saved = await clients.admin.json<Json>("/api/myob", { method: "PUT", json: { carriers: [{ code: "AUSPOST", myob_uid: AUSPOST_UID }] } });
    expect(saved.status).toBe(200);
    expect(saved.body.carriers.find((c: Json) => c.code === "auspost")).toMatchObject({ myob_uid: AUSPOST_UID, supplier_name: "Australia Post" });
    const unknownSupplier = await clients.admin.json<Json>("/api/myob", { method: "PUT", json: { carriers: [{ code: "NORTHLINE", myob_uid: "no-such-uid" }] } });
    expect(unknownSupplier.status).toBe(422);
    const unknownCarrier = await clients.admin.json<Json>("/api/myob", { method: "PUT", json: { carriers: [{ code: "NORTHLINE", myob_uid: seedSupplierUid(5) }, { code: "NOPE", myob_uid: AUSPOST_UID }] } });
    expect(unknownCarrier.status).toBe(404);
    const [northline] = await server.db.select().from(carriers).where(eq(carriers.code, "NORTHLINE"));
    expect(northline!.myobUid).toBeNull(); // the first entry was not kept either
    expect((await clients.admin.json("/api/myob", { method: "PUT", json: { carriers: "nope" } })).status).toBe(422);
  });

  it("the screen's form maps a carrier by the supplier's typed name, and says which name matches none", async () => {
    const bad = await clients.admin.request("/myob", { form: { code: "NORTHLINE", uid_NORTHLINE: "", supplier_NORTHLINE: "Northern Nobody" } });
    expect(bad.status).toBe(422);
    expect(decodeHtml(await bad.text())).toContain("No MYOB supplier is named Northern Nobody");
    const ok = await clients.admin.request("/myob", { form: { code: "NORTHLINE", uid_NORTHLINE: "", supplier_NORTHLINE: "northline" } });
    expect(ok.headers.get("location")).toBe("/myob?saved=1");
    const [northline] = await server.db.select().from(carriers).where(eq(carriers.code, "NORTHLINE"));
    expect(northline!.myobUid).toBe(seedSupplierUid(5));
  });

  it("exports a payable invoice as a bill, once", async () => {
    const bill = { supplierUid: AUSPOST_UID, number: "INV-1001", date: "2026-11-20", lines: [{ description: "Freight November", amount: 100, tax: 10 }, { description: "Fuel levy", amount: 12.5, tax: 1.25 }] };
    const sent = await exportPayableBill(server.db, bill);
    expect(sent).toMatchObject({ supplierUid: AUSPOST_UID, number: "INV-1001", total: 123.75, tax: 11.25 });
    const [row] = await server.db.select().from(simulatedAccounting).where(and(eq(simulatedAccounting.kind, "bill"), eq(simulatedAccounting.key, `${AUSPOST_UID}:INV-1001`)));
    expect(row!.data).toMatchObject({ uid: sent.uid, number: "INV-1001", date: "2026-11-20", total: 123.75, lines: bill.lines });
    await expect(exportPayableBill(server.db, bill)).rejects.toMatchObject({ code: "conflict" });
    await expect(exportPayableBill(server.db, { ...bill, number: "INV-1002", supplierUid: "nobody" })).rejects.toMatchObject({ code: "not_found" });
    await expect(exportPayableBill(server.db, { ...bill, lines: [] })).rejects.toMatchObject({ code: "invalid" });
  });

  it("refreshes an expired access token before using it", async () => {
    await server.db.update(accountingConnections).set({ expiresAt: new Date(Date.now() - 1000) });
    const [before] = await server.db.select().from(accountingConnections);
    expect((await clients.admin.json<Json>("/api/myob/suppliers?query=post")).status).toBe(200);
    const [after] = await server.db.select().from(accountingConnections);
    expect(after!.accessToken).not.toBe(before!.accessToken);
    expect(after!.expiresAt!.getTime()).toBeGreaterThan(Date.now());
  });
});
