import { eq } from "drizzle-orm";
import express from "express";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { signInRateLimiter } from "../../server/app";
import * as limits from "../../app/modules/auth/limits";
import { SignInAttemptStore } from "../../app/modules/auth/sign-in-counts.server";
import { Client, startTestServer, type TestServer } from "../support/server";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ rateLimit: 5 });
  await seedDemo(server.db);
});
afterAll(() => server.close());

describe("security headers", () => {
  it("enforces a CSP whose script nonce is the one on the page's scripts", async () => {
    const res = await fetch(`${server.url}/login`);
    const csp = res.headers.get("content-security-policy")!;
    expect(res.headers.get("content-security-policy-report-only")).toBeNull();
    const nonce = csp.match(/'nonce-([^']+)'/)![1]!;
    expect(csp).toMatch(/script-src 'self' 'nonce-/);
    expect(csp).toMatch(/object-src 'none'/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    const html = await res.text();
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)];
    expect(inline.length).toBeGreaterThan(0);
    for (const [, attrs] of inline) expect(attrs).toContain(`nonce="${nonce}"`);
    // a fresh nonce per response
    const again = (await fetch(`${server.url}/login`)).headers.get("content-security-policy")!;
    expect(again).not.toBe(csp);
  });

  it("compresses responses", async () => {
    const res = await fetch(`${server.url}/login`, { headers: { "accept-encoding": "gzip" } });
    expect(res.headers.get("content-encoding")).toBe("gzip");
  });
});

describe("sign-in rate limit", () => {
  it("answers 429 after the limit on the sign-in routes, JSON for /users/* and a page for /login", async () => {
    const c = new Client(server.url);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await c.signIn("despatcher@example.com", "Wrong-pass-00")).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    const limited = await c.signIn("despatcher@example.com");
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ errors: { base: [limits.TOO_MANY_ATTEMPTS] } });
    const form = await c.request("/login", { form: { email: "despatcher@example.com", password: "x" } });
    expect(form.status).toBe(429);
    expect(await form.text()).toContain(limits.TOO_MANY_ATTEMPTS);
    // pages and other routes are not limited
    expect((await c.request("/login")).status).toBe(200);
    expect((await c.request("/api/users/current")).status).toBe(401);
  });

  it("covers every sign-in and password route, including single-fetch .data posts", async () => {
    const app = express();
    app.use(signInRateLimiter({ limit: 1, windowMs: 60_000, parts: { ...limits, SignInAttemptStore } }));
    // every attempt fails (a success is not counted); a page marked as limited answers 429 itself
    app.post("*", (req, res) => res.status(req.headers[limits.SIGN_IN_LIMITED_HEADER] ? 429 : 401).json({ ok: false }));
    const s = app.listen(0);
    await new Promise((r) => s.once("listening", r));
    const base = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
    try {
      // one counter per client across the paths: the first POST passes, every later one is limited
      const statuses: number[] = [];
      for (const path of ["/login", "/LOGIN", "/login.data", "/forgot_password", "/reset_password", "/users/sign_in", "/Users/Sign_in", "/users/forgot_password", "/users/edit", "/users/edit.data"]) {
        statuses.push((await fetch(base + path, { method: "POST" })).status);
      }
      expect(statuses).toEqual([401, 429, 429, 429, 429, 429, 429, 429, 429, 429]);
      // other routes and GETs are never limited
      expect((await fetch(`${base}/consignments`, { method: "POST" })).status).toBe(401);
    } finally {
      s.close();
    }
  });
});

describe("/api contract", () => {
  // the sign-in limit above is spent for this client address, so these calls use a token
  beforeAll(async () => {
    await server.db.update(users).set({ authenticationToken: "tok-http-test" }).where(eq(users.email, "admin@example.com"));
  });

  it("answers unknown calls with 404 JSON once signed in", async () => {
    const bot = new Client(server.url, "tok-http-test");
    const res = await bot.json<{ errors: { base: string[] } }>("/api/nothing/here", { method: "POST", json: {} });
    expect(res.status).toBe(404);
    expect(res.body.errors.base[0]).toBe("No API call at /api/nothing/here");
  });

  it("serves the OpenAPI document to signed-in callers only", async () => {
    const doc = await new Client(server.url, "tok-http-test").json<{ openapi: string; paths: Record<string, unknown> }>("/api/openapi.json");
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe("3.1.0");
    expect(Object.keys(doc.body.paths)).toContain("/api/job_status/{jobId}");
    expect((await fetch(`${server.url}/api/openapi.json`)).status).toBe(401);
  });

  it("answers malformed JSON with a 400 JSON error", async () => {
    const res = await fetch(`${server.url}/api/notices/mark_all_as_seen`, {
      method: "POST",
      headers: { authorization: "Bearer tok-http-test", "content-type": "application/json" },
      body: "{not json",
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ errors: { base: ["The request body is not valid JSON."] } });
  });
});
