import type { AddressInfo } from "node:net";
import path from "node:path";
import type { ServerBuild } from "@remix-run/node";
import type { Request, Response } from "express";
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, createApp, type AppOptions } from "../../server/app";

/**
 * The Content-Security-Policy with and without GOOGLE_MAPS_API_KEY (issue 14 item 4): Google's
 * map hosts are allowed only when a key is configured; without one the policy is the app's own.
 */

/** The policy as it was before maps: a key that is not set must leave every byte of it. */
const WITHOUT_MAPS =
  "default-src 'self';script-src 'self' 'nonce-NONCE';style-src 'self' 'unsafe-inline';img-src 'self' data: blob:;font-src 'self' data:;" +
  "connect-src 'self';frame-src 'self' blob:;object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none'";

function policyOf(middleware: ReturnType<typeof contentSecurityPolicy>): string {
  const headers: Record<string, string> = {};
  const res = { locals: { cspNonce: "NONCE" }, setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = value), removeHeader: () => {} };
  middleware({} as Request, res as unknown as Response, () => {});
  return headers["content-security-policy"]!;
}

const directives = (policy: string) => Object.fromEntries(policy.split(";").map((d) => [d.split(" ")[0]!, d.split(" ").slice(1)]));

describe("CSP and Google Maps", () => {
  it("without a key the policy is unchanged", () => {
    expect(policyOf(contentSecurityPolicy())).toBe(WITHOUT_MAPS);
    expect(policyOf(contentSecurityPolicy({ googleMaps: false }))).toBe(WITHOUT_MAPS);
  });

  it("with a key Google's map scripts, data and images are allowed, and the nonce stays", () => {
    const d = directives(policyOf(contentSecurityPolicy({ googleMaps: true })));
    expect(d["script-src"]).toEqual(["'self'", "'nonce-NONCE'", "https://maps.googleapis.com", "https://maps.gstatic.com"]);
    expect(d["connect-src"]).toEqual(["'self'", "https://maps.googleapis.com", "https://maps.gstatic.com"]);
    // tiles from maps.googleapis.com, icons from maps.gstatic.com
    expect(d["img-src"]).toEqual(["'self'", "data:", "blob:", "https://*.googleapis.com", "https://*.gstatic.com"]);
    expect(d["font-src"]).toContain("https://fonts.gstatic.com");
    expect(d["style-src"]).toContain("https://fonts.googleapis.com");
  });

  it("with a key nothing else loosens: no eval, no other origin, same frames and forms", () => {
    const without = directives(WITHOUT_MAPS);
    const withKey = directives(policyOf(contentSecurityPolicy({ googleMaps: true })));
    expect(Object.keys(withKey)).toEqual(Object.keys(without));
    for (const name of ["default-src", "frame-src", "object-src", "base-uri", "form-action", "frame-ancestors"]) expect(withKey[name]).toEqual(without[name]);
    expect(Object.values(withKey).flat()).not.toContain("'unsafe-eval'");
    expect(Object.values(withKey).flat().filter((s) => s.startsWith("https:") && !/^https:\/\/([a-z*]+\.)?(googleapis|gstatic)\.com$/.test(s))).toEqual([]);
  });

  it("the server passes GOOGLE_MAPS_API_KEY to the policy", async () => {
    const served = async (googleMapsApiKey?: string) => {
      // the least of a build the middleware reads before a static file answers
      const entry = { MAX_UPLOAD_BYTES: 1024, FILE_TOO_LARGE: "too large", MAX_DECLARATION_BYTES: 1024, DECLARATION_MESSAGES: { tooLarge: "too large" }, SESSION_COOKIE: "session", SIGN_IN_LIMITED_HEADER: "x-limited", TOO_MANY_ATTEMPTS: "too many", SignInAttemptStore: class {} };
      const options = {
        build: { entry: { module: entry }, routes: {} } as unknown as ServerBuild,
        services: {} as AppOptions["services"],
        rateLimit: { limit: 10, windowMs: 60_000 },
        production: false,
        root: path.resolve(import.meta.dirname, "../.."),
        googleMapsApiKey,
      };
      const server = createApp(options).listen(0);
      try {
        await new Promise((resolve) => server.once("listening", resolve));
        const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/favicon.svg`);
        return res.headers.get("content-security-policy")!.replace(/'nonce-[^']+'/, "'nonce-NONCE'");
      } finally {
        server.close();
      }
    };
    expect(await served()).toBe(WITHOUT_MAPS);
    expect(await served("")).toBe(WITHOUT_MAPS);
    expect(await served("a-key")).toBe(policyOf(contentSecurityPolicy({ googleMaps: true })));
  });
});
