import net, { type AddressInfo } from "node:net";
import path from "node:path";
import type { JobQueue } from "../../queues/queue.server";
import { createApp, type AppOptions } from "../../server/app";
import { loadBuild } from "../../server/build";
import { keepConnections } from "../../server/keep-alive";
import type { Renderer } from "../../app/modules/printing/renderer.server";
import { createTestDatabase, type TestDatabase } from "./database";

const root = path.resolve(import.meta.dirname, "../..");

export interface TestServer {
  url: string;
  test: TestDatabase;
  db: TestDatabase["database"]["db"];
  queue: JobQueue;
  renderer: Renderer;
  /** what the app's load context carries */
  services: AppOptions["services"];
  close(): Promise<void>;
}

/** The app's sign-in limit (default: none to speak of), APP_URL and TRUST_PROXY. */
type ServeOptions = { rateLimit?: number } & Pick<AppOptions, "appUrl" | "trustProxy" | "lane" | "pageMemo">;

/**
 * The real app (Express, CSP, rate limit, Remix build, modules) on a random local port, over a
 * fresh database. Needs `npm run build` first (the test command does it). The services are made
 * by the build, as the server makes them, so the app and its services share one copy of each
 * module (a test file's own imports are a second copy: hence the brand on the error classes).
 */
export async function startTestServer(options: { rateLimit?: number; work?: boolean } & ServeOptions = {}): Promise<TestServer> {
  const { entry } = await loadBuild(root);
  // opened by the build, as server.ts opens it: the app then has the handle's change feed and keeps
  // sessions, users and the rest as production does (decision 043), so every file tests them too
  const test = await createTestDatabase(entry.openDatabase);
  const { database } = test;
  const services = await entry.createServices(database, { baseUrl: "http://localhost", mailFrom: "test@freightdesk.local" });
  const { queue, renderer } = services;
  if (options.work) await queue.work();
  const app = await serveApp(services, options).catch(async (e: unknown) => {
    await queue.stop();
    await test.drop();
    throw e;
  });
  return {
    url: app.url,
    test,
    db: database.db,
    queue,
    renderer,
    services,
    async close() {
      await app.close();
      await queue.stop();
      await renderer.close();
      await test.drop();
    },
  };
}

/**
 * The app over services of one's choosing on a random local port: a second app over a test
 * server's database, say, with a renderer that cannot start.
 */
export async function serveApp(services: AppOptions["services"], options: ServeOptions = {}): Promise<{ url: string; close(): Promise<void> }> {
  const { build } = await loadBuild(root);
  const app = createApp({
    build,
    services,
    rateLimit: { limit: options.rateLimit ?? 10_000, windowMs: 60_000 },
    production: true,
    root,
    appUrl: options.appUrl,
    lane: options.lane,
    pageMemo: options.pageMemo,
    trustProxy: options.trustProxy,
  });
  const server = keepConnections(app.listen(0));
  await new Promise<void>((resolve) => server.once("listening", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        // a test is over: a client's kept-alive connection (65 s, keep-alive.ts) must not hold the close
        server.closeAllConnections();
      }),
  };
}

/** A port nothing listens on now, for a server started in another process. */
export async function freePort(): Promise<number> {
  const probe = net.createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => probe.once("listening", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A tiny cookie-keeping HTTP client, as a browser or script would call the app. */
export class Client {
  cookie = "";
  constructor(
    readonly base: string,
    readonly bearer?: string,
  ) {}

  async request(pathname: string, init: { method?: string; json?: unknown; form?: Record<string, string> | Array<[string, string]>; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { "X-Requested-With": "XMLHttpRequest", ...init.headers };
    if (this.cookie) headers.cookie = this.cookie;
    if (this.bearer) headers.authorization = `Bearer ${this.bearer}`;
    let body: string | undefined;
    if (init.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(init.json);
    } else if (init.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(init.form).toString();
    }
    const res = await fetch(this.base + pathname, { method: init.method ?? (body ? "POST" : "GET"), headers, body, redirect: "manual" });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const [name] = pair!.split("=");
      const others = this.cookie.split("; ").filter((p) => p && !p.startsWith(`${name}=`));
      this.cookie = (/max-age=0/i.test(c) ? others : [...others, pair!]).join("; ");
    }
    return res;
  }

  async json<T = Record<string, unknown>>(pathname: string, init: Parameters<Client["request"]>[1] = {}) {
    const res = await this.request(pathname, { ...init, headers: { Accept: "application/json", ...init.headers } });
    return { status: res.status, body: (await res.json()) as T, res };
  }

  async signIn(email: string, password = "Demo-password-12", rememberMe = false) {
    return this.json<{ user: Record<string, unknown>; redirect: string; error?: string }>("/users/sign_in", {
      json: { user: { email, password, remember_me: rememberMe ? 1 : 0 } },
    });
  }
}

/** A signed-in client for each of `emails`, under the same keys; a sign-in that does not answer 200 throws. */
export async function signInAll<K extends string>(base: string, emails: Record<K, string>): Promise<Record<K, Client>> {
  const out = {} as Record<K, Client>;
  for (const [k, email] of Object.entries(emails) as Array<[K, string]>) {
    const client = new Client(base);
    const { status } = await client.signIn(email);
    if (status !== 200) throw new Error(`signing in ${email} answered ${status}`);
    out[k] = client;
  }
  return out;
}
