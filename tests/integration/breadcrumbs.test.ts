import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../db/seed/demo";
import { createCarrier, createCarrierAccount, createCustomer, createService, createSite, createUser } from "../../db/seed/factories";
import { Client, startTestServer, type TestServer } from "../support/server";

/**
 * Breadcrumbs (issue 15 item 7; GET /api/breadcrumbs with model, id, parent and parent_id): the
 * trail to a record or screen under a customer or carrier, for staff, and on the screens there.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

let server: TestServer;
let admin: Client;
let world: {
  customer: { id: number };
  site: { id: number };
  other: { id: number };
  account: { id: number; accountNumber: string };
  carrier: { id: number };
  service: { id: number };
  user: { id: number };
};

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  const customer = await createCustomer(server.db, { code: "CRUMB", name: "Crumb Co" });
  const site = await createSite(server.db, customer.id, { name: "Crumb Melbourne" });
  const other = await createCustomer(server.db, { code: "CRUMB2", name: "Other Co" });
  const carrier = await createCarrier(server.db, { name: "Crumb Freight" });
  const service = await createService(server.db, carrier.id, { name: "Overnight" });
  const account = await createCarrierAccount(server.db, site.id, carrier.id);
  const user = await createUser(server.db, customer.id, { email: "crumb-user@example.com", fullName: "Casey Crumb" });
  world = { customer, site, other, account, carrier, service, user };
  admin = new Client(server.url);
  expect((await admin.signIn("admin@example.com")).status).toBe(200);
}, 120_000);
afterAll(() => server?.close());

const crumbs = async (query: Record<string, string | number>, client = admin) => {
  const res = await client.json<Json>(`/api/breadcrumbs?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`);
  return { status: res.status, body: res.body };
};

describe("GET /api/breadcrumbs", () => {
  it("answers the trail to a record under a customer, down to an account", async () => {
    const { customer, site, account } = world;
    expect((await crumbs({ model: "customer", id: customer.id })).body.breadcrumbs).toEqual([
      { label: "Customers", url: "/index_customers" },
      { label: "Crumb Co", url: `/customers/${customer.id}` },
    ]);
    const toSite = [
      { label: "Customers", url: "/index_customers" },
      { label: "Crumb Co", url: `/customers/${customer.id}` },
      { label: "Sites", url: `/customers/${customer.id}/index_sites` },
      { label: "Crumb Melbourne", url: `/customers/${customer.id}/sites/${site.id}` },
    ];
    expect((await crumbs({ model: "site", id: site.id, parent: "customer", parent_id: customer.id })).body.breadcrumbs).toEqual(toSite);
    // the parent may be left out: the record knows its own
    expect((await crumbs({ model: "site", id: site.id })).body.breadcrumbs).toEqual(toSite);
    expect((await crumbs({ model: "account", id: account.id, parent: "site", parent_id: site.id })).body.breadcrumbs).toEqual([
      ...toSite,
      { label: `Crumb Freight ${account.accountNumber}`, url: `/customers/${customer.id}/sites/${site.id}/accounts/${account.id}` },
    ]);
    expect((await crumbs({ model: "user", id: world.user.id })).body.breadcrumbs.slice(-2)).toEqual([
      { label: "Users", url: `/customers/${customer.id}/index_users` },
      { label: "Casey Crumb", url: `/customers/${customer.id}/users/${world.user.id}` },
    ]);
  });

  it("answers a list under its parent, and a screen under a customer, site or account", async () => {
    const { customer, site, account } = world;
    expect((await crumbs({ model: "site", parent: "customer", parent_id: customer.id })).body.breadcrumbs.at(-1)).toEqual({ label: "Sites", url: `/customers/${customer.id}/index_sites` });
    expect((await crumbs({ model: "customer" })).body.breadcrumbs).toEqual([{ label: "Customers", url: "/index_customers" }]);
    expect((await crumbs({ model: "surcharges", parent: "customer", parent_id: customer.id })).body.breadcrumbs.at(-1)).toEqual({ label: "Surcharges", url: `/customers/${customer.id}/surcharges` });
    const atAccount = (await crumbs({ model: "notification_configs", parent: "account", parent_id: account.id })).body.breadcrumbs;
    expect(atAccount.map((c: Json) => c.label)).toEqual(["Customers", "Crumb Co", "Sites", "Crumb Melbourne", expect.stringContaining("Crumb Freight"), "Notification Preferences"]);
    expect(atAccount.at(-1).url).toBe(`/customers/${customer.id}/sites/${site.id}/accounts/${account.id}/notification_configs`);
  });

  it("answers the trail under a carrier", async () => {
    const { carrier, service } = world;
    expect((await crumbs({ model: "service", id: service.id, parent: "carrier", parent_id: carrier.id })).body.breadcrumbs).toEqual([
      { label: "Carriers", url: "/carriers" },
      { label: "Crumb Freight", url: `/carrier/${carrier.id}` },
      { label: "Services", url: `/carriers/${carrier.id}/services` },
      { label: "Overnight", url: `/carriers/${carrier.id}/service/${service.id}` },
    ]);
  });

  it("answers 404 for an id that is not there or a record named under another parent", async () => {
    const { customer, site, other } = world;
    expect((await crumbs({ model: "site", id: 2_000_000_000 })).status).toBe(404);
    expect((await crumbs({ model: "site", id: site.id, parent: "customer", parent_id: other.id })).status).toBe(404);
    expect((await crumbs({ model: "surcharges", parent: "customer", parent_id: 2_000_000_000 })).status).toBe(404);
    expect((await crumbs({ model: "site", id: customer.id + 999_999 })).status).toBe(404);
  });

  it("answers 422 for a model, parent or id it does not know", async () => {
    for (const query of [{ model: "consignment", id: 1 }, { model: "site", id: "x" }, { model: "site", id: world.site.id, parent: "carrier", parent_id: world.carrier.id }, { model: "surcharges" }, {}]) {
      const res = await crumbs(query as Record<string, string | number>);
      expect(res.status, JSON.stringify(query)).toBe(422);
      expect(res.body.errors).toBeDefined();
    }
  });

  it("is for staff: a despatcher is refused (403), no session 401", async () => {
    const despatcher = new Client(server.url);
    expect((await despatcher.signIn("despatcher@example.com")).status).toBe(200);
    expect((await crumbs({ model: "customer", id: world.customer.id }, despatcher)).status).toBe(403);
    expect((await crumbs({ model: "customer", id: world.customer.id }, new Client(server.url))).status).toBe(401);
  });
});

describe("the screens under a customer", () => {
  it("render the trail on the server, the page itself last and not a link", async () => {
    const { customer } = world;
    for (const [screen, label] of [
      ["surcharges", "Surcharges"],
      ["site_services", "Carriers &amp; Services"],
    ] as const) {
      const html = await (await admin.request(`/customers/${customer.id}/${screen}`)).text();
      const nav = html.slice(html.indexOf('aria-label="Breadcrumb"'), html.indexOf("</nav>", html.indexOf('aria-label="Breadcrumb"')));
      expect(nav).toContain('href="/index_customers"');
      expect(nav).toContain(`href="/customers/${customer.id}"`);
      expect(nav).toContain(`<span aria-current="page">${label}</span>`);
    }
    expect((await admin.request("/customers/2000000000/surcharges")).status).toBe(404);
  });
});
