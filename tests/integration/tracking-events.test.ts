import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consignmentChanges, customers, trackingEvents, users } from "../../db/schema";
import { createUser } from "../../db/seed/factories";
import { Client, type TestServer } from "../support/server";
import * as support from "../support/despatch";
import type { DespatchWorld, Json } from "../support/despatch";

let world: DespatchWorld;
let server: TestServer;
let admin: Client;
let despatcher: Client;

/** A despatched Northline consignment (its carrier pushes events: no journey of its own). */
async function despatched(): Promise<{ id: number; number: string }> {
  const c = await support.createDespatchable(world, despatcher, "MEL", "NORTHLINE", "GEN");
  const res = await despatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids: [c.id] } });
  expect((await support.workJob(world, res.body.job_id)).status).toBe("complete");
  const [row] = await support.rowsOf(world, [c.id]);
  expect(row!.state).toBe("despatched");
  return { id: c.id, number: row!.consignmentNumber! };
}

const post = (client: Client, events: unknown[]) => client.json<Json>("/api/tracking_events", { json: { events } });
const stateOf = async (id: number) => (await support.rowsOf(world, [id]))[0]!;
const eventsOf = (id: number) => server.db.select().from(trackingEvents).where(eq(trackingEvents.consignmentId, id)).orderBy(asc(trackingEvents.eventTime), asc(trackingEvents.id));

/** A bearer-token client for a user made here. */
async function tokenClient(customerId: number, overrides: Parameters<typeof createUser>[2]): Promise<Client> {
  const token = `token-${Math.random().toString(36).slice(2)}-${Date.now()}`;
  await createUser(server.db, customerId, { ...overrides, authenticationToken: token });
  return new Client(server.url, token);
}

beforeAll(async () => {
  world = await support.startDespatchWorld();
  server = world.server;
  ({ admin, despatcher } = world.clients);
}, 120_000);
afterAll(() => server.close());

describe("POST /api/tracking_events", () => {
  it("applies a journey posted by staff: states move forward, history is written, every event is kept with its local date", async () => {
    const c = await despatched();
    const journey = [
      { consignment_number: c.number, event: "picked_up", event_time: "2026-05-04T09:10:00+10:00", carrier_event: "PCK", message: "Picked up from Melbourne DC", latitude: -38.0, longitude: 145.2 },
      { consignment_number: c.number, event: "in_transit", event_time: "2026-05-04T23:30:00+10:00", carrier_event: "ARR", message: "Arrived at ALBURY depot", latitude: -36.08, longitude: 146.91 },
      { consignment_number: c.number, event: "on_board_for_delivery", event_time: "2026-05-05T07:00:00+10:00", carrier_event: "OFD" },
    ];
    const res = await post(admin, journey);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.results.map((r: Json) => r.outcome)).toEqual(["applied", "applied", "applied"]);
    expect(res.body.results.map((r: Json) => r.state)).toEqual(Array(3).fill("on_board_for_delivery"));
    expect(res.body.counts).toMatchObject({ applied: 3, duplicate: 0, unknown_consignment: 0 });
    expect((await stateOf(c.id)).state).toBe("on_board_for_delivery");

    const stored = await eventsOf(c.id);
    expect(stored.map((e) => [e.event, e.carrierEvent, e.source])).toEqual([
      ["picked_up", "PCK", "api"],
      ["in_transit", "ARR", "api"],
      ["on_board_for_delivery", "OFD", "api"],
    ]);
    // 23:30 in Melbourne is still the 4th there (13:30 UTC)
    expect(stored[1]!.eventDate).toBe("2026-05-04");
    expect(stored[1]!.eventTime.toISOString()).toBe("2026-05-04T13:30:00.000Z");
    expect(stored[1]!.latitude).toBeCloseTo(-36.08);

    // one history row for the move the batch made, from despatched, by the poster
    const history = await server.db.select().from(consignmentChanges).where(and(eq(consignmentChanges.consignmentId, c.id), eq(consignmentChanges.field, "state")));
    const [adminRow] = await server.db.select({ id: users.id }).from(users).where(eq(users.email, "admin@example.com"));
    const tracked = history.filter((h) => h.fromValue === "despatched");
    expect(tracked.map((h) => [h.toValue, h.changedBy])).toEqual([["on_board_for_delivery", adminRow!.id]]);
  });

  it("ignores duplicates and never moves backwards: a late in_transit after delivered is stored, the state stays delivered", async () => {
    const c = await despatched();
    const delivered = { consignment_number: c.number, event: "delivered", event_time: "2026-05-05T11:00:00+10:00", carrier_event: "DLV" };
    expect((await post(admin, [delivered])).body.results[0].outcome).toBe("applied");
    const version = (await stateOf(c.id)).version;

    const again = await post(admin, [delivered, { ...delivered }]);
    expect(again.body.results.map((r: Json) => r.outcome)).toEqual(["duplicate", "duplicate"]);
    expect((await eventsOf(c.id)).length).toBe(1);
    expect((await stateOf(c.id)).version).toBe(version);

    const late = await post(admin, [{ consignment_number: c.number, event: "in_transit", event_time: "2026-05-05T12:00:00+10:00", carrier_event: "ARR" }]);
    expect(late.body.results[0]).toMatchObject({ outcome: "older_than_current_state", state: "delivered" });
    expect((await eventsOf(c.id)).map((e) => e.event)).toEqual(["delivered", "in_transit"]);
    expect((await stateOf(c.id)).state).toBe("delivered");
    expect((await stateOf(c.id)).version).toBe(version);

    // a redelivery's proof of delivery still moves it on
    const pod = await post(admin, [{ consignment_number: c.number, event: "delivered_with_pod", event_time: "2026-05-05T11:05:00+10:00", pod_url: "https://carrier.example/pod/1.png" }]);
    expect(pod.body.results[0]).toMatchObject({ outcome: "applied", state: "delivered_with_pod" });
    expect((await eventsOf(c.id)).find((e) => e.event === "delivered_with_pod")!.podUrl).toBe("https://carrier.example/pod/1.png");
  });

  it("reports unknown numbers and consignments not despatched per event, and applies the rest", async () => {
    const c = await despatched();
    const open = await support.createDespatchable(world, despatcher, "MEL", "NORTHLINE", "GEN");
    const numbered = await despatcher.json<Json>(`/api/consignments/${open.id}/allocate_without_printing`, { method: "PUT" });
    expect(numbered.status).toBe(200);
    const res = await post(admin, [
      { consignment_number: "NO-SUCH-NUMBER", event: "picked_up", event_time: "2026-05-04T09:00:00Z" },
      { consignment_number: c.number, event: "picked_up", event_time: "2026-05-04T09:00:00Z" },
      { consignment_number: numbered.body.consignment_number, event: "picked_up", event_time: "2026-05-04T09:00:00Z" },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: Json) => r.outcome)).toEqual(["unknown_consignment", "applied", "not_tracked"]);
    expect(res.body.results[0].state).toBeUndefined();
    expect(res.body.results[2].state).toBe("despatchable");
    expect((await stateOf(open.id)).state).toBe("despatchable");
    expect((await eventsOf(open.id)).length).toBe(1);
  });

  it("lets a customer's feed (can_post_tracking_events, by token) reach only its own customer's consignments", async () => {
    const c = await despatched();
    const acme = await stateOf(c.id);
    const [other] = await server.db.select({ id: customers.id }).from(customers).where(eq(customers.name, "Testing Pty Ltd"));
    const foreignFeed = await tokenClient(other!.id, { email: `feed-other-${Date.now()}@example.test`, canPostTrackingEvents: true });
    const event = { consignment_number: c.number, event: "picked_up", event_time: "2026-05-04T09:00:00Z" };
    const foreign = await post(foreignFeed, [event]);
    expect(foreign.status, JSON.stringify(foreign.body)).toBe(200);
    expect(foreign.body.results[0]).toEqual(expect.objectContaining({ outcome: "unknown_consignment" }));
    expect(foreign.body.results[0].state).toBeUndefined();
    expect((await eventsOf(c.id)).length).toBe(0);

    const ownFeed = await tokenClient(acme.customerId, { email: `feed-own-${Date.now()}@example.test`, canPostTrackingEvents: true });
    expect((await post(ownFeed, [event])).body.results[0]).toMatchObject({ outcome: "applied", state: "picked_up" });
  });

  it("refuses callers not allowed to post events: no session (401), a despatcher or a token without the permission (403)", async () => {
    const c = await despatched();
    const event = { consignment_number: c.number, event: "picked_up", event_time: "2026-05-04T09:00:00Z" };
    expect((await post(new Client(server.url), [event])).status).toBe(401);
    expect((await post(despatcher, [event])).status).toBe(403);
    const plain = await tokenClient((await stateOf(c.id)).customerId, { email: `plain-${Date.now()}@example.test` });
    expect((await post(plain, [event])).status).toBe(403);
    expect((await eventsOf(c.id)).length).toBe(0);
  });

  it("validates the batch: names the bad field, bounds the size, and changes nothing", async () => {
    const c = await despatched();
    const good = { consignment_number: c.number, event: "picked_up", event_time: "2026-05-04T09:00:00Z" };
    const cases: [unknown, string, RegExp][] = [
      [{ events: [good, { ...good, event: "teleported" }] }, "events.1.event", /event must be one of booked, picked_up/],
      [{ events: [{ ...good, event_time: "2026-05-04 09:00" }] }, "events.0.event_time", /ISO 8601/],
      [{ events: [{ ...good, event_time: "1999-12-31T23:00:00Z" }] }, "events.0.event_time", /between 2000 and 2100/],
      [{ events: [{ ...good, latitude: 95, longitude: 1 }] }, "events.0.latitude", /between -90 and 90/],
      [{ events: [{ ...good, latitude: -37 }] }, "events.0.latitude", /go together/],
      [{ events: [{ ...good, pod_url: "javascript:alert(1)" }] }, "events.0.pod_url", /http or https/],
      [{ events: [] }, "events", /at least one/],
      [{ events: "all of them" }, "events", /list of tracking events/],
      [{ events: Array.from({ length: 1001 }, (_, i) => ({ ...good, carrier_event: `E${i}` })) }, "events", /At most 1000/],
    ];
    for (const [body, field, message] of cases) {
      const res = await admin.json<Json>("/api/tracking_events", { json: body });
      expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(422);
      expect(res.body.errors[field]?.[0], JSON.stringify(res.body.errors)).toMatch(message);
    }
    const notJson = await admin.request("/api/tracking_events", { method: "POST", headers: { "content-type": "application/json" } });
    expect(notJson.status).toBe(400);
    expect((await admin.request("/api/tracking_events")).status).toBe(405);
    expect((await eventsOf(c.id)).length).toBe(0);
  });
});

describe("GET /api/track_trace/{id}", () => {
  it("answers the events newest first and the metadata the screen and its map read", async () => {
    const c = await despatched();
    await post(admin, [
      { consignment_number: c.number, event: "picked_up", event_time: "2026-05-04T09:10:00+10:00", carrier_event: "PCK", message: "Picked up", latitude: -38.0, longitude: 145.2 },
      { consignment_number: c.number, event: "delivered_with_pod", event_time: "2026-05-05T11:00:00+10:00", carrier_event: "POD", pod_url: "https://carrier.example/pod/9.png", images: ["https://carrier.example/photo/9.jpg"] },
      { consignment_number: c.number, event: "in_transit", event_time: "2026-05-04T23:30:00+10:00", carrier_event: "ARR", message: "Arrived at ALBURY depot" },
    ]);
    const res = await despatcher.json<Json>(`/api/track_trace/${c.id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.events.map((e: Json) => e.event)).toEqual(["delivered_with_pod", "in_transit", "picked_up"]);
    expect(res.body.events[1]).toEqual({
      id: expect.any(Number),
      event: "in_transit",
      carrier_event: "ARR",
      event_time: "2026-05-04T13:30:00.000Z",
      event_date: "2026-05-04",
      message: "Arrived at ALBURY depot",
      latitude: null,
      longitude: null,
      images: [],
      pod_url: null,
      source: "api",
    });
    expect(res.body.events[0].images).toEqual(["https://carrier.example/photo/9.jpg"]);
    const m = res.body.metadata;
    expect(m).toMatchObject({
      consignment_id: c.id,
      consignment_number: c.number,
      consignment_state: "delivered_with_pod",
      carrier_name: "Northline",
      carrier_code: "NORTHLINE",
      web_url: `https://www.northline.com.au/?id=${c.number}`,
      pod_url: "https://carrier.example/pod/9.png",
    });
    expect(m.sender_address).toMatchObject({ name: "Melbourne DC", locality: "DANDENONG SOUTH" });
    expect(m.receiver_address).toMatchObject({ name: "Brisbane Hardware", locality: "WOOLLOONGABBA", postcode: "4102" });
    // the map's ends, from the locality data
    expect(m.sender_address.latitude).toBeCloseTo(-38.0, 0);
    expect(m.receiver_address.latitude).toBeCloseTo(-27.5, 0);
    expect(m.receiver_address.longitude).toBeCloseTo(153.0, 0);
  });

  it("answers 404 for a consignment the user may not see or that does not exist, never its events", async () => {
    const c = await despatched();
    await post(admin, [{ consignment_number: c.number, event: "picked_up", event_time: "2026-05-04T09:10:00+10:00" }]);
    const foreign = await world.clients.tester.json<Json>(`/api/track_trace/${c.id}`);
    expect(foreign.status).toBe(404);
    expect(JSON.stringify(foreign.body)).not.toContain(c.number);
    expect((await despatcher.json<Json>("/api/track_trace/2147483000")).status).toBe(404);
    expect((await despatcher.json<Json>("/api/track_trace/99999999999")).status).toBe(404);
    expect((await despatcher.json<Json>("/api/track_trace/abc")).status).toBe(422);
    expect((await new Client(server.url).json<Json>(`/api/track_trace/${c.id}`)).status).toBe(401);
  });
});
