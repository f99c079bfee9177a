/**
 * Track and trace benchmarks (issue 14): 10,000 carriers' events posted to POST /api/tracking_events
 * in batches of 1,000 by a carrier feed's token (states moved, history written), and the events of
 * a consignment with 50 of them (GET /api/track_trace/{id} and its screen), and its public page with
 * 20 callers beside the floor of an empty request. `trackingSection` answers the lines of
 * docs/performance.md; bench/run.ts calls it with its server. Alone:
 * `npx tsx bench/tracking.ts` (after `npm run build`), against DATABASE_URL when set, else PGlite.
 */
import { count, eq, inArray, sql } from "drizzle-orm";
import { consignments, trackingEvents } from "../db/schema";
import { createUser } from "../db/seed/factories";
import { seedDemo } from "../db/seed/demo";
import { Client, startTestServer, type TestServer } from "../tests/support/server";
import { loadFrom, stats, tableRows, type Stats, TABLE_HEAD } from "./measure";

const EVENTS = 10_000;
const BATCH = 1_000;
export const JOURNEY = ["picked_up", "in_transit", "in_transit", "on_board_for_delivery", "delivered_with_pod"] as const;
const CONSIGNMENTS = EVENTS / JOURNEY.length;

type Raw = { rows?: { id: number }[] } | { id: number }[];

/** `n` despatched consignments with numbers PREFIX000001..., straight into the table: returns their ids. */
export async function despatchedConsignments(server: TestServer, customerId: number, siteId: number, prefix: string, n: number): Promise<number[]> {
  const raw = (await server.db.execute(sql`
    insert into consignments (customer_id, site_id, state, consignment_number, reference, despatch_date, party_name, item_count, active)
    select ${customerId}, ${siteId}, 'despatched', ${prefix} || lpad(g::text, 6, '0'), 'PO-' || g, current_date, 'Brisbane Hardware', 1, true
    from generate_series(1, ${n}) g
    returning id`)) as unknown as Raw;
  return (Array.isArray(raw) ? raw : (raw.rows ?? [])).map((r) => Number(r.id));
}

/** Each consignment's journey, one event a step, the steps an hour apart. */
export function journeyEvents(prefix: string, n: number) {
  const start = Date.parse("2026-05-04T00:00:00Z");
  return Array.from({ length: n }, (_, i) =>
    JOURNEY.map((event, step) => ({
      consignment_number: `${prefix}${String(i + 1).padStart(6, "0")}`,
      event,
      carrier_event: `${event.toUpperCase()}-${step}`,
      event_time: new Date(start + step * 3_600_000 + i * 1000).toISOString(),
      message: `Step ${step + 1} of ${JOURNEY.length}`,
      latitude: -37.8 + step,
      longitude: 145 + step,
    })),
  );
}

export interface TrackingBench {
  posting: { wallMs: number; perSecond: number; batches: Stats };
  screen: Stats;
  page: Stats;
  publicPage: Stats;
  floor: Stats;
}

export async function benchTracking(server: TestServer, customerId: number, siteId: number): Promise<TrackingBench> {
  const token = `bench-feed-${Date.now()}`;
  await createUser(server.db, customerId, { email: `bench-feed-${Date.now()}@example.test`, canPostTrackingEvents: true, authenticationToken: token });
  const feed = new Client(server.url, token);
  const prefix = `TRK${Date.now() % 100000}-`;
  const ids = await despatchedConsignments(server, customerId, siteId, prefix, CONSIGNMENTS);
  const journeys = journeyEvents(prefix, CONSIGNMENTS);
  // batches as a feed sends them: every consignment's next event, in time order
  const events = JOURNEY.flatMap((_, step) => journeys.map((j) => j[step]!));
  await feed.json("/api/tracking_events", { json: { events: events.slice(0, 10).map((e) => ({ ...e, consignment_number: "WARM-UP" })) } });

  const samples: number[] = [];
  const started = performance.now();
  for (let i = 0; i < events.length; i += BATCH) {
    const t = performance.now();
    const res = await feed.json<{ counts: Record<string, number> }>("/api/tracking_events", { json: { events: events.slice(i, i + BATCH) } });
    samples.push(performance.now() - t);
    if (res.status !== 200 || res.body.counts.applied !== Math.min(BATCH, events.length - i)) throw new Error(`tracking events answered ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  }
  const wallMs = performance.now() - started;
  const [stored] = await server.db.select({ n: count() }).from(trackingEvents).where(inArray(trackingEvents.consignmentId, ids));
  const [delivered] = await server.db.select({ n: count() }).from(consignments).where(sql`${inArray(consignments.id, ids)} and ${eq(consignments.state, "delivered_with_pod")}`);
  if (stored!.n !== EVENTS || delivered!.n !== CONSIGNMENTS) throw new Error(`stored ${stored!.n} events, ${delivered!.n} consignments delivered`);

  // a consignment with 50 events, read as the tracking screen reads them
  const [fifty] = await despatchedConsignments(server, customerId, siteId, `${prefix}F`, 1);
  const long = Array.from({ length: 50 }, (_, k) => ({ consignment_number: `${prefix}F000001`, event: k < 49 ? "in_transit" : "delivered", carrier_event: `ARR-${k}`, event_time: new Date(Date.parse("2026-05-04T00:00:00Z") + k * 600_000).toISOString(), message: `Depot ${k}` }));
  await feed.json("/api/tracking_events", { json: { events: long } });
  const staff = new Client(server.url);
  await staff.signIn("admin@example.com");
  const screen = await loadFrom({ url: `${server.url}/api/track_trace/${fifty}`, headers: { cookie: staff.cookie, "accept-encoding": "identity" }, total: 500, concurrency: 1 });
  // the screen as a person opens it: server render with the events table and the journey map (QA)
  const page = await loadFrom({ url: `${server.url}/tracking/${fifty}`, headers: { cookie: staff.cookie, "accept-encoding": "identity" }, total: 300, concurrency: 1 });
  // the receiver's page, signed out, 20 at once; beside it the floor: a GET answered 405 at once
  const [link] = await server.db.select({ token: consignments.publicTrackingToken }).from(consignments).where(eq(consignments.id, fifty!));
  const publicPage = await loadFrom({ url: `${server.url}/track/${link!.token}`, headers: { "accept-encoding": "identity" }, total: 2000, concurrency: 20 });
  const floor = await loadFrom({ url: `${server.url}/api/carrier_selection`, headers: { "accept-encoding": "identity", accept: "application/json" }, total: 2000, concurrency: 20, expect: [405, 405] });

  return { posting: { wallMs, perSecond: (EVENTS / wallMs) * 1000, batches: stats(samples, wallMs) }, screen, page, publicPage, floor };
}

/** The section of docs/performance.md. */
export async function trackingSection(server: TestServer, customerId: number, siteId: number): Promise<string[]> {
  const r = await benchTracking(server, customerId, siteId);
  const met = (ok: boolean) => (ok ? "met" : "NOT met");
  return [
    "## Track and trace",
    "",
    `Targets (issue 14): ${EVENTS.toLocaleString("en")} tracking events posted in batches, applied with their states, at least 2,000 events a second end to end; the tracking screen of a consignment with 50 events, server p95 under 50 ms; the public tracking page, p95 under 30 ms with 20 callers.`,
    "",
    ...TABLE_HEAD,
    `| POST /api/tracking_events, ${BATCH.toLocaleString("en")} events a post (a feed's token), 1 caller | ${r.posting.batches.n} | ${r.posting.batches.p50.toFixed(1)} | ${r.posting.batches.p95.toFixed(1)} | ${r.posting.batches.max.toFixed(1)} | ${r.posting.batches.perSecond.toFixed(1)} |`,
    ...tableRows([
      ["GET /api/track_trace/{id}, 50 events, 1 caller (separate process)", r.screen],
      ["GET /tracking/{id} page, 50 events and the journey map (server render), 1 caller (separate process)", r.page],
      ["GET /track/{token} public page, 50 events, signed out, 20 callers (separate process)", r.publicPage],
      ["floor: GET /api/carrier_selection, answered 405 at once, 20 callers (separate process)", r.floor],
    ]),
    "",
    `- ${EVENTS.toLocaleString("en")} events at least 2,000 a second: ${r.posting.perSecond.toFixed(0)} events a second (${(r.posting.wallMs / 1000).toFixed(2)} s for ${CONSIGNMENTS.toLocaleString("en")} journeys of ${JOURNEY.length} events), ${met(r.posting.perSecond >= 2000)}`,
    `- tracking screen with 50 events p95 under 50 ms: ${r.page.p95.toFixed(1)} ms the page (${r.screen.p95.toFixed(1)} ms its API call), ${met(r.page.p95 < 50)}`,
    `- public page p95 under 30 ms with 20 callers: ${r.publicPage.p95.toFixed(1)} ms (floor ${r.floor.p95.toFixed(1)} ms), ${met(r.publicPage.p95 < 30)} here, with one web process inside the bench's own process; as \`npm start\` runs it (WEB_CONCURRENCY=2) it is measured under "Requests against the floor" (issue 32)`,
    "",
    "A post is one transaction: the numbers resolved in one query, the consignments locked and their",
    "stored events read in one query each, the rules applied in memory, the new events inserted in one",
    "statement and the states moved with one update per target state and one insert of their history.",
    "",
  ];
}

// alone: its own server and demo
if (import.meta.url === `file://${process.argv[1]}`) {
  const server = await startTestServer();
  try {
    const demo = await seedDemo(server.db);
    console.log((await trackingSection(server, demo.acme.id, demo.sites.melbourne.id)).join("\n"));
  } finally {
    await server.close();
  }
}
