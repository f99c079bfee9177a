import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Component, createElement as h, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import type * as ServerApi from "react-router-dom/server";
import { describe, expect, it } from "vitest";

/**
 * Three patches that keep what a page's links resolve to (decision 047, addendum):
 * - patches/react-router: `useResolvedPath` keeps a route level's paths and the links resolved
 *   against them per matches array (one per route level and render), both builds alike;
 * - patches/react-router-dom: the static router's `encodeLocation` keeps each path's parts;
 * - patches/react: the production JSX runtime uses a config holding no key or ref as the props.
 * Whatever is kept, each link must resolve as the unpatched code does, for its own render.
 */
const require = createRequire(import.meta.url);
type Router = typeof import("react-router");
const umd = path.join(path.dirname(require.resolve("react-router")), "umd");
const builds: Array<[string, Router]> = [
  ["production", require(path.join(umd, "react-router.production.min.js")) as Router],
  ["development", require(path.join(umd, "react-router.development.js")) as Router],
];

const TOS: Array<string | { pathname: string; search: string }> = ["." as const, "..", "rates?tab=buy#top", "/home", "../../edit", { pathname: "edit", search: "?a=1" }];

/** Each `to` resolved by the route (and by the path), as the build's hook answers, twice over. */
function render(router: Router, location: string, at = "customers/:customerId/sites/:siteId"): Array<{ to: unknown; route: unknown; path: unknown; again: unknown }> {
  let seen: Array<{ to: unknown; route: unknown; path: unknown; again: unknown }> = [];
  function Probe(): ReactNode {
    const rows = TOS.map((to) => {
      const route = router.useResolvedPath(to);
      const again = router.useResolvedPath(to);
      // a caller may change what it was given: the next link of the same path must not see it
      again.hash = "#changed";
      return { to, route, path: router.useResolvedPath(to, { relative: "path" }), again };
    });
    seen = rows;
    return h("p", null, router.useHref("rates"));
  }
  const html = renderToString(
    h(
      router.Router,
      // a static location (no history to listen to): what the server renders with
      { location, navigator: { createHref: (to: unknown) => (typeof to === "string" ? to : router.createPath(to as Parameters<Router["createPath"]>[0])) } as never },
      h(router.Routes, null, h(router.Route, { path: "/", element: h(router.Outlet) }, h(router.Route, { path: at, element: h(Probe) }))),
    ),
  );
  expect(html).toBe(`<p>${at.endsWith("*") ? "/customers/7" : location.split("?")[0]}/rates</p>`);
  return seen;
}

describe.each(builds)("links resolved by React Router's %s build (patched)", (_name, router) => {
  it("is the patched build", () => {
    const file = path.join(umd, _name === "production" ? "react-router.production.min.js" : "react-router.development.js");
    expect(readFileSync(file, "utf8")).toContain("freightdesk patch: a route level's paths are made into JSON once");
  });

  it("resolves each link against its own render's route and location", () => {
    for (const [location, base] of [
      ["/customers/7/sites/3", "/customers/7/sites/3"],
      ["/customers/8/sites/4?x=1", "/customers/8/sites/4"],
      // again: answered from what was kept, alike
      ["/customers/7/sites/3", "/customers/7/sites/3"],
    ] as const) {
      const rows = render(router, location);
      const by = (to: unknown) => rows.find((r) => r.to === to)!;
      expect(by(".").route).toEqual({ pathname: base, search: "", hash: "" });
      // by the route, ".." is the parent route ("/"); by the path, one segment up
      expect(by("..").route).toEqual({ pathname: "/", search: "", hash: "" });
      expect(by("..").path).toEqual({ pathname: base.replace(/\/[^/]+$/, ""), search: "", hash: "" });
      expect(by("rates?tab=buy#top").route).toEqual({ pathname: `${base}/rates`, search: "?tab=buy", hash: "#top" });
      expect(by("/home").route).toEqual({ pathname: "/home", search: "", hash: "" });
      expect(by("../../edit").path).toEqual({ pathname: `${base.replace(/\/[^/]+\/[^/]+$/, "")}/edit`, search: "", hash: "" });
      expect(by(TOS[5]).route).toEqual({ pathname: `${base}/edit`, search: "?a=1", hash: "" });
      for (const row of rows) {
        // the same link asked twice answers alike, each caller with its own object
        expect(row.again).not.toBe(row.route);
        expect(row.route).not.toHaveProperty("hash", "#changed");
      }
    }
  });

  it("resolves the same link at the same location by the route it sits in", () => {
    // under a splat route the route's own path is /customers/7, whatever the location below it
    const rows = render(router, "/customers/7/sites/3", "customers/:customerId/*");
    expect(rows.find((r) => r.to === ".")!.route).toEqual({ pathname: "/customers/7", search: "", hash: "" });
    expect(rows.find((r) => r.to === "rates?tab=buy#top")!.route).toEqual({ pathname: "/customers/7/rates", search: "?tab=buy", hash: "#top" });
    expect(render(router, "/customers/7/sites/3").find((r) => r.to === ".")!.route).toEqual({ pathname: "/customers/7/sites/3", search: "", hash: "" });
  });

  it("still resolves each link once what was kept is dropped (every 5,000 looks)", () => {
    for (let i = 0; i < 400; i++) expect(render(router, `/customers/${i}/sites/3`).find((r) => r.to === ".")!.route).toEqual({ pathname: `/customers/${i}/sites/3`, search: "", hash: "" });
    expect(render(router, "/customers/7/sites/3").find((r) => r.to === "..")!.path).toEqual({ pathname: "/customers/7/sites", search: "", hash: "" });
  });
});

describe("the static router's encodeLocation (patched)", () => {
  const { createStaticHandler, createStaticRouter } = require("react-router-dom/server.js") as typeof ServerApi;

  it("answers a path's parts as a URL parses them, each caller with its own object", async () => {
    const handler = createStaticHandler([{ id: "root", path: "/" }]);
    const context = await handler.query(new Request("http://localhost/"));
    if (context instanceof Response) throw new Error("no context");
    const router = createStaticRouter(handler.dataRoutes, context);
    const first = router.encodeLocation!("/a b/c?x=1#h");
    expect(first).toEqual({ pathname: "/a%20b/c", search: "?x=1", hash: "#h" });
    first.pathname = "/changed";
    expect(router.encodeLocation!("/a b/c?x=1#h")).toEqual({ pathname: "/a%20b/c", search: "?x=1", hash: "#h" });
    // a trailing space is kept, encoded; an absolute URL is parsed as itself
    expect(router.encodeLocation!("/splat/end ").pathname).toBe("/splat/end%20");
    expect(router.encodeLocation!("https://example.com/x?y=1")).toEqual({ pathname: "/x", search: "?y=1", hash: "" });
    expect(router.encodeLocation!({ pathname: "/p", search: "?q=é" })).toEqual({ pathname: "/p", search: "?q=%C3%A9", hash: "" });
    // many distinct paths: still each its own answer once the kept ones are dropped
    for (let i = 0; i < 2_500; i++) expect(router.encodeLocation!(`/c/${i}`).pathname).toBe(`/c/${i}`);
    expect(router.encodeLocation!("/a b/c?x=1#h").pathname).toBe("/a%20b/c");
  });
});

describe("the production JSX runtime (patched)", () => {
  const runtime = require(path.join(path.dirname(require.resolve("react/package.json")), "cjs", "react-jsx-runtime.production.min.js")) as typeof import("react/jsx-runtime");

  it("takes a config without key or ref as the props, and leaves key and ref out of any other", () => {
    const config = { className: "a", children: "x" };
    const plain = runtime.jsx("div", config);
    expect(plain.props).toBe(config);
    expect(plain.key).toBeNull();
    expect(runtime.jsx("div", { className: "b" }, "k1").key).toBe("k1");
    const ref = { current: null };
    const keyed = runtime.jsx("input", { key: 5, ref, value: "v" });
    expect(keyed.key).toBe("5");
    expect((keyed as unknown as { ref: unknown }).ref).toBe(ref);
    expect(keyed.props).toEqual({ value: "v" });
    class Labelled extends Component<{ text?: string; tone?: string }> {
      static defaultProps = { tone: "quiet", text: "none" };
      render() {
        return h("span", { className: this.props.tone }, this.props.text);
      }
    }
    const defaulted = runtime.jsx(Labelled, { text: undefined });
    expect(defaulted.props).toEqual({ text: "none", tone: "quiet" });
    expect(renderToString(runtime.jsxs("ul", { children: [runtime.jsx("li", { children: "one" }, "1"), runtime.jsx(Labelled, { text: "two" }, "2")] }))).toBe(
      '<ul><li>one</li><span class="quiet">two</span></ul>',
    );
  });
});
