import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import { describe, expect, it } from "vitest";

/**
 * patches/@remix-run+router: the server's route matching keeps ranked branches, compiled paths and
 * each path's matches. Whatever is kept, every call must answer as the unpatched router does.
 */
const routes: AgnosticRouteObject[] = [
  {
    id: "root",
    path: "/",
    children: [
      { id: "consignment", path: "consignment/:id" },
      { id: "surcharges", path: "customers/:customerId/surcharges" },
      { id: "all", path: "*" },
    ],
  },
];

describe("route matching (patched)", () => {
  it("is the patched router the server loads", () => {
    const loaded = readFileSync(createRequire(import.meta.url).resolve("@remix-run/router"), "utf8");
    expect(loaded).toContain("const matchesMemo = new WeakMap();");
    expect(loaded).toContain("const rankedBranchesCache = new WeakMap();");
  });

  it("answers each path's own params, however often paths repeat", () => {
    for (let i = 0; i < 3; i++) {
      expect(matchRoutes(routes, "/consignment/12")!.at(-1)).toMatchObject({ params: { id: "12" }, pathname: "/consignment/12", route: { id: "consignment" } });
      expect(matchRoutes(routes, "/consignment/13")!.at(-1)!.params).toEqual({ id: "13" });
      expect(matchRoutes(routes, "/customers/7/surcharges")!.map((m) => m.route.id)).toEqual(["root", "surcharges"]);
      expect(matchRoutes(routes, "/nowhere/at/all")!.at(-1)).toMatchObject({ params: { "*": "nowhere/at/all" }, route: { id: "all" } });
    }
  });

  it("gives every caller its own matches: a caller changing its copy changes nobody else's", () => {
    // the first call computes, the later ones are answered from what was kept
    for (let i = 0; i < 3; i++) {
      const matches = matchRoutes(routes, "/consignment/40")!;
      expect(matches).toHaveLength(2);
      expect(matches[1]!.params).toEqual({ id: "40" });
      Object.assign(matches[1]!.params, { id: "changed" }); // typed read-only, but a plain object
      matches.pop();
    }
    const second = matchRoutes(routes, "/consignment/40")!;
    // one params object for the whole match, as unpatched
    expect(second[0]!.params).toBe(second[1]!.params);
  });

  it("keeps matches per route tree", () => {
    const other: AgnosticRouteObject[] = [{ id: "only", path: "/consignment/:ref" }];
    expect(matchRoutes(routes, "/consignment/5")!.at(-1)!.route.id).toBe("consignment");
    expect(matchRoutes(other, "/consignment/5")!.at(-1)).toMatchObject({ params: { ref: "5" }, route: { id: "only" } });
    expect(matchRoutes(other, "/elsewhere")).toBeNull();
    expect(matchRoutes(other, "/elsewhere")).toBeNull();
  });
});
