/**
 * The cluster form's process plumbing (issue 30 item 4, docs/decisions/031): SIGTERM's drain of a
 * web server, the /healthz and /readyz answers, and what readiness checks. The whole of it runs
 * in the compiled processes of tests/integration/cluster.test.ts; here each rule on its own.
 */
import http, { type Server } from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.server";
import { createReadiness, type ReadinessCheck } from "../../app/modules/health/readiness.server";
import type { Renderer, RendererState } from "../../app/modules/printing/renderer.server";
import { drain } from "../../server/drain";
import { answerHealth } from "../../server/health";
import { keepConnections } from "../../server/keep-alive";

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

async function listen(handler: http.RequestListener): Promise<{ server: Server; port: number }> {
  const server = keepConnections(http.createServer(handler));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** A raw request whose body arrives only when `finish` is called; answers the status line. */
function slowPost(port: number) {
  const socket = net.connect(port, "127.0.0.1");
  socket.write("POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nab");
  let text = "";
  socket.on("data", (d) => (text += d.toString()));
  const closed = new Promise<string>((resolve) => socket.on("close", () => resolve(text.split("\r\n")[0]!)));
  return { finish: () => socket.write("cd"), closed };
}

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, "127.0.0.1");
    s.on("connect", () => (s.destroy(), resolve(false)));
    s.on("error", () => resolve(true));
  });

// the handler answers once the whole body is in: the request is in flight until the client sends it
const echoBody: http.RequestListener = (req, res) => {
  let body = "";
  req.on("data", (d) => (body += d));
  req.on("end", () => res.end(body));
};

describe("drain (SIGTERM of a web process)", () => {
  // the kept-alive connection of the answered request must be closed at once, not after the
  // 65 s keep-alive (keep-alive.ts): else the drain would not resolve within the test's timeout
  it("answers a request in flight, refuses new connections, and resolves once it is answered", async () => {
    const { server, port } = await listen(echoBody);
    const slow = slowPost(port);
    await new Promise((r) => setTimeout(r, 100));
    let drained: string | undefined;
    const draining = drain(server, 30_000).then((how) => (drained = how));
    expect(await refused(port)).toBe(true);
    // still waiting for the request in flight
    await new Promise((r) => setTimeout(r, 200));
    expect(drained).toBeUndefined();
    slow.finish();
    expect(await slow.closed).toBe("HTTP/1.1 200 OK");
    expect(await draining).toBe("drained");
  });

  it("cuts a request still in flight at the bound", async () => {
    const { server, port } = await listen(echoBody);
    const slow = slowPost(port);
    await new Promise((r) => setTimeout(r, 100));
    expect(await drain(server, 300)).toBe("cut");
    expect(await slow.closed).toBe("");
  });
});

const fakeRenderer = (state: RendererState): Renderer & { warmed: number } => {
  const r = { warmed: 0, state: () => state, warm: async () => void r.warmed++ } as unknown as Renderer & { warmed: number };
  return r;
};

/** A database whose `select max(created_at)` answers `at`, or that never answers. */
const fakeDatabase = (at: number | "hang" | "down"): Database =>
  ({
    executor: {
      executeSql: (text: string) => {
        if (at === "hang") return new Promise(() => {});
        if (at === "down") return Promise.reject(new Error("ECONNREFUSED"));
        return Promise.resolve({ rows: text.includes("max(created_at)") ? [{ at: String(at) }] : [{ "?column?": 1 }] });
      },
    },
  }) as unknown as Database;

const NEWEST = 1795845894161; // the journal's last "when" today: a later one only moves it forward

describe("readiness", () => {
  it("is ready with the database answering, migrations current and the renderer up; not once stopping", async () => {
    const check = createReadiness({ database: fakeDatabase(Number.MAX_SAFE_INTEGER), renderer: fakeRenderer("ready") });
    expect(await check.check()).toEqual({ ready: true, database: "ok", migrations: "current", renderer: "ready", fileStore: "database" });
    check.stopping();
    expect(await check.check()).toMatchObject({ ready: false, stopping: true });
  });

  it("is not ready behind the build's migrations, with the database down, or before the renderer is up (which it starts)", async () => {
    expect(await createReadiness({ database: fakeDatabase(NEWEST - 1), renderer: fakeRenderer("ready") }).check()).toMatchObject({ ready: false, migrations: "behind" });
    expect(await createReadiness({ database: fakeDatabase("down"), renderer: fakeRenderer("ready") }).check()).toMatchObject({ ready: false, database: "unreachable" });
    const idle = fakeRenderer("idle");
    expect(await createReadiness({ database: fakeDatabase(Number.MAX_SAFE_INTEGER), renderer: idle }).check()).toMatchObject({ ready: false, renderer: "idle" });
    expect(idle.warmed).toBe(1);
    expect(await createReadiness({ database: fakeDatabase(Number.MAX_SAFE_INTEGER), renderer: fakeRenderer("failed") }).check()).toMatchObject({ ready: false, renderer: "failed" });
  });

  it("reports an S3 bucket that does not answer without calling the process unready (every host shares it)", async () => {
    let bucket: "ok" | "unreachable" = "unreachable";
    const check = createReadiness({ database: fakeDatabase(Number.MAX_SAFE_INTEGER), renderer: fakeRenderer("ready"), fileStore: async () => bucket });
    expect(await check.check()).toMatchObject({ ready: true, fileStore: "unreachable" });
    bucket = "ok";
    expect(await check.check()).toMatchObject({ ready: true, fileStore: "ok" });
  });

  it("counts a database that does not answer within its bound as unreachable", async () => {
    expect(await createReadiness({ database: fakeDatabase("hang"), renderer: fakeRenderer("ready") }).check()).toMatchObject({ ready: false, database: "unreachable" });
  }, 10_000);
});

describe("GET /healthz and /readyz", () => {
  const serveHealth = (readiness: Pick<ReadinessCheck, "check">) =>
    listen((req, res) => {
      if (!answerHealth(readiness as ReadinessCheck, req, res)) res.writeHead(418).end();
    });

  it("answer JSON, never cached, 200 or 503 by readiness; other paths pass on; other methods 405", async () => {
    let ready = true;
    const { port } = await serveHealth({ check: async () => ({ ready, database: "ok", migrations: "current", renderer: ready ? "ready" : "starting", fileStore: "database" }) });
    const get = (path: string, method = "GET") => fetch(`http://127.0.0.1:${port}${path}`, { method });
    const alive = await get("/healthz");
    expect([alive.status, alive.headers.get("cache-control"), alive.headers.get("content-type")]).toEqual([200, "no-store", "application/json; charset=utf-8"]);
    expect(await alive.json()).toMatchObject({ alive: true });
    expect((await get("/readyz")).status).toBe(200);
    ready = false;
    const notReady = await get("/readyz?probe=1");
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toMatchObject({ ready: false, renderer: "starting" });
    expect((await get("/readyz", "POST")).status).toBe(405);
    expect((await get("/healthzz")).status).toBe(418);
  });

  it("answer 503, never 500, when the check itself throws", async () => {
    const { port } = await serveHealth({ check: () => Promise.reject(new Error("unforeseen")) });
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(503);
  });
});
