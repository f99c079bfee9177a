/**
 * server/api-lane.ts on its own (decision 046): which requests it takes and which it leaves to
 * Remix, and that the plain call it hands a route reads as the fetch Request the bridge would make.
 * tests/integration/api-lane.test.ts compares the real calls' answers through both doors.
 */
import type { ServerBuild } from "@remix-run/node";
import express from "express";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { apiLane, laneCalls, PlainCall } from "../../server/api-lane";
import { toFetchRequest } from "../../server/remix-bridge";
import type { CallRequest, LaneCall } from "../../app/utils/http.server";

type Route = { id: string; parentId?: string; path?: string; index?: boolean; module: Record<string, unknown> };
const buildOf = (routes: Route[]) => ({ routes: Object.fromEntries(routes.map((r) => [r.id, r])) }) as unknown as ServerBuild;

const servers: http.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function listen(app: express.Express) {
  const server = http.createServer(app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** An app with the lane over `lane` at `path`, and Remix's place taken by an answer naming it. */
async function appWith(lane: Record<string, LaneCall>, path = "api/thing") {
  const app = express();
  app.set("trust proxy", 1);
  app.use(apiLane(buildOf([{ id: "root", path: "", module: {} }, { id: "routes/api+/thing", parentId: "root", path, module: { lane } }]), () => ({}) as never));
  app.all("*", (_req, res) => void res.status(299).send("remix"));
  return listen(app);
}

describe("the lane's routes", () => {
  const lane = { GET: async () => new Response() };
  const root: Route = { id: "root", path: "", module: {} };
  const sources = (routes: Route[]) => laneCalls(buildOf([root, ...routes])).map((c) => [c.pattern.source, c.names]);

  it("are the routes whose module exports a lane, at their full paths, a parameter taking only unescaped characters", () => {
    expect(
      sources([
        { id: "a", parentId: "root", path: "api/a", module: { lane } },
        { id: "b", parentId: "root", path: "api/b", module: {} },
        { id: "t", parentId: "root", path: "track/:token", module: { lane } },
        { id: "t.pod", parentId: "t", path: "pod", module: {} },
        { id: "layout", parentId: "root", module: {} },
        { id: "nested", parentId: "layout", path: "things/:id/v1.0", module: { lane } },
        { id: "splat", parentId: "layout", path: "*", module: {} },
      ]),
    ).toEqual([
      ["^\\/api\\/a$", []],
      ["^\\/track\\/([A-Za-z0-9_-]+)$", ["token"]],
      ["^\\/things\\/([A-Za-z0-9_-]+)\\/v1\\.0$", ["id"]],
    ]);
  });

  it("refuse a lane where Remix might answer the same URL from another route", () => {
    const refused = (routes: Route[]) => expect(() => laneCalls(buildOf([root, ...routes]))).toThrow(/exports a lane/);
    // a splat, an optional segment
    refused([{ id: "s", parentId: "root", path: "files/*", module: { lane } }]);
    refused([{ id: "o", parentId: "root", path: "things/:id?", module: { lane } }]);
    // an index or pathless child shares its URL
    refused([{ id: "p", parentId: "root", path: "things", module: { lane } }, { id: "i", parentId: "p", index: true, module: {} } as Route]);
    // a static route outranks the parameter; the same shape, or an optional one, is as good a match
    refused([{ id: "t", parentId: "root", path: "track/:token", module: { lane } }, { id: "x", parentId: "root", path: "Track/new", module: {} }]);
    refused([{ id: "t", parentId: "root", path: "track/:token", module: { lane } }, { id: "y", parentId: "root", path: "track/:id", module: {} }]);
    refused([{ id: "t", parentId: "root", path: "track/:token", module: { lane } }, { id: "z", parentId: "root", path: "track/:a?/:b?", module: {} }]);
    // a splat whose static segments outrank the parameter (Remix sends /track/demo to it)
    refused([{ id: "t", parentId: "root", path: "track/:token", module: { lane } }, { id: "d", parentId: "root", path: "track/demo/*", module: {} }]);
    // a fixed path: an index route at the same path outranks it, and the same path (in another case) ties
    refused([{ id: "c", parentId: "root", path: "api/users/current", module: { lane } }, { id: "l", parentId: "root", path: "api/users/current", module: {} }, { id: "li", parentId: "l", index: true, module: {} } as Route]);
    refused([{ id: "c", parentId: "root", path: "api/users/current", module: { lane } }, { id: "C", parentId: "root", path: "API/users/current", module: {} }]);
  });

  it("take a lane where every other route that matches ranks lower", () => {
    // a parameter where the lane is fixed, splats, a longer path, parameters in place of its fixed segments
    expect(
      sources([
        { id: "c", parentId: "root", path: "api/users/current", module: { lane } },
        { id: "u", parentId: "root", path: "api/users/:id", module: {} },
        { id: "a", parentId: "root", path: "api/*", module: {} },
        { id: "t", parentId: "root", path: "track/:token", module: { lane } },
        { id: "s", parentId: "root", path: "*", module: {} },
        { id: "p", parentId: "t", path: "pod", module: {} },
        { id: "y", parentId: "root", path: ":a/:b", module: {} },
      ]),
    ).toHaveLength(2);
  });
});

describe("the lane", () => {
  it("answers its methods at its path with the call's Response, and leaves everything else to Remix", async () => {
    const seen: CallRequest[] = [];
    const answer = (body: string) => async (request: CallRequest) => {
      seen.push(request);
      return Response.json({ body }, { status: 201, headers: { "X-Thing": "1" } });
    };
    const base = await appWith({ GET: answer("got"), POST: answer("posted") });

    const got = await fetch(`${base}/api/thing?q=1`);
    expect([got.status, got.headers.get("x-thing"), await got.json()]).toEqual([201, "1", { body: "got" }]);
    const posted = await fetch(`${base}/api/thing`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(await posted.json()).toEqual({ body: "posted" });
    expect(seen).toHaveLength(2);

    // to Remix: another method, another path (a trailing slash, another case), a key to keep
    for (const [path, init] of [
      ["/api/thing", { method: "PUT", body: "{}" }],
      ["/api/thing", { method: "HEAD" }],
      ["/api/thing/", {}],
      ["/API/thing", {}],
      ["/api/things", {}],
      ["/api/thing", { method: "POST", headers: { "Idempotency-Key": "k-1" }, body: "{}" }],
    ] as const) {
      const res = await fetch(`${base}${path}`, init);
      expect(res.status, `${init.method ?? "GET"} ${path}`).toBe(299);
    }
    expect(seen).toHaveLength(2);
  });

  it("leaves Remix's data requests and a target in absolute form to Remix", async () => {
    let calls = 0;
    const base = await appWith({ GET: async () => (calls++, new Response("lane")) });
    for (const query of ["?_data=routes%2Fapi%2B%2Fthing", "?%5Fdata=x", "?a=1&_data"]) expect((await fetch(`${base}/api/thing${query}`)).status, query).toBe(299);
    const { port } = new URL(base);
    const absolute = await new Promise<number>((resolve, reject) =>
      http.request({ host: "127.0.0.1", port, path: "http://elsewhere.example/api/thing" }, (res) => (res.resume(), resolve(res.statusCode!))).on("error", reject).end(),
    );
    expect(absolute).toBe(299);
    expect(calls).toBe(0);
    expect((await fetch(`${base}/api/thing?_date=1`)).status).toBe(200);
  });

  it("fails a body read once the client has gone, rather than waiting for ever", async () => {
    let read: Promise<string> | undefined;
    const base = await appWith({
      POST: async (request) => {
        // the client goes away while the call is busy, before it reads the body
        await new Promise((r) => setTimeout(r, 150));
        read = request.json().then(
          () => "read",
          () => "failed",
        );
        return new Response();
      },
    });
    const { port } = new URL(base);
    const req = http.request({ host: "127.0.0.1", port, path: "/api/thing", method: "POST", headers: { "content-type": "application/json", "content-length": "100" } });
    req.on("error", () => {});
    req.write('{"a":');
    await new Promise((r) => setTimeout(r, 50));
    req.destroy();
    await expect.poll(() => read, { timeout: 2000 }).toBeDefined();
    expect(await Promise.race([read, new Promise((r) => setTimeout(() => r("waiting"), 1000))])).toBe("failed");
  });

  it("hands a call its parameters, and leaves a value it would have to decode to Remix", async () => {
    const params: unknown[] = [];
    const base = await appWith({ GET: async (_request, _context, p) => (params.push(p), new Response("lane")) }, "track/:token");
    expect(await (await fetch(`${base}/track/Ab-9_x`)).text()).toBe("lane");
    expect(params).toEqual([{ token: "Ab-9_x" }]);
    for (const path of ["/track/a%20b", "/track/a.b", "/track/", "/track/a/b", "/track/a/"]) expect((await fetch(`${base}${path}`)).status, path).toBe(299);
  });

  it("leaves a GET whose call failed to Remix (which runs it again and answers the failure), and sends any other call's failure to Express", async () => {
    const base = await appWith({ GET: async () => Promise.reject(new Error("boom")), POST: async () => Promise.reject(new Error("boom")) });
    expect((await fetch(`${base}/api/thing`)).status).toBe(299);
    expect((await fetch(`${base}/api/thing`, { method: "POST", body: "{}" })).status).toBe(500);
  });
});

describe("the plain call", () => {
  /** A request as the lane sees it (PlainCall) beside the fetch Request the bridge makes of it, and the JSON each reads. */
  async function seen(path: string, init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}) {
    const app = express();
    app.set("trust proxy", 1);
    let got: { plain: PlainCall; fetched: Request; json: unknown } | undefined;
    app.all("*", (req, res) => {
      const plain = new PlainCall(req);
      const fetched = toFetchRequest(req, res);
      void plain.json().then(
        (json) => ((got = { plain, fetched, json }), res.end()),
        (e: Error) => ((got = { plain, fetched, json: e.name }), res.end()),
      );
    });
    const base = await listen(app);
    await fetch(`${base}${path}`, init as RequestInit);
    return got!;
  }

  /** What fetch's own json() reads of these bytes (the name of its error when it fails). */
  const fetchJson = (body: string | Buffer) => new Response(typeof body === "string" ? body : new Uint8Array(body)).json().catch((e: Error) => e.name);

  it("has the fetch Request's method, URL (behind a proxy too) and headers", async () => {
    const headers = { "content-type": "application/json", "X-Forwarded-Host": "freight.example:8443", "X-Forwarded-Proto": "https", Cookie: "a=1; b=2", "X-Empty": "" };
    const { plain, fetched, json } = await seen("/api/thing?x=1&y=%20", { method: "POST", headers, body: '{"a":[1,"é"]}' });
    expect(plain.method).toBe(fetched.method);
    expect(plain.url).toBe(fetched.url);
    expect(plain.url).toBe("https://freight.example:8443/api/thing?x=1&y=%20");
    for (const name of ["content-type", "Content-Type", "cookie", "x-forwarded-host", "x-empty", "authorization", "host", "content-length"]) {
      expect(plain.headers.get(name), name).toBe(fetched.headers.get(name));
    }
    expect(json).toEqual({ a: [1, "é"] });
  });

  it("reads JSON as fetch does: a byte order mark dropped, bad JSON and an empty body a SyntaxError", async () => {
    for (const body of [Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"b":2}')]), "{bad", "", "[1]", Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])]) {
      const { json } = await seen("/x", { method: "POST", body });
      expect(json, String(body)).toEqual(await fetchJson(body));
    }
    // a GET has no body: as fetch's, its JSON is a SyntaxError
    expect((await seen("/x")).json).toBe("SyntaxError");
  });

  it("reads a form as fetch does", async () => {
    const app = express();
    let form: FormData | undefined;
    app.all("*", (req, res) => void new PlainCall(req).formData().then((f) => ((form = f), res.end())));
    const base = await listen(app);
    await fetch(`${base}/x`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "a=1&b=%C3%A9&a=2" });
    expect([...form!]).toEqual([
      ["a", "1"],
      ["b", "é"],
      ["a", "2"],
    ]);
  });
});
