import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAttemptCounts } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { env } from "../../app/utils/env.server";
import { serveApp, startTestServer, type TestServer } from "../support/server";

/**
 * Issue 35 finding 5: the per-address sign-in limit held on `/users/sign_in` but not on
 * `/users/%73ign_in` or `/%6Cogin`, which the router matches all the same. Every spelling of
 * every limited path is sent twice: once to an app with no limit to speak of, to learn which
 * spellings reach an action at all, then from an address over the limit, where every one that
 * reaches an action must be refused with 429.
 */
let server: TestServer;
const LIMIT = env().SIGNIN_RATE_LIMIT;
const opened: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  server = await startTestServer({ rateLimit: LIMIT });
  await seedDemo(server.db);
});
afterAll(async () => {
  for (const app of opened) await app.close();
  await server.close();
});

/** The limited paths (server/sign-in-limits.ts): the JSON calls and the pages. */
const JSON_PATHS = ["/users/sign_in", "/users/forgot_password", "/users/edit"];
const PAGE_PATHS = ["/login", "/forgot_password", "/reset_password"];

const encode = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`;

/** Ways to write `path` that a URL parser or the router may take for it. */
function spellings(path: string): string[] {
  const out = new Set<string>([path, path.toUpperCase(), path.replace(/^\/./, (s) => s.toUpperCase())]);
  // each character percent-encoded alone, lower and upper hex, and every character at once
  for (let i = 0; i < path.length; i++) {
    const e = encode(path[i]!);
    out.add(path.slice(0, i) + e + path.slice(i + 1));
    out.add(path.slice(0, i) + e.toLowerCase() + path.slice(i + 1));
  }
  out.add(path.replace(/[^/]/g, encode));
  const slashes = [...path.matchAll(/\//g)].map((m) => m.index);
  for (const at of slashes) {
    const [before, after] = [path.slice(0, at), path.slice(at + 1)];
    out.add(`${before}//${after}`);
    out.add(`${before}\\${after}`);
    out.add(`${before}/./${after}`);
    out.add(`${before}/%2e/${after}`);
    out.add(`${before}/x/../${after}`);
    out.add(`${before}/x/%2e%2e/${after}`);
    out.add(`${before}/x/%2E%2E/${after}`);
    out.add(`${before}/x/.%2e/${after}`);
    out.add(`${before};x/${after}`);
  }
  for (const tail of ["/", "//", "/.", "/./", ";x", ";x=1", "/;x", "?x=1", "%2F", "#x"]) out.add(path + tail);
  return [...out];
}

/** The `.data` twins the pages' single fetch posts to, in a few spellings. */
const dataTwins = (path: string) => [`${path}.data`, `${path.toUpperCase()}.data`, `${path.replace(/[^/]/, encode)}.data`, `${path}.%64ata`, `${path}%2Edata`, `${path}.data/`];

/** A POST sent exactly as written (fetch would resolve the dots and escapes first). */
function rawPost(base: string, path: string, json: boolean): Promise<{ status: number; cookie: boolean }> {
  const { hostname, port } = new URL(base);
  const body = json ? JSON.stringify({ user: { email: "nobody@example.com", password: "Wrong-password-00" } }) : "email=nobody%40example.com&password=Wrong-password-00&token=x";
  const headers = { "content-type": json ? "application/json" : "application/x-www-form-urlencoded", accept: json ? "application/json" : "text/html", "content-length": String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path, method: "POST", headers, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode!, cookie: (res.headers["set-cookie"] ?? []).some((c) => c.startsWith("fd_session=") && !/max-age=0/i.test(c)) }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const cases = [...JSON_PATHS.flatMap((p) => spellings(p).map((s) => ({ path: s, json: true }))), ...PAGE_PATHS.flatMap((p) => [...spellings(p), ...dataTwins(p)].map((s) => ({ path: s, json: false })))];

describe("the sign-in limit holds on every spelling of every limited path", () => {
  it("each spelling that reaches an action answers 429 from an address over the limit", async () => {
    await server.db.delete(signInAttemptCounts);
    const open = await serveApp(server.services, { rateLimit: 1_000_000 });
    opened.push(open);
    const reaches: typeof cases = [];
    for (const c of cases) {
      const { status } = await rawPost(open.url, c.path, c.json);
      if (![400, 404, 405].includes(status)) reaches.push(c);
    }
    // the finding's own spellings reach the actions, as do the dot segments and case
    for (const p of ["/users/%73ign_in", "/%6Cogin", "/USERS/SIGN_IN", "/users/x/../sign_in", "/users\\sign_in", "/%6Cogin.data", "/users/%66orgot_password", "/users/sign_in//"]) {
      expect(reaches.map((c) => c.path)).toContain(p);
    }

    await server.db.delete(signInAttemptCounts);
    const limited = await serveApp(server.services, { rateLimit: LIMIT });
    opened.push(limited);
    for (let i = 0; i < LIMIT; i++) expect((await rawPost(limited.url, "/users/sign_in", true)).status).toBe(401);
    const through: string[] = [];
    for (const c of reaches) {
      const { status, cookie } = await rawPost(limited.url, c.path, c.json);
      if (status !== 429 || cookie) through.push(`${c.path} ${status}`);
    }
    expect(through).toEqual([]);
    // and every spelling that reaches nothing still reaches nothing
    for (const c of cases.filter((x) => !reaches.includes(x))) expect([400, 404, 405, 429]).toContain((await rawPost(limited.url, c.path, c.json)).status);
  }, 240_000);

  it("the right password on an encoded spelling signs nobody in once the address is over the limit", async () => {
    await server.db.delete(signInAttemptCounts);
    const limited = await serveApp(server.services, { rateLimit: LIMIT });
    opened.push(limited);
    for (let i = 0; i < LIMIT; i++) await rawPost(limited.url, "/users/sign_in", true);
    const res = await fetch(`${limited.url}/%6Cogin`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "email=despatcher%40example.com&password=Demo-password-12",
      redirect: "manual",
    });
    expect(res.status).toBe(429);
    expect(res.headers.getSetCookie().some((c) => c.startsWith("fd_session=") && !/max-age=0/i.test(c))).toBe(false);
  });
});
