import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../db/seed/demo";
import { Client, startTestServer, type TestServer } from "../support/server";

let server: TestServer;
let demo: Awaited<ReturnType<typeof seedDemo>>;

beforeAll(async () => {
  server = await startTestServer();
  demo = await seedDemo(server.db);
});
afterAll(() => server.close());

async function as(email: string) {
  const c = new Client(server.url);
  await c.signIn(email);
  return c;
}

type SetJson = { id: number; code: string; carrier_code: string; dg_surcharge: unknown; return_surcharge: { surcharge: number; is_percentage: boolean } | null; oversized_surcharges: Array<{ level: number }>; remote_surcharges: Array<{ tier: number }> };

describe("surcharge sets (POST /api/customers/{id}/surcharges...)", () => {
  it("creates, finds, updates by code and deletes a customer's sets", async () => {
    const admin = await as("admin@example.com");
    const base = `/api/customers/${demo.acme.id}/surcharges`;
    const created = await admin.json<{ surcharge_sets: SetJson[] }>(base, {
      json: {
        surcharge_sets: [
          {
            name: "Road",
            code: "ROAD1",
            carrier_code: "northline",
            dg_surcharge: { surcharge: 35, is_percentage: false, add_fuel_levy: true },
            return_surcharge: { surcharge: 6 },
            oversized_surcharges: [
              { level: 2, from_m: 2.4, surcharge: 55 },
              { level: 1, from_m: 1.5, to_m: 2.4, surcharge: 20 },
            ],
            remote_surcharges: [{ tier: 3, surcharge: 10, is_percentage: true }],
          },
        ],
      },
    });
    expect(created.status).toBe(200);
    const set = created.body.surcharge_sets[0]!;
    expect(set).toMatchObject({ code: "ROAD1", carrier_code: "NORTHLINE", return_surcharge: { surcharge: 6, is_percentage: false } });
    expect(set.oversized_surcharges.map((o) => o.level)).toEqual([1, 2]); // listed by level

    const found = await admin.json<{ surcharge_sets: SetJson[] }>(`${base}/search`, { json: { carrier_code: "NORTHLINE" } });
    expect(found.body.surcharge_sets.map((s) => s.code)).toEqual(["ROAD1"]);
    const again = await admin.json<{ surcharge_sets: SetJson[] }>(base, { json: { name: "Road", code: "road1", carrier_code: "NORTHLINE", dg_surcharge: null } });
    expect(again.body.surcharge_sets[0]!.id).toBe(set.id); // same code: an update
    expect(again.body.surcharge_sets[0]!.dg_surcharge).toBeNull();

    const deleted = await admin.json<{ deleted: number[] }>(`${base}/delete`, { json: { ids: [set.id] } });
    expect(deleted.body.deleted).toEqual([set.id]);
  });

  it("reports bad input per field and saves nothing", async () => {
    const admin = await as("admin@example.com");
    const base = `/api/customers/${demo.acme.id}/surcharges`;
    const bad = await admin.json<{ errors: Record<string, string[]> }>(base, {
      json: { surcharge_sets: [{ name: "", code: "X", carrier_code: "NORTHLINE", remote_surcharges: [{ tier: 9, surcharge: -1 }], oversized_surcharges: [{ level: 1, surcharge: 5 }] }] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors["surcharge_sets.0.name"]).toEqual(["Name is required"]);
    expect(bad.body.errors["surcharge_sets.0.remote_surcharges.0.tier"]).toEqual(["Tier must be 1 to 4"]);
    expect(bad.body.errors["surcharge_sets.0.remote_surcharges.0.surcharge"]).toEqual(["Must be 0 or more"]);
    expect(bad.body.errors["surcharge_sets.0.oversized_surcharges.0"]).toEqual(["Each oversize level needs from_m or from_kg"]);
    const unknown = await admin.json<{ errors: Record<string, string[]> }>(base, { json: { name: "N", code: "N", carrier_code: "NOPE" } });
    expect(unknown.body.errors["surcharge_sets.0.carrier_code"]).toEqual(["Unknown carrier NOPE"]);
    const found = await admin.json<{ surcharge_sets: SetJson[] }>(`${base}/search`, { json: {} });
    expect(found.body.surcharge_sets.map((s) => s.code)).not.toContain("X");
  });

  it("is for staff; an unknown customer is not found", async () => {
    const d = await as("despatcher@example.com");
    expect((await d.json(`/api/customers/${demo.acme.id}/surcharges/search`, { json: {} })).status).toBe(403);
    const admin = await as("admin@example.com");
    expect((await admin.json(`/api/customers/999999/surcharges/search`, { json: {} })).status).toBe(404);
  });
});

describe("site services (/api/customers/{id}/site_services)", () => {
  type Row = { id: number; site_code: string; carrier_code: string; service_code: string; rate_code: string; markup: number; surcharges_markup: number; enabled: boolean; provider_account: string | null };

  it("lists a customer's site services by site and saves changes", async () => {
    const admin = await as("admin@example.com");
    const base = `/api/customers/${demo.acme.id}/site_services`;
    const list = await admin.json<{ site_services: Row[] }>(`${base}?site_codes=MEL`);
    expect(list.body.site_services).toHaveLength(6);
    expect(list.body.site_services.every((r) => r.site_code === "MEL" && r.provider_account)).toBe(true);
    const saved = await admin.json<{ saved: number[] }>(base, {
      json: { site_services: [{ site_code: "MEL", carrier_code: "NORTHLINE", service_code: "GEN", rate_code: "SPECIAL", markup: 22.5, surcharges_markup: 5, enabled: false }] },
    });
    expect(saved.status).toBe(200);
    const after = await admin.json<{ site_services: Row[] }>(`${base}/search`, { json: { site_codes: ["MEL"], service_codes: ["GEN"] } });
    expect(after.body.site_services).toEqual([expect.objectContaining({ rate_code: "SPECIAL", markup: 22.5, surcharges_markup: 5, enabled: false })]);
    expect(after.body.site_services[0]!.id).toBe(saved.body.saved[0]); // updated in place
  });

  it("lets customer service look but not change, and keeps to the customer's sites", async () => {
    const cs = await as("customerservice@example.com");
    const base = `/api/customers/${demo.acme.id}/site_services`;
    expect((await cs.json(base)).status).toBe(200);
    const refused = await cs.json<{ errors: { base: string[] } }>(base, { json: { site_code: "MEL", carrier_code: "NORTHLINE", service_code: "GEN" } });
    expect(refused.status).toBe(403);
    expect(refused.body.errors.base[0]).toBe("Sorry Casey, You are not authorised to do that. Please contact tech support if you think you should have access.");
    const admin = await as("admin@example.com");
    const otherSite = await admin.json<{ errors: Record<string, string[]> }>(`/api/customers/${demo.testCustomer.id}/site_services`, {
      json: { site_code: "MEL", carrier_code: "NORTHLINE", service_code: "GEN" },
    });
    expect(otherSite.body.errors["site_services.0.site_code"]).toEqual(["Unknown site MEL"]);
  });
});
