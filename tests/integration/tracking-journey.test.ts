import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs, localities, simulatedJourneys, trackingEvents } from "../../db/schema";
import type { Client, TestServer } from "../support/server";
import * as support from "../support/despatch";
import type { DespatchWorld, Json } from "../support/despatch";

/**
 * The simulated carrier's journey end to end (issue 14 item 2): the server's own worker runs the
 * despatch and then the delayed tracking fetches pg-boss holds, on the simulated clock sped up.
 */
let world: DespatchWorld;
let server: TestServer;
let despatcher: Client;

/** Waits (a guard, not an assertion on time) until the consignment reaches `state`. */
async function until(id: number, state: string, guardMs = 90_000) {
  const end = Date.now() + guardMs;
  for (;;) {
    const [row] = await support.rowsOf(world, [id]);
    if (row!.state === state) return row!;
    if (Date.now() > end) throw new Error(`consignment ${id} is still ${row!.state}, waiting for ${state}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function despatchSimex(): Promise<number> {
  const c = await support.createDespatchable(world, despatcher, "MEL", "SIMEX", "ONT");
  const res = await despatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids: [c.id] } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return c.id;
}

const eventsOf = (id: number) => server.db.select().from(trackingEvents).where(eq(trackingEvents.consignmentId, id)).orderBy(asc(trackingEvents.eventTime));

beforeAll(async () => {
  world = await support.startDespatchWorld({ work: true });
  server = world.server;
  despatcher = world.clients.despatcher;
}, 120_000);
afterAll(() => server.close());

describe("the simulated carrier's journey", () => {
  it("takes a despatched SIMEX consignment to delivered_with_pod through depots on the road, with a drawn proof of delivery", async () => {
    await support.simulate(world, { journey_minutes: 0.1, fail_delivery: false });
    const id = await despatchSimex();
    const delivered = await until(id, "delivered_with_pod");

    const events = await eventsOf(id);
    expect(events.map((e) => e.event)).toEqual(["picked_up", "in_transit", "in_transit", "in_transit", "on_board_for_delivery", "delivered_with_pod"]);
    expect(events.every((e) => e.source === "carrier")).toBe(true);
    expect(events[0]!.message).toBe("Picked up from Melbourne DC, DANDENONG SOUTH VIC");
    // depots are real localities between Dandenong South and Woolloongabba, named with their coordinates
    const depots = events.filter((e) => e.event === "in_transit");
    for (const d of depots) {
      const name = d.message!.match(/^In transit: arrived at (.+) (\w+) depot$/);
      expect(name, d.message!).toBeTruthy();
      const [place] = await server.db.select().from(localities).where(and(eq(localities.locality, name![1]!), eq(localities.region, name![2]!), eq(localities.latitude, d.latitude!)));
      expect(place, d.message!).toBeTruthy();
      expect(d.latitude!).toBeGreaterThan(-38.1);
      expect(d.latitude!).toBeLessThan(-27.4);
    }
    expect(depots.map((d) => d.latitude!)).toEqual([...depots.map((d) => d.latitude!)].sort((a, b) => a - b));
    // delivered at Woolloongabba, with the receiver's offset (Brisbane +10:00) giving the event's date
    const pod = events.at(-1)!;
    expect(pod.message).toBe("Delivered to Brisbane Hardware; signed for by Brisbane Hardware");
    expect(pod.podUrl).toBe(`/api/pod/${pod.id}`);
    expect(pod.eventDate).toBe(new Date(pod.eventTime.getTime() + 10 * 3_600_000).toISOString().slice(0, 10));

    const card = await despatcher.request(pod.podUrl!);
    expect(card.status).toBe(200);
    expect(card.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    const svg = await card.text();
    expect(svg).toContain("Delivered to Brisbane Hardware");
    expect(svg).toContain(`Consignment ${delivered.consignmentNumber}`);
    // another customer's user, or an event without a drawn POD: no such thing
    expect((await world.clients.tester.request(pod.podUrl!)).status).toBe(404);
    expect((await despatcher.request(`/api/pod/${events[0]!.id}`)).status).toBe(404);

    // the fetches were jobs, each complete: the one that recorded the delivery ends just after it
    // (its status is written when its run returns), so a loaded machine may see it still working
    const fetches = () => server.db.select().from(jobs).where(and(eq(jobs.name, "tracking.fetch"), sql`${jobs.payload}->'consignmentIds' @> ${JSON.stringify([id])}::jsonb`));
    expect((await fetches()).length).toBeGreaterThan(0);
    await expect.poll(async () => (await fetches()).map((j) => j.status).filter((s) => s !== "complete"), { timeout: 30_000 }).toEqual([]);
  });

  it("makes a failed delivery a real path: the attempt fails, it goes on board again, then is delivered", async () => {
    await support.simulate(world, { journey_minutes: 0.1, fail_delivery: true });
    const id = await despatchSimex();
    await until(id, "delivered_with_pod");
    const events = await eventsOf(id);
    expect(events.map((e) => e.event).slice(-4)).toEqual(["on_board_for_delivery", "failed_delivery", "on_board_for_delivery", "delivered_with_pod"]);
    expect(events.find((e) => e.event === "failed_delivery")!.message).toMatch(/^Delivery attempted: nobody available to sign/);
  });

  it("keeps a journey's fetches in the queue for when each event falls due, so a restart loses nothing", async () => {
    await support.simulate(world, { journey_minutes: 600, fail_delivery: false });
    const id = await despatchSimex();
    await until(id, "despatched");
    // the plan was made at despatch; the fetches wait in pg-boss (in the database) for their times
    const end = Date.now() + 30_000;
    let plan: (typeof simulatedJourneys.$inferSelect) | undefined;
    while (!plan && Date.now() < end) {
      [plan] = await server.db.select().from(simulatedJourneys).where(eq(simulatedJourneys.consignmentId, id));
      if (!plan) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(plan!.events.map((e) => e.event)).toEqual(["picked_up", "in_transit", "in_transit", "in_transit", "on_board_for_delivery", "delivered_with_pod"]);
    const raw = (await server.db.execute(sql`select start_after from pgboss.job where name = 'tracking.fetch' and state = 'created' and data->'consignmentIds' @> ${JSON.stringify([id])}::jsonb order by start_after`)) as unknown as
      | { rows?: { start_after: Date }[] }
      | { start_after: Date }[];
    const waiting = (Array.isArray(raw) ? raw : (raw.rows ?? [])).map((r) => new Date(r.start_after).getTime());
    const due = plan!.events.map((e) => new Date(e.event_time).getTime()).filter((t) => t > Date.now() + 5_000);
    expect(waiting.length).toBeGreaterThanOrEqual(due.length);
    expect(waiting.at(-1)).toBe(new Date(plan!.events.at(-1)!.event_time).getTime());
    // ten hours from despatch to delivery
    expect(waiting.at(-1)! - plan!.createdAt.getTime()).toBeGreaterThan(9.9 * 3_600_000);
    // nothing of it has happened yet
    const got = await server.db.select().from(trackingEvents).where(inArray(trackingEvents.consignmentId, [id]));
    expect(got).toEqual([]);
  });
});
