import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import type { RouteObject } from "react-router-dom";
import type * as ServerApi from "react-router-dom/server";
import { describe, expect, it } from "vitest";

/**
 * patches/@remix-run+react and patches/react-router-dom (docs/decisions/043): a server renders every
 * request with one route tree, kept per build and per routes array. What a render shows must still
 * be its own request's: its path, params and data, never the previous render's.
 */
const require = createRequire(import.meta.url);
// the CommonJS builds, as the server loads them (the ES builds are not patched); hooks from the same copy
const { Outlet, useLoaderData, useParams } = require("react-router-dom") as typeof import("react-router-dom");
const { createStaticHandler, createStaticRouter, StaticRouterProvider } = require("react-router-dom/server.js") as typeof ServerApi;

function Consignment() {
  const data = useLoaderData() as { number: string };
  return createElement("p", null, `consignment ${useParams().id} is ${data.number}`);
}

const routes: RouteObject[] = [
  {
    id: "root",
    path: "/",
    element: createElement("main", null, createElement(Outlet)),
    children: [
      { id: "consignment", path: "consignment/:id", loader: ({ params }) => ({ number: `FD${params.id}` }), element: createElement(Consignment) },
      { id: "home", path: "home", element: createElement("p", null, "home") },
    ],
  },
];

async function render(handler: ReturnType<typeof createStaticHandler>, path: string) {
  const context = await handler.query(new Request(`http://localhost${path}`));
  if (context instanceof Response) throw new Error(`${path} answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return { router, html: renderToString(createElement(StaticRouterProvider, { router, context, hydrate: false })) };
}

describe("one route tree per build (patched)", () => {
  it("is the patched Remix and React Router the server loads", () => {
    expect(readFileSync(require.resolve("@remix-run/react/dist/server.js"), "utf8")).toContain("const serverRoutesCache = new WeakMap();");
    expect(readFileSync(require.resolve("react-router-dom/server.js"), "utf8")).toContain("const dataRoutesCache = new WeakMap();");
  });

  it("converts a routes array once, and each render still shows its own request", async () => {
    const handler = createStaticHandler(routes);
    const first = await render(handler, "/consignment/12");
    const second = await render(handler, "/consignment/13");
    const third = await render(handler, "/home");
    // the same data routes for every render of one routes array
    expect(second.router.routes).toBe(first.router.routes);
    expect(third.router.routes).toBe(first.router.routes);
    expect(first.html).toContain("consignment 12 is FD12");
    expect(second.html).toContain("consignment 13 is FD13");
    expect(second.html).not.toContain("FD12");
    expect(third.html).toContain("<p>home</p>");
    expect(third.html).not.toContain("consignment");
    expect(second.router.state.location.pathname).toBe("/consignment/13");
  });

  it("keeps a routes array's data routes apart from another's", async () => {
    const other = createStaticHandler([{ id: "root", path: "/", element: createElement("p", null, "other tree") }]);
    const mine = await render(createStaticHandler(routes), "/home");
    const theirs = await render(other, "/");
    expect(theirs.router.routes).not.toBe(mine.router.routes);
    expect(theirs.html).toContain("other tree");
  });
});
