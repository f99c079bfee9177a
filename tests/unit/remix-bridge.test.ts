/**
 * server/remix-bridge.ts answers as @remix-run/express's own conversions do: the same Request seen
 * by the app and the same response seen by the client, for each kind of request and response the
 * app makes; and a body still arriving is sent as it arrives, not held until it ends.
 */
import { createRemixRequest, sendRemixResponse } from "@remix-run/express/dist/server.js";
import compression from "compression";
import express from "express";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendResponse, toFetchRequest, wholeBodyOf } from "../../server/remix-bridge";
import { wholeResponse } from "../../app/utils/whole-response";

type Handler = (request: Request) => Promise<Response>;
interface Seen {
  url: string;
  method: string;
  headers: Array<[string, string]>;
  body: string;
}

/** An Express app as server/app.ts makes it (trust proxy, compression), converting with `kind`. */
function appWith(kind: "adapter" | "bridge", handle: Handler, seen: Seen[]) {
  const app = express();
  app.set("trust proxy", 1);
  app.use(compression());
  app.use((_req, res, next) => {
    res.setHeader("Vary", "Cookie");
    next();
  });
  app.all("*", async (req, res, next) => {
    try {
      const request = kind === "adapter" ? createRemixRequest(req, res) : toFetchRequest(req, res);
      seen.push({ url: request.url, method: request.method, headers: [...request.headers], body: request.body ? await request.clone().text() : "" });
      const response = await handle(request);
      await (kind === "adapter" ? sendRemixResponse(res, response) : sendResponse(res, response));
    } catch (error) {
      next(error);
    }
  });
  return app;
}

async function listen(app: express.Express | http.RequestListener) {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A raw HTTP exchange, so that the client adds nothing and hides nothing (framing included). */
function exchange(url: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; statusText: string; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const req = http.request(`${url}${path}`, { method: init.method ?? "GET", headers: init.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, statusText: res.statusMessage!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(init.body);
  });
}

const stream = (...parts: string[]) =>
  new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const part of parts) {
        await new Promise((r) => setTimeout(r, 5));
        controller.enqueue(new TextEncoder().encode(part));
      }
      controller.close();
    },
  });

// what each path answers: the kinds of Response the app makes
const answers: Record<string, Handler> = {
  "/api/json": async () => Response.json({ ok: true, list: [1, 2, 3] }),
  "/api/echo": async (request) => Response.json({ got: await request.json() }, { status: 201, statusText: "Made" }),
  "/api/large": async () => Response.json({ rows: Array.from({ length: 400 }, (_, i) => ({ i, name: `row ${i}` })) }),
  "/redirect": async () => new Response(null, { status: 302, headers: { Location: "/home", "Set-Cookie": "a=1; Path=/" } }),
  "/cookies": async () => {
    const headers = new Headers({ "Content-Type": "text/plain" });
    headers.append("Set-Cookie", "a=1; Path=/");
    headers.append("Set-Cookie", "b=2; Path=/; HttpOnly");
    headers.append("Vary", "Accept");
    return new Response("two cookies", { headers });
  },
  "/empty": async () => new Response("", { status: 200 }),
  "/none": async () => new Response(null, { status: 204 }),
  "/page": async () => new Response(stream("<!DOCTYPE html><html>", "<body>shell</body>", "</html>"), { headers: { "Content-Type": "text/html" } }),
  // a page rendered whole (app/entry.server.tsx): the bridge writes the string it was made from
  "/whole": async () => wholeResponse(`<!DOCTYPE html><html><body>${"é 中 😀 ".repeat(300)}</body></html>`, { status: 200, headers: { "Content-Type": "text/html" } }),
  // as server/app.ts has it made (writesWholePages): the Response carries no stream, only the mark
  "/whole-bodiless": async () => wholeResponse(`<!DOCTYPE html><html><body>${"é 中 😀 ".repeat(300)}</body></html>`, { status: 201, headers: { "Content-Type": "text/html" } }, true),
  "/download": async () => new Response(new Uint8Array([0, 1, 2, 254, 255]), { headers: { "Content-Type": "application/octet-stream", "Content-Disposition": 'attachment; filename="x.bin"' } }),
};
const handle: Handler = (request) => (answers[new URL(request.url).pathname] ?? (async () => new Response("not found", { status: 404 })))(request);

const seenBy = { adapter: [] as Seen[], bridge: [] as Seen[] };
let adapter: Awaited<ReturnType<typeof listen>>;
let bridge: Awaited<ReturnType<typeof listen>>;
beforeAll(async () => {
  adapter = await listen(appWith("adapter", handle, seenBy.adapter));
  bridge = await listen(appWith("bridge", handle, seenBy.bridge));
});
afterAll(() => {
  adapter.server.close();
  bridge.server.close();
});

/** The headers a client sees, less those that only frame or date the message. */
function comparable(headers: Record<string, string | string[] | undefined>) {
  const { date: _date, "content-length": _length, "transfer-encoding": _chunked, connection: _connection, "keep-alive": _keepAlive, ...rest } = headers;
  return rest;
}

const REQUESTS: Array<[string, Parameters<typeof exchange>[2]]> = [
  ["/api/json", { headers: { accept: "application/json", cookie: "session=abc", "x-empty": "" } }],
  ["/api/json?x=1&y=%20z", { headers: { host: "freight.example:8443" } }],
  ["/api/json", { headers: { host: "inner:3000", "x-forwarded-host": "outer.example:444", "x-forwarded-proto": "https" } }],
  ["/api/echo", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ a: "é", n: 1 }) }],
  ["/api/large", { headers: { "accept-encoding": "gzip" } }],
  ["/api/large", { headers: { "accept-encoding": "identity" } }],
  ["/redirect", {}],
  ["/cookies", {}],
  ["/empty", {}],
  ["/none", {}],
  ["/page", { headers: { "accept-encoding": "identity" } }],
  ["/page", { headers: { "accept-encoding": "gzip" } }],
  ["/download", {}],
  ["/whole", { headers: { "accept-encoding": "identity" } }],
  ["/whole", { headers: { "accept-encoding": "gzip" } }],
  ["/api/json", { method: "HEAD" }],
  ["/missing", { method: "DELETE" }],
];

describe("the bridge answers as the adapter does", () => {
  it.each(REQUESTS)("%s %o", async (path, init) => {
    const [a, b] = [await exchange(adapter.url, path, init), await exchange(bridge.url, path, init)];
    // the app reads the same request (each server has its own port)
    const sameOrigin = (seen: Seen, url: string) => JSON.parse(JSON.stringify(seen).replaceAll(new URL(url).port, "PORT")) as Seen;
    expect(sameOrigin(seenBy.bridge.at(-1)!, bridge.url)).toEqual(sameOrigin(seenBy.adapter.at(-1)!, adapter.url));
    // and the client the same answer
    expect(b.status).toBe(a.status);
    expect(b.statusText).toBe(a.statusText);
    expect(comparable(b.headers)).toEqual(comparable(a.headers));
    expect(b.body.equals(a.body)).toBe(true);
  });

  it("frames a body complete at once by its length, and one still arriving in chunks", async () => {
    // with its length known, a body under compression's threshold (1 kB) is not gzipped; the
    // adapter wrote it as a chunk of unknown size, so it was
    const small = await exchange(bridge.url, "/api/json", { headers: { "accept-encoding": "gzip" } });
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(small.body.toString())).toEqual({ ok: true, list: [1, 2, 3] });
    expect((await exchange(adapter.url, "/api/json", { headers: { "accept-encoding": "gzip" } })).headers["content-encoding"]).toBe("gzip");
    const json = await exchange(bridge.url, "/api/json", { headers: { "accept-encoding": "identity" } });
    expect(json.headers["content-length"]).toBe(String(json.body.length));
    expect(json.headers["transfer-encoding"]).toBeUndefined();
    const page = await exchange(bridge.url, "/page", { headers: { "accept-encoding": "identity" } });
    expect(page.headers["transfer-encoding"]).toBe("chunked");
    expect(page.body.toString()).toBe("<!DOCTYPE html><html><body>shell</body></html>");
    const whole = await exchange(bridge.url, "/whole", { headers: { "accept-encoding": "identity" } });
    expect(whole.headers["content-length"]).toBe(String(whole.body.length));
    expect(whole.headers["transfer-encoding"]).toBeUndefined();
    expect(whole.body.toString()).toContain("é 中 😀 ");
    const bodiless = await exchange(bridge.url, "/whole-bodiless", { headers: { "accept-encoding": "identity" } });
    expect(bodiless.status).toBe(201);
    expect(bodiless.headers["content-length"]).toBe(String(bodiless.body.length));
    expect(bodiless.body.toString()).toBe(whole.body.toString());
  });

  it("writes a whole page from the string it was made from, and reads a copy of it as any other body", () => {
    const page = wholeResponse("<p>é</p>", { headers: { "Content-Type": "text/html" } });
    expect(wholeBodyOf(page)).toBe("<p>é</p>");
    expect(wholeBodyOf(new Response(page.body, page))).toBeUndefined();
    expect(wholeBodyOf(new Response("<p>é</p>"))).toBeUndefined();
  });
});

describe("what arrives is sent at once", () => {
  it("sends a page's shell before the rest of it is rendered", async () => {
    // the rest waits until the client has read the shell: held back, the client would wait for good
    let shellRead!: () => void;
    const read = new Promise<void>((r) => (shellRead = r));
    const app = express();
    app.use(compression());
    app.get("/", async (req, res) => {
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode("shell;"));
          await read;
          controller.enqueue(new TextEncoder().encode("rest"));
          controller.close();
        },
      });
      await sendResponse(res, new Response(body, { headers: { "Content-Type": "text/html" } }));
    });
    const { server, url } = await listen(app);
    try {
      for (const encoding of ["identity", "gzip"]) {
        const response = await fetch(url, { headers: { "accept-encoding": encoding } });
        const reader = response.body!.getReader();
        const first = await reader.read();
        expect(new TextDecoder().decode(first.value)).toBe("shell;");
        shellRead();
        let rest = "";
        for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
        expect(rest).toBe("rest");
      }
    } finally {
      server.close();
    }
  });

  it("aborts the request's signal when the client goes away before the answer, and not after", async () => {
    const signals: AbortSignal[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const app = express();
    app.get("/:kind", async (req, res) => {
      const request = toFetchRequest(req, res);
      signals.push(request.signal);
      if (req.params.kind === "slow") await held;
      await sendResponse(res, Response.json({ ok: true }));
    });
    const { server, url } = await listen(app);
    try {
      expect((await fetch(`${url}/fast`)).status).toBe(200);
      const gone = new AbortController();
      const slow = fetch(`${url}/slow`, { signal: gone.signal }).catch(() => "gone");
      await expect.poll(() => signals.length).toBe(2);
      gone.abort();
      await slow;
      await expect.poll(() => signals[1]!.aborted).toBe(true);
      release();
      expect(signals[0]!.aborted).toBe(false);
    } finally {
      server.close();
    }
  });
});
