import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { localities, rateLanes, zones } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { createCarrier, createService, createSiteService } from "../../db/seed/factories";
import { MEL_TO_BNE, MEL_TO_BNE_LOCALITIES } from "../support/rating";
import { Client, startTestServer, type TestServer } from "../support/server";

/**
 * The service flags kept on the service editor (issue 17 item 2) as the rating engine honours them,
 * through a rate request: a dangerous-goods-prohibited service never rates a DG consignment, return
 * eligibility filters returns and outbound eligibility filters the rest, "No Rates Provided" is POA.
 * The flags are changed through /api/carriers/{id}/services/{id}, so the rating cache must follow.
 */
let server: TestServer;
let demo: Awaited<ReturnType<typeof seedDemo>>;
let carrierId: number;
const ids: Record<string, number> = {};
let admin: Client;
let finance: Client;

beforeAll(async () => {
  // a despatch date may not be in the past: the app (in this process) reads this clock
  vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-22T22:00:00Z"), shouldAdvanceTime: true });
  server = await startTestServer();
  demo = await seedDemo(server.db);
  const db = server.db;
  await db.insert(localities).values([...MEL_TO_BNE_LOCALITIES]);
  const carrier = await createCarrier(db, { code: "FLAGCO", name: "Flag Freight" });
  carrierId = carrier.id;
  await db.insert(zones).values([
    { carrierId, postcode: "3175", code: "MEL" },
    { carrierId, postcode: "4102", code: "BNE" },
  ]);
  for (const code of ["PLAIN", "NODG", "OUTONLY", "RETONLY"]) {
    const s = await createService(db, carrierId, {
      code,
      name: code,
      dangerousGoodsProhibited: code === "NODG",
      eligibleForReturns: code !== "OUTONLY",
      eligibleForOutbounds: code !== "RETONLY",
    });
    ids[code] = s.id;
    await createSiteService(db, demo.sites.melbourne.id, s.id, { rateCode: "R1" });
    await db.insert(rateLanes).values({ carrierId, serviceId: s.id, rateCode: "R1", fromZone: "MEL", toZone: "BNE", basic: "10", perKg: "0.5", minimum: "15", perItem: "0", transitDays: 2, cubicFactor: "250", effectiveFrom: "2026-01-01" });
  }
  admin = new Client(server.url);
  await admin.signIn("admin@example.com");
  finance = new Client(server.url);
  await finance.signIn("finance@example.com");
}, 120_000);
afterAll(async () => {
  await server?.close();
  vi.useRealTimers();
});

type Rate = { code: string; service_code: string; is_poa: boolean; total: number | null };
const item = { quantity: 1, item_type: "Carton", length: 40, width: 30, height: 20, weight_in_uom: 10 };
async function rated(over: Record<string, unknown> = {}) {
  const { status, body } = await finance.json<{ carriers: Rate[] }>("/api/carrier_selection", { json: { despatch_date: "2026-11-23", ...MEL_TO_BNE, items: [item], ...over } });
  expect(status, JSON.stringify(body)).toBe(200);
  return body.carriers.filter((r) => r.code === "FLAGCO");
}
const codes = (rates: Rate[]) => rates.map((r) => r.service_code).sort();

describe("the rating engine honours the service flags", () => {
  it("never rates a dangerous goods consignment with a DG-prohibited service, and rates it otherwise", async () => {
    expect(codes(await rated())).toEqual(["NODG", "OUTONLY", "PLAIN"]);
    expect(codes(await rated({ items: [{ ...item, dangerous_goods: true }] }))).toEqual(["OUTONLY", "PLAIN"]);
    // turned off on the service: the DG consignment rates with it again
    const put = await admin.json(`/api/carriers/${carrierId}/services/${ids.NODG}`, { method: "PUT", json: { dangerous_goods_prohibited: false } });
    expect(put.status).toBe(200);
    expect(codes(await rated({ items: [{ ...item, dangerous_goods: true }] }))).toEqual(["NODG", "OUTONLY", "PLAIN"]);
    await admin.json(`/api/carriers/${carrierId}/services/${ids.NODG}`, { method: "PUT", json: { dangerous_goods_prohibited: true } });
  });

  it("rates a return only with services eligible for returns, an outbound only with those eligible for outbounds", async () => {
    expect(codes(await rated({ return_type: "return" }))).toEqual(["NODG", "PLAIN", "RETONLY"]);
    const put = await admin.json(`/api/carriers/${carrierId}/services/${ids.PLAIN}`, { method: "PUT", json: { eligible_for_returns: false } });
    expect(put.status).toBe(200);
    expect(codes(await rated({ return_type: "return" }))).toEqual(["NODG", "RETONLY"]);
    expect(codes(await rated())).toEqual(["NODG", "OUTONLY", "PLAIN"]);
    await admin.json(`/api/carriers/${carrierId}/services/${ids.PLAIN}`, { method: "PUT", json: { eligible_for_returns: true } });
  });

  it("offers a 'No Rates Provided' service without a price, for every service after update_services", async () => {
    const priced = await rated();
    expect(priced.every((r) => !r.is_poa && typeof r.total === "number")).toBe(true);
    expect((await admin.json(`/api/carriers/${carrierId}/update_services`, { method: "PUT", json: { pay_on_arrival: true } })).status).toBe(200);
    const poa = await rated();
    expect(codes(poa)).toEqual(["NODG", "OUTONLY", "PLAIN"]);
    expect(poa.every((r) => r.is_poa && r.total === null)).toBe(true);
    await admin.json(`/api/carriers/${carrierId}/update_services`, { method: "PUT", json: { pay_on_arrival: false } });
  });
});
