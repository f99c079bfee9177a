import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

// the module the patch changes (patches/@remix-run+server-runtime), not part of the package's API
const { callRouteAction, callRouteLoader } = createRequire(import.meta.url)("@remix-run/server-runtime/dist/data.js") as {
  callRouteAction(args: object): Promise<unknown>;
  callRouteLoader(args: object): Promise<unknown>;
};

/**
 * patches/@remix-run+server-runtime: a loader or action is given the request itself when Remix has
 * no search parameter of its own to strip, and a copy without them when it has.
 */
const seen = (call: typeof callRouteAction, request: Request) =>
  call({ loadContext: {}, params: {}, routeId: "routes/x", singleFetch: true, request, action: ({ request: r }: { request: Request }) => r, loader: ({ request: r }: { request: Request }) => r }) as Promise<Request>;

describe("loader and action requests (patched)", () => {
  it("are the request itself when nothing is stripped, body and all", async () => {
    const request = new Request("http://localhost/api/carrier_selection?site=MEL", { method: "POST", body: JSON.stringify({ a: 1 }), headers: { "content-type": "application/json" } });
    const given = await seen(callRouteAction, request);
    expect(given).toBe(request);
    expect(await given.json()).toEqual({ a: 1 });
    const get = new Request("http://localhost/consignments?page=2");
    expect(await seen(callRouteLoader, get)).toBe(get);
  });

  it("lose Remix's own parameters (an empty index, _routes), keep the rest, body and all", async () => {
    const request = new Request("http://localhost/customers?index&_routes=routes%2Fcustomers&page=2&index=kept", { method: "POST", body: "name=Acme", headers: { "content-type": "application/x-www-form-urlencoded" } });
    const given = await seen(callRouteAction, request);
    expect(given).not.toBe(request);
    expect(given.url).toBe("http://localhost/customers?page=2&index=kept");
    expect(given.method).toBe("POST");
    expect(given.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(await given.text()).toBe("name=Acme");
  });
});
