import { eq, sql } from "drizzle-orm";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consignments, users } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { openApiDocument } from "../../app/modules/api/openapi";
import { CROSS_SITE_REFUSED, JSON_ONLY } from "../../server/same-origin";
import { Client, serveApp, startTestServer, type TestServer } from "../support/server";

let server: TestServer;
let admin: Client;
let consignmentId: number;

const EVIL = "http://evil.example";
const MUTATING = ["post", "put", "patch", "delete"];

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  admin = new Client(server.url);
  expect((await admin.signIn("admin@example.com")).status).toBe(200);
  await server.db.update(users).set({ authenticationToken: "tok-cross-site" }).where(eq(users.email, "admin@example.com"));
  const created = await admin.json<{ id: number }>("/api/consignments", { json: { reference: "cross-site target" } });
  expect(created.status).toBe(201);
  consignmentId = created.body.id;
});
afterAll(() => server.close());

/** Every route with an action, from the Remix build's route manifest (pages, /api, /print, /users, /logout). */
async function actionRoutes(): Promise<Array<{ method: string; url: string }>> {
  const build = (await import(pathToFileURL(path.resolve(import.meta.dirname, "../../build/index.js")).href)) as ServerBuild;
  const fullPath = (id: string | undefined): string => {
    const route = id ? build.routes[id] : undefined;
    if (!route) return "";
    const parent = fullPath(route.parentId);
    return route.path ? `${parent}/${route.path}` : parent;
  };
  const fill = (p: string) =>
    p
      .replace(/:[A-Za-z]+\?/g, "")
      .replace(/:id\b/g, String(consignmentId))
      .replace(/:[A-Za-z]+/g, "1")
      .replace(/\*/g, "x")
      .replace(/\/+/g, "/")
      .replace(/(.)\/$/, "$1") || "/";
  const found: Array<{ method: string; url: string }> = [];
  for (const route of Object.values(build.routes)) {
    if (!route.module.action) continue;
    const url = fill(fullPath(route.id)) + (route.index ? "?index" : "");
    found.push({ method: "POST", url });
    // a page's single-fetch twin, as the screens post with JavaScript on
    if (!/^\/(api|print|users)\//.test(url)) found.push({ method: "POST", url: url.replace(/^([^?]*?)\/?(\?|$)/, (_m, p: string, q: string) => `${p || "/_root"}.data${q}`) });
  }
  for (const [p, operations] of Object.entries(openApiDocument.paths)) {
    for (const method of Object.keys(operations).filter((m) => MUTATING.includes(m))) {
      found.push({ method: method.toUpperCase(), url: p.replace(/\{id\}/g, String(consignmentId)).replace(/\{[^}]+\}/g, "1") });
    }
  }
  // signing out goes last: the good-origin pass would end the session the others use
  const last = (u: string) => /logout|sign_out/.test(u);
  const unique = [...new Map(found.map((r) => [`${r.method} ${r.url}`, r])).values()];
  return unique.sort((a, b) => Number(last(a.url)) - Number(last(b.url)));
}

/** A fingerprint of every table (the app's and pg-boss's): any change shows. */
async function snapshot(): Promise<string> {
  const rowsOf = (raw: unknown) => (Array.isArray(raw) ? raw : ((raw as { rows?: unknown[] }).rows ?? [])) as Array<Record<string, unknown>>;
  const tables = rowsOf(
    await server.db.execute(sql`select table_schema, table_name from information_schema.tables where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1, 2`),
  );
  const parts: string[] = [];
  for (const t of tables) {
    const name = sql.raw(`"${String(t.table_schema)}"."${String(t.table_name)}"`);
    const [row] = rowsOf(await server.db.execute(sql`select count(*)::text as n, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from ${name} x`));
    parts.push(`${String(t.table_schema)}.${String(t.table_name)}:${String(row?.n)}:${String(row?.h)}`);
  }
  return parts.join("\n");
}

async function send(method: string, url: string, headers: Record<string, string>, body?: string) {
  const res = await fetch(server.url + url, { method, headers: { cookie: admin.cookie, ...headers }, body, redirect: "manual" });
  return { status: res.status, text: await res.text() };
}

const isRefusal = (r: { status: number; text: string }) => r.status === 403 && r.text.includes(CROSS_SITE_REFUSED);

describe("cross-site requests", () => {
  it("refuses every state-changing route from another origin, from Origin null and by Referer alone, and changes nothing", async () => {
    try {
      await matrix();
    } finally {
      // the good-origin pass signs out last: a new session for the tests below
      admin.cookie = "";
      expect((await admin.signIn("admin@example.com")).status).toBe(200);
    }
    // some 700 requests, the good-origin ones running real actions: a guard for a busy machine
  }, 180_000);

  async function matrix() {
    const routes = await actionRoutes();
    // the matrix covers what the issue found open
    for (const needed of ["/api/consignments/destroy_all", "/api/consignments", "/api/users/switch_customer/1", "/logout", "/users/sign_in", "/print/labels", "/login", "/zones"]) {
      expect(routes.map((r) => r.url.split("?")[0])).toContain(needed);
    }
    expect(routes.length).toBeGreaterThan(60);
    const before = await snapshot();
    const wrong: string[] = [];
    for (const { method, url } of routes) {
      for (const headers of [{ origin: EVIL }, { origin: "null" }, { referer: `${EVIL}/page` }] as Array<Record<string, string>>) {
        // what a page on another site can send without a preflight: a form or text/plain
        const form = await send(method, url, { ...headers, "content-type": "application/x-www-form-urlencoded" }, `ids=${consignmentId}`);
        const text = await send(method, url, { ...headers, "content-type": "text/plain" }, `{"reference":"forged","ids":[${consignmentId}]}`);
        for (const r of [form, text]) if (!isRefusal(r)) wrong.push(`${method} ${url} ${JSON.stringify(headers)}: ${r.status}`);
      }
    }
    // the three: the consignment is still there, none was created, the admin's customer is unchanged
    const [target] = await server.db.select().from(consignments).where(eq(consignments.id, consignmentId));
    expect(target?.active ?? true).not.toBe(false);
    expect(await snapshot()).toBe(before);
    expect(wrong).toEqual([]);

    // the app's own origin passes every one of them (what each then answers is its own business)
    const refusedOwn: string[] = [];
    for (const { method, url } of routes) {
      const json = /^\/(api|users|print)\//.test(url);
      const r = await send(method, url, { origin: server.url, "content-type": json ? "application/json" : "application/x-www-form-urlencoded", accept: json ? "application/json" : "text/html" }, json ? "{}" : "x=1");
      if (isRefusal(r) || r.status === 415) refusedOwn.push(`${method} ${url}: ${r.status}`);
    }
    expect(refusedOwn).toEqual([]);
  }

  it("answers JSON for /api and a page for screens", async () => {
    const api = await send("POST", `/api/consignments/destroy_all?ids=${consignmentId}`, { origin: EVIL });
    expect(api.status).toBe(403);
    expect(JSON.parse(api.text)).toEqual({ errors: { base: [CROSS_SITE_REFUSED] } });
    const page = await send("POST", "/home", { origin: EVIL, "content-type": "application/x-www-form-urlencoded" }, "intent=x");
    expect(page.status).toBe(403);
    expect(page.text).toMatch(/^<!doctype html>/);
  });

  it("lets Bearer-token callers through whatever their Origin", async () => {
    const res = await fetch(`${server.url}/api/notices/mark_all_as_seen`, {
      method: "POST",
      headers: { authorization: "Bearer tok-cross-site", origin: EVIL, "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(200);
  });

  it("lets a cookie caller with neither Origin nor Referer through (not a browser: browsers send Origin on every POST)", async () => {
    const res = await send("POST", "/api/notices/mark_all_as_seen", { "content-type": "application/json" }, "{}");
    expect(res.status).toBe(200);
  });

  it("takes the own origin from APP_URL when set, and X-Forwarded-Host/-Proto only from a trusted proxy", async () => {
    const post = (url: string, headers: Record<string, string>) =>
      fetch(`${url}/api/notices/mark_all_as_seen`, { method: "POST", headers: { cookie: admin.cookie, "content-type": "application/json", ...headers }, body: "{}" }).then((r) => r.status);
    const configured = await serveApp(server.services, { appUrl: "https://freight.example/app" });
    const untrusting = await serveApp(server.services, {});
    const proxied = await serveApp(server.services, { trustProxy: "loopback" });
    try {
      expect(await post(configured.url, { origin: "https://freight.example" })).toBe(200);
      expect(await post(configured.url, { origin: configured.url })).toBe(403);
      const forwarded = { origin: "https://freight.example", "x-forwarded-host": "freight.example", "x-forwarded-proto": "https" };
      expect(await post(untrusting.url, forwarded)).toBe(403);
      expect(await post(proxied.url, forwarded)).toBe(200);
    } finally {
      await Promise.all([configured.close(), untrusting.close(), proxied.close()]);
    }
  });

  it("reads APP_URL once, at start: one that is no URL stops the start rather than failing each state-changing request", async () => {
    await expect(serveApp(server.services, { appUrl: "freight.example" })).rejects.toThrow(/APP_URL/);
  });
});

describe("/api takes JSON bodies only", () => {
  /** A raw request, so that no client adds a content type of its own. */
  function raw(method: string, url: string, headers: Record<string, string>, body?: string) {
    return new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(server.url + url, { method, headers: { cookie: admin.cookie, ...headers } }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode!, text }));
      });
      req.on("error", reject);
      req.end(body);
    });
  }

  it("answers 415 to text/plain, XML, a form or no content type, and saves nothing", async () => {
    const count = async () => (await server.db.select({ id: consignments.id }).from(consignments)).length;
    const before = await count();
    const body = JSON.stringify({ reference: "not json" });
    for (const type of ["text/plain", "application/xml", "application/x-www-form-urlencoded", undefined]) {
      const headers: Record<string, string> = { origin: server.url, "content-length": String(body.length) };
      if (type) headers["content-type"] = type;
      const r = await raw("POST", "/api/consignments", headers, body);
      expect(r.status, String(type)).toBe(415);
      expect(JSON.parse(r.text)).toEqual({ errors: { base: [JSON_ONLY] } });
    }
    // a Bearer caller too
    expect((await raw("PUT", `/api/consignments/${consignmentId}`, { authorization: "Bearer tok-cross-site", "content-type": "text/plain" }, body)).status).toBe(415);
    expect(await count()).toBe(before);
  });

  it("passes JSON, empty bodies (ids in the query) and the CSV uploads", async () => {
    expect((await raw("POST", "/api/notices/mark_all_as_seen", { "content-type": "application/json; charset=utf-8" }, "{}")).status).toBe(200);
    expect((await raw("POST", "/api/notices/mark_all_as_seen", { "content-length": "0" })).status).toBe(200);
    const csv = await raw("POST", "/api/localities/import", { "content-type": "text/csv" }, "name,zip\na,1");
    expect(csv.status).not.toBe(415);
  });
});
