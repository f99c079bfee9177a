/**
 * Webhooks (issue 34 item 1, docs/decisions/039): 10,000 tracking events posted (2,000 journeys of
 * five, as bench/tracking.ts posts them) make 10,000 tracking.updated deliveries to one endpoint,
 * a receiver on loopback. The product's own dispatcher (startDispatcher, as a worker runs it)
 * sends them once they are all queued; measured from its start to the last answer received. Each
 * consignment's deliveries are checked to arrive in the order of its events.
 * `NODE_ENV=production DATABASE_URL=... npx tsx bench/section.ts webhooks`.
 */
import { eq, sql } from "drizzle-orm";
import { users, webhookDeliveries } from "../db/schema";
import { seedDemo } from "../db/seed/demo";
import { createUser } from "../db/seed/factories";
import { loadCurrentUser } from "../app/modules/auth/current-user.server";
import { createMailer } from "../app/modules/mail/mailer.server";
import { resetEnvCache } from "../app/utils/env.server";
import { IN_FLIGHT, PER_ENDPOINT, startDispatcher } from "../app/modules/webhooks/dispatcher.server";
import { createEndpoint } from "../app/modules/webhooks/endpoints.server";
import { Client, startTestServer } from "../tests/support/server";
import { startReceiver } from "../tests/support/webhook-receiver";
import { despatchedConsignments, journeyEvents, JOURNEY } from "./tracking";

const CONSIGNMENTS = 2_000;
const EVENTS = CONSIGNMENTS * JOURNEY.length;
const BATCH = 1_000;

export async function webhooksSection(): Promise<string[]> {
  process.env.WEBHOOKS_ALLOW_LOCAL = "1";
  resetEnvCache();
  const server = await startTestServer();
  const receiver = await startReceiver();
  try {
    const db = server.db;
    const demo = await seedDemo(db);
    const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.email, "admin@example.com"));
    await createEndpoint(db, (await loadCurrentUser(db, admin!.id))!, { customer_id: demo.acme.id, url: `${receiver.base}/ok/bench`, events: ["tracking.updated"] });

    const token = `bench-hooks-${Date.now()}`;
    await createUser(db, demo.acme.id, { email: `${token}@example.test`, canPostTrackingEvents: true, authenticationToken: token });
    const feed = new Client(server.url, token);
    const prefix = `WHB${Date.now() % 100000}-`;
    await despatchedConsignments(server, demo.acme.id, demo.sites.melbourne.id, prefix, CONSIGNMENTS);
    const journeys = journeyEvents(prefix, CONSIGNMENTS);
    const events = JOURNEY.flatMap((_, step) => journeys.map((j) => j[step]!));
    const posted = performance.now();
    for (let i = 0; i < events.length; i += BATCH) {
      const res = await feed.json("/api/tracking_events", { json: { events: events.slice(i, i + BATCH) } });
      if (res.status !== 200) throw new Error(`tracking events answered ${res.status}`);
    }
    const postMs = performance.now() - posted;
    const queued = (await db.select({ id: webhookDeliveries.id }).from(webhookDeliveries)).length;
    if (queued !== EVENTS) throw new Error(`${queued} deliveries queued for ${EVENTS} events`);

    // the statistics autovacuum takes of a table that grew by thousands of rows; without them the
    // planner, expecting a handful of due deliveries, reads them all on each claim
    await db.execute(sql`analyze webhook_deliveries`);
    const started = performance.now();
    const dispatcher = startDispatcher(db, createMailer(db, { from: "bench@freightdesk.local" }));
    while (receiver.received.length < EVENTS) {
      if (performance.now() - started > 600_000) throw new Error(`${receiver.received.length} of ${EVENTS} delivered in 10 minutes`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const deliverMs = performance.now() - started;
    await dispatcher.stop();

    // each consignment's events arrive in the order they happened (carrier_event ends in the step)
    const last = new Map<string, number>();
    let outOfOrder = 0;
    for (const r of receiver.received) {
      const { data } = JSON.parse(r.body) as { data: { consignment_number: string; event: { carrier_event: string } } };
      const step = Number(data.event.carrier_event.split("-").pop());
      if ((last.get(data.consignment_number) ?? -1) >= step) outOfOrder++;
      last.set(data.consignment_number, step);
    }
    const perSecond = (EVENTS / deliverMs) * 1000;
    return [
      "## Webhook deliveries",
      "",
      `Target (issue 34): ${EVENTS.toLocaleString("en")} tracking events posted produce their webhook deliveries to a local receiver at 1,000 deliveries a second or more, in order per consignment. One endpoint (tracking.updated) on a loopback receiver that answers 200 at once; the product's dispatcher as a worker runs it (${PER_ENDPOINT} in flight per endpoint, ${IN_FLIGHT} in all), started once all ${queued.toLocaleString("en")} deliveries were queued (and the table analysed, as autovacuum does after such a burst).`,
      "",
      "| what | figure |",
      "| --- | ---: |",
      `| ${EVENTS.toLocaleString("en")} events posted in batches of ${BATCH.toLocaleString("en")} (deliveries queued in the same transactions) | ${(postMs / 1000).toFixed(2)} s |`,
      `| ${EVENTS.toLocaleString("en")} deliveries sent, signed and recorded | ${(deliverMs / 1000).toFixed(2)} s |`,
      `| deliveries a second | ${perSecond.toFixed(0)} |`,
      `| consignments whose deliveries arrived out of order | ${outOfOrder} |`,
      "",
      `- at least 1,000 deliveries a second: ${perSecond.toFixed(0)}, ${perSecond >= 1000 ? "met" : "NOT met"}; order per consignment ${outOfOrder === 0 ? "kept" : "NOT kept"}.`,
      "- An endpoint has 16 deliveries in flight at most, so the rate is 16 per round of the dispatcher: write the finished ones' outcomes, claim the next, send. Two changes took a round from about 18 ms to under 10 (900 to 1,400-2,000 a second on a quiet machine, 2026-11-29):",
      "  - a claim reads each active endpoint's own oldest due deliveries (an index on endpoint and id, migration 0039). It read the oldest of all endpoints together, four for every free slot: 960 rows, each with its order check, to take 16, and one endpoint's backlog could fill them all and starve the others (tests/integration/webhooks-claim.test.ts);",
      "  - the outcomes are written in one statement, not a transaction of two (one round trip and commit fewer);",
      "  - before them, and since migration 0036, the claim no longer numbers every unfinished delivery before taking the oldest (that gave 200 a second).",
      "",
    ];
  } finally {
    await receiver.close();
    await server.close();
    delete process.env.WEBHOOKS_ALLOW_LOCAL;
    resetEnvCache();
  }
}
