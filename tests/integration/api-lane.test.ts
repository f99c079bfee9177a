import { eq } from "drizzle-orm";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { consignments, localities, rateLanes, users, zones } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { createCarrier, createService, createSiteService } from "../../db/seed/factories";
import { futureDate, receiver, senders } from "../support/despatch";
import { MEL_TO_BNE, MEL_TO_BNE_LOCALITIES } from "../support/rating";
import { laneCalls } from "../../server/api-lane";
import { loadBuild } from "../../server/build";
import { Client, serveApp, startTestServer, type TestServer } from "../support/server";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * Decision 046: the lane (server/api-lane.ts) answers GET /api/users/current, POST
 * /api/carrier_selection and the public tracking page below Remix. Two apps over one database and one set of services, one with
 * the lane and one without, are asked the same things; every answer must be the same status,
 * headers and bytes, from a good call to each way a call can be refused.
 */
let server: TestServer;
let plain: Awaited<ReturnType<typeof serveApp>>;
let cookie: string;
let bearer: string;
let resetCookie: string;
let token: string;

beforeAll(async () => {
  // a despatch date may not be in the past: the app (in this process) reads this clock
  vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-22T22:00:00Z"), shouldAdvanceTime: true });
  server = await startTestServer();
  const demo = await seedDemo(server.db);
  const db = server.db;
  await db.insert(localities).values([...MEL_TO_BNE_LOCALITIES]);
  const carrier = await createCarrier(db, { code: "LANECO", name: "Lane Freight" });
  await db.insert(zones).values([
    { carrierId: carrier.id, postcode: "3175", code: "MEL" },
    { carrierId: carrier.id, postcode: "4102", code: "BNE" },
  ]);
  const service = await createService(db, carrier.id, { code: "ROAD", name: "Road", type: "road" });
  await createSiteService(db, demo.sites.melbourne.id, service.id, { rateCode: "R1", markup: "10", surchargesMarkup: "0" });
  await db.insert(rateLanes).values({ carrierId: carrier.id, serviceId: service.id, rateCode: "R1", fromZone: "MEL", toZone: "BNE", basic: "10", perKg: "1", perItem: "0", minimum: "0", transitDays: 2, cubicFactor: "250", effectiveFrom: "2020-01-01" });
  plain = await serveApp(server.services, { lane: false });
  // the build's own lane functions, watched: the app with the lane calls them by `lane[method]`
  const { build } = await loadBuild(root);
  const spies = (["routes/api+/users.current", "routes/api+/carrier_selection", "routes/track+/$token"] as const).map((id) => {
    const lane = (build.routes[id]!.module as unknown as { lane: Record<string, (...args: never[]) => unknown> }).lane;
    return vi.spyOn(lane, Object.keys(lane)[0]!);
  });
  laneCallCount = () => spies.reduce((n, spy) => n + spy.mock.calls.length, 0);

  const despatcher = new Client(server.url);
  expect((await despatcher.signIn("despatcher@example.com")).status).toBe(200);
  cookie = despatcher.cookie;
  const saved = await despatcher.json<{ id: number }>("/api/consignments", {
    json: { site_code: "MEL", reference: "LANE-1", despatch_date: futureDate(), sender_address: senders.MEL, receiver_address: receiver, items: [{ quantity: 1, length: 40, width: 30, height: 30, weight_in_uom: "10" }], carrier_code: "LANECO", service_code: "ROAD" },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  // its link opens once it has left
  const [tracked] = await db.update(consignments).set({ state: "despatched" }).where(eq(consignments.id, saved.body.id)).returning({ token: consignments.publicTrackingToken });
  token = tracked!.token;
  bearer = "tok-lane-despatcher";
  await db.update(users).set({ authenticationToken: bearer }).where(eq(users.email, "despatcher@example.com"));
  const reset = new Client(server.url);
  expect((await reset.signIn("admin@example.com")).status).toBe(200);
  resetCookie = reset.cookie;
  await db.update(users).set({ passwordResetRequired: true }).where(eq(users.email, "admin@example.com"));
}, 120_000);

afterAll(async () => {
  vi.useRealTimers();
  await plain?.close();
  await server?.close();
});

interface Answer {
  status: number;
  statusText: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One raw exchange, so that nothing in a client adds to or hides from what the server sent. */
function ask(base: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: string | Buffer }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method: init.method ?? "GET", headers: { host: "freight.example", ...init.headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const { date: _date, "content-security-policy": csp, ...headers } = res.headers;
        // each response draws its own CSP nonce: the same policy around it
        resolve({ status: res.statusCode!, statusText: res.statusMessage!, headers: { ...headers, "content-security-policy": String(csp).replace(/'nonce-[^']+'/, "'nonce-*'") }, body: Buffer.concat(chunks).toString("utf8") });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(init.body);
  });
}

/** How many times the build's lane functions were called: the app without the lane calls them through its loaders and actions. */
let laneCallCount = () => 0;

/** The same exchange with both apps: the answers are equal; this one is returned, with whether the lane took it. */
async function both(path: string, init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<Answer & { taken: boolean }> {
  const before = laneCallCount();
  const viaLane = await ask(server.url, path, init);
  const taken = laneCallCount() > before;
  const viaRemix = await ask(plain.url, path, init);
  expect(laneCallCount() - before, "the app without the lane never calls a lane").toBe(taken ? 1 : 0);
  expect(viaLane).toEqual(viaRemix);
  return { ...viaLane, taken };
}

const rating = (over: Record<string, unknown> = {}) => JSON.stringify({ despatch_date: "2026-11-24", ...MEL_TO_BNE, items: [{ quantity: 1, length: 40, width: 30, height: 30, weight_in_uom: 12 }], ...over });
const json = { "content-type": "application/json", accept: "application/json" };

describe("the lane", () => {
  it("takes exactly the three calls whose route modules export one, at their paths", async () => {
    const { build } = await loadBuild(root);
    expect(laneCalls(build).map(({ pattern, lane }) => [pattern.source, Object.keys(lane)])).toEqual(
      expect.arrayContaining([
        ["^\\/api\\/carrier_selection$", ["POST"]],
        ["^\\/api\\/users\\/current$", ["GET"]],
        ["^\\/track\\/([A-Za-z0-9_-]+)$", ["GET"]],
      ]),
    );
    expect(laneCalls(build)).toHaveLength(3);
  });
});

describe("GET /api/users/current through the lane and through Remix", () => {
  it("answers a signed-in user alike, by session cookie and by bearer token", async () => {
    const byCookie = await both("/api/users/current", { headers: { cookie, accept: "application/json" } });
    expect([byCookie.status, byCookie.taken]).toEqual([200, true]);
    expect(JSON.parse(byCookie.body)).toMatchObject({ email: "despatcher@example.com" });
    const byToken = await both("/api/users/current", { headers: { authorization: `Bearer ${bearer}` } });
    expect(byToken.status).toBe(200);
    expect(JSON.parse(byToken.body)).toMatchObject({ email: "despatcher@example.com" });
  });

  it("answers 401 alike without a session, with an unknown one, and with a bad token", async () => {
    const callers: Array<Record<string, string>> = [{}, { cookie: "_freightdesk_session=nope" }, { authorization: "Bearer nope" }, { cookie: "" }];
    for (const headers of callers) {
      expect((await both("/api/users/current", { headers })).status).toBe(401);
    }
  });

  it("answers a user who must change their password alike (this call allows it)", async () => {
    const answer = await both("/api/users/current", { headers: { cookie: resetCookie } });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ email: "admin@example.com" });
  });

  it("answers alike with a query string, compressed, and behind a trailing slash (which Remix takes)", async () => {
    expect((await both("/api/users/current?x=1", { headers: { cookie } })).status).toBe(200);
    const gzip = await both("/api/users/current", { headers: { cookie, "accept-encoding": "gzip" } });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect((await both("/api/users/current/", { headers: { cookie } })).taken).toBe(false);
    expect((await both("/api/users/current?_data=routes%2Fapi%2B%2Fusers.current", { headers: { cookie } })).taken).toBe(false);
  });
});

describe("POST /api/carrier_selection through the lane and through Remix", () => {
  it("rates alike", async () => {
    const answer = await both("/api/carrier_selection", { method: "POST", headers: { ...json, cookie }, body: rating() });
    expect([answer.status, answer.taken]).toEqual([200, true]);
    expect(answer.body).toContain("LANECO");
  });

  it("refuses alike: signed out, bad JSON, a JSON array, a byte order mark, an invalid item, a NUL", async () => {
    expect((await both("/api/carrier_selection", { method: "POST", headers: json, body: rating() })).status).toBe(401);
    expect((await both("/api/carrier_selection", { method: "POST", headers: { ...json, cookie }, body: "{not json" })).status).toBe(400);
    expect((await both("/api/carrier_selection", { method: "POST", headers: { ...json, cookie }, body: "[1,2]" })).status).toBe(400);
    expect((await both("/api/carrier_selection", { method: "POST", headers: { ...json, cookie }, body: "" })).status).toBe(400);
    expect((await both("/api/carrier_selection", { method: "POST", headers: { ...json, cookie }, body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(rating())]) })).status).toBe(200);
    expect((await both("/api/carrier_selection", { method: "POST", headers: { ...json, cookie }, body: rating({ items: [{ quantity: 0 }] }) })).status).toBe(422);
    expect((await both("/api/carrier_selection", { method: "POST", headers: { ...json, cookie }, body: rating({ receiver_name: "a\u0000b" }) })).status).toBeGreaterThanOrEqual(400);
  });

  it("refuses a form body and a body of no stated type alike (the /api calls take JSON)", async () => {
    const form = new URLSearchParams({ despatch_date: "2026-11-24", from_postcode: "3175" }).toString();
    const byForm = await both("/api/carrier_selection", { method: "POST", headers: { cookie, accept: "application/json", "content-type": "application/x-www-form-urlencoded" }, body: form });
    expect(byForm.status).toBe(415);
    expect((await both("/api/carrier_selection", { method: "POST", headers: { cookie, accept: "application/json" }, body: rating() })).status).toBe(415);
  });

  it("answers the other methods alike (they go to Remix either way)", async () => {
    expect((await both("/api/carrier_selection", { headers: { cookie } })).status).toBe(405);
    const keyed = await both("/api/carrier_selection", { method: "POST", headers: { ...json, cookie, "idempotency-key": "" }, body: rating() });
    expect(keyed.taken).toBe(false);
    expect((await both("/api/carrier_selection", { method: "PUT", headers: { ...json, cookie }, body: rating() })).status).toBe(405);
  });

  it("refuses a body over the limit alike, with the 413 the limit answers", async () => {
    const huge = JSON.stringify({ padding: "x".repeat(4 * 1024 * 1024 + 10) });
    const answer = await both("/api/carrier_selection", { method: "POST", headers: { ...json, cookie, "transfer-encoding": "chunked" }, body: huge });
    expect(answer.status).toBe(413);
  });
});

describe("GET /track/{token} through the lane and through Remix", () => {
  it("shows a tracked consignment alike, and an unknown link alike", async () => {
    const page = await both(`/track/${token}`);
    expect([page.status, page.taken]).toEqual([200, true]);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect((await both("/track/0000000000000000000000")).status).toBe(404);
  });

  it("answers alike what the lane leaves to Remix: an escaped token, a dot, a trailing slash, the POD, HEAD", async () => {
    for (const path of [`/track/${token}/`, `/track/%41${token.slice(1)}`, "/track/a.b", `/track/${token}/pod`]) {
      const answer = await both(path);
      expect([200, 404]).toContain(answer.status);
      expect(answer.taken, path).toBe(false);
    }
    expect((await both(`/track/${token}`, { method: "HEAD" })).status).toBe(200);
  });
});
