import { count, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consignmentChanges, simulatedJourneys, trackingEvents } from "../../db/schema";
import { runJob } from "../../queues/queue.server";
import type { Client, TestServer } from "../support/server";
import * as support from "../support/despatch";
import type { DespatchWorld, Json } from "../support/despatch";

/** Tracking replay (issue 14 item 8): asked again, carriers' events are recorded once. */
let world: DespatchWorld;
let server: TestServer;
let admin: Client;
let despatcher: Client;

/** Despatches one consignment, playing the worker; `withQueue: false` as a worker without a queue would (no journey started). */
async function despatch(carrier: "SIMEX" | "NORTHLINE", options: { withQueue?: boolean } = {}): Promise<{ id: number; number: string }> {
  const c = await support.createDespatchable(world, despatcher, "MEL", carrier, carrier === "SIMEX" ? "ONT" : "GEN");
  const res = await despatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids: [c.id] } });
  const job = await support.queuedJob(world, res.body.job_id);
  await runJob(options.withQueue === false ? { ...world.deps, queue: undefined } : world.deps, job.name, job.data);
  const [row] = await support.rowsOf(world, [c.id]);
  expect(row!.state).toBe("despatched");
  return { id: c.id, number: row!.consignmentNumber! };
}

/** Waits (a guard, not an assertion) until the journey planned for `id` is over. */
async function afterJourney(id: number) {
  const [plan] = await server.db.select().from(simulatedJourneys).where(eq(simulatedJourneys.consignmentId, id));
  const end = plan ? new Date(plan.events.at(-1)!.event_time).getTime() : Date.now() + 2000;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, end - Date.now() + 50)));
}

const replay = (client: Client, body: unknown) => client.json<Json>("/api/replay_tracking_events_by_consignment_numbers", { json: body });

/** What replay must leave alone: the events, the consignments' versions and their history. */
async function snapshot(ids: number[]) {
  const [events] = await server.db.select({ n: count() }).from(trackingEvents).where(inArray(trackingEvents.consignmentId, ids));
  const [history] = await server.db.select({ n: count() }).from(consignmentChanges).where(inArray(consignmentChanges.consignmentId, ids));
  const rows = await support.rowsOf(world, ids);
  return { events: events!.n, history: history!.n, states: rows.map((r) => `${r.id}:${r.state}:${r.version}`) };
}

beforeAll(async () => {
  world = await support.startDespatchWorld();
  server = world.server;
  ({ admin, despatcher } = world.clients);
  await support.simulate(world, { journey_minutes: 0.02, fail_delivery: false });
}, 120_000);
afterAll(() => server.close());

describe("tracking replay", () => {
  it("fetches what was missed once, and a second replay changes nothing (no event, move or history twice)", async () => {
    const simex = await despatch("SIMEX");
    // a consignment whose journey never started (a worker without a queue): replay starts it
    const orphan = await despatch("SIMEX", { withQueue: false });
    expect(await server.db.select().from(simulatedJourneys).where(eq(simulatedJourneys.consignmentId, orphan.id))).toEqual([]);
    const pushed = await despatch("NORTHLINE");
    const posted = await admin.json<Json>("/api/tracking_events", { json: { events: [{ consignment_number: pushed.number, event: "picked_up", event_time: "2026-05-04T09:00:00+10:00" }] } });
    expect(posted.body.results[0].outcome).toBe("applied");
    await afterJourney(simex.id);
    await new Promise((resolve) => setTimeout(resolve, 1300)); // the orphan's journey (1.2 s from its despatch) is over by now too

    const ids = [simex.id, orphan.id, pushed.id];
    const res = await replay(admin, { consignmentNumbers: [simex.number, orphan.number, pushed.number, "NO-SUCH-NUMBER"] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ consignments: 3, not_found: ["NO-SUCH-NUMBER"] });
    const first = await support.workJob(world, res.body.job_id, admin);
    expect(first.status, JSON.stringify(first)).toBe("complete");
    expect(first.pct_complete).toBe(100);
    expect(first.info).toMatchObject({ consignments: 3, fetched: 12, not_found: ["NO-SUCH-NUMBER"] });
    expect(first.info.counts.applied).toBe(12);
    expect(first.message).toMatch(/^Replayed the tracking of 3 consignment\(s\): 12 event\(s\) fetched, 12 applied, 0 already received\. Not found: NO-SUCH-NUMBER\.$/);
    const rows = await support.rowsOf(world, ids);
    expect(rows.map((r) => r.state)).toEqual(["delivered_with_pod", "delivered_with_pod", "picked_up"]);

    const before = await snapshot(ids);
    const again = await replay(admin, { consignmentNumbers: `${simex.number}\n${orphan.number}, ${pushed.number}` });
    const second = await support.workJob(world, again.body.job_id, admin);
    expect(second.status).toBe("complete");
    expect(second.info.fetched).toBe(12);
    expect(second.info.counts).toMatchObject({ applied: 0, duplicate: 12 });
    expect(await snapshot(ids)).toEqual(before);

    // by carrier and despatch dates: the same consignments, still nothing new
    const despatchDate = rows[0]!.despatchDate!;
    const byCarrier = await replay(admin, { carrier: "simex", fromDate: despatchDate, toDate: despatchDate });
    expect(byCarrier.status, JSON.stringify(byCarrier.body)).toBe(200);
    expect(byCarrier.body.consignments).toBeGreaterThanOrEqual(2);
    const third = await support.workJob(world, byCarrier.body.job_id, admin);
    expect(third.info.counts.applied).toBe(0);
    expect(await snapshot(ids)).toEqual(before);
  });

  it("is for admins and super admins only, and says what is wrong with a request", async () => {
    const { customerService, devs } = world.clients;
    expect((await replay(customerService, { consignmentNumbers: ["X"] })).status).toBe(403);
    expect((await replay(despatcher, { consignmentNumbers: ["X"] })).status).toBe(403);
    const cases: [unknown, string, string | RegExp][] = [
      [{}, "base", "Enter consignment numbers, or choose a carrier and the From and To dates"],
      [{ consignmentNumbers: 7 }, "consignmentNumbers", "Enter consignment numbers as text, one a line or separated by commas"],
      // a blank date is told against its own field, not as "neither form of request"
      [{ carrier: "SIMEX", fromDate: "", toDate: "2026-01-02" }, "fromDate", "From date must be a date (YYYY-MM-DD)"],
      [{ carrier: "", fromDate: "2026-01-01", toDate: "2026-01-02" }, "carrier", "Choose a carrier"],
      // the wrong way round is said against the dates, not answered "No consignment found"
      [{ carrier: "SIMEX", fromDate: "2026-01-09", toDate: "2026-01-02" }, "fromDate", "The From date is after the To date: swap the dates"],
      [{ consignmentNumbers: " , " }, "consignmentNumbers", "Enter at least one consignment number"],
      [{ consignmentNumbers: ["NO-SUCH-NUMBER"] }, "consignmentNumbers", "No consignment found"],
      [{ carrier: "NOPE", fromDate: "2026-01-01", toDate: "2026-01-02" }, "carrier", "No carrier with this code"],
      [{ carrier: "SIMEX", fromDate: "2026-01-01", toDate: "2026-03-02" }, "toDate", "Date range too large, please select dates within 2 months."],
      [{ carrier: "SIMEX", fromDate: "2026-02-30", toDate: "2026-03-02" }, "fromDate", /From date must be a date/],
      [{ carrier: "SIMEX", fromDate: "2001-01-01", toDate: "2001-01-02" }, "carrier", "No consignment found"],
    ];
    for (const [body, field, message] of cases) {
      const res = await replay(devs, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      const got = res.body.errors[field]?.[0] ?? JSON.stringify(res.body.errors);
      if (typeof message === "string") expect(got).toBe(message);
      else expect(got).toMatch(message);
    }
  });

  it("has a screen that works without JavaScript: the form queues the job and the page shows its progress", async () => {
    const c = await despatch("NORTHLINE");
    const page = await admin.request("/manage_tracking");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<label for="consignmentNumbers"');
    expect(html).toContain('<option value="SIMEX">Simulated Express</option>');
    // customer service may open staff areas, but not this one (spec 2: admin or super admin)
    const refused = await world.clients.customerService.request("/manage_tracking");
    expect([refused.status, refused.headers.get("location")]).toEqual([302, "/"]);

    const submitted = await admin.request("/manage_tracking", { form: { by: "numbers", consignmentNumbers: `${c.number}\n` } });
    expect(submitted.status).toBe(302);
    const location = submitted.headers.get("location")!;
    expect(location).toMatch(/^\/manage_tracking\?job=[0-9a-f-]{36}$/);
    const jobId = location.split("=")[1]!;
    await support.workJob(world, jobId, admin);
    const after = await (await admin.request(location)).text();
    expect(after).toContain('data-job-status="complete"');
    expect(after).toContain("Replayed the tracking of 1 consignment(s)");

    const wrong = await admin.request("/manage_tracking", { form: { by: "carrier", carrier: "SIMEX", fromDate: "2026-01-01", toDate: "2026-06-01" } });
    expect(wrong.status).toBe(422);
    expect(await wrong.text()).toContain("Date range too large, please select dates within 2 months.");

    // From after To, without JavaScript: the message sits beside the From date, nothing beside the carrier
    const reversed = await admin.request("/manage_tracking", { form: { by: "carrier", carrier: "SIMEX", fromDate: "2026-01-09", toDate: "2026-01-02" } });
    expect(reversed.status).toBe(422);
    const told = await reversed.text();
    expect(told).toMatch(/id="fromDate-error"[^>]*>The From date is after the To date: swap the dates</);
    expect(told).not.toContain('id="carrier-error"');
    expect(told).not.toContain("No consignment found");
  });
});
