/**
 * The simulated carrier's side of tracking (issue 14 item 2). At despatch it plans each
 * consignment's journey (simex-journey.ts) with depots at the real localities nearest the line
 * between sender and receiver, on its clock (the simulation's journey_minutes, else until the
 * estimated delivery date), and keeps the plan in simulated_journeys; asked for events, it answers
 * those of the plan whose time has come. Planning again is a no-op and asking again gives the same
 * events, so a job run twice, or a replay, changes nothing.
 */
import { and, asc, between, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { localities, simulatedJourneys, type PlannedEvent } from "../../../db/schema";
import { instantInZone } from "../calendar/zone-offset";
import type { CarrierEvent, Simulation, TrackingContext, TrackingPlace, TrackingSubject } from "./tracking-types";
import { planJourney, routePoints, type JourneyPlace, type Point } from "./simex-journey";

const MINUTE = 60_000;
/** a journey takes at least this long at the real pace (a same-day run) */
const SHORTEST_REAL_JOURNEY = 2 * 60 * MINUTE;
/** without an estimated delivery date, the real pace delivers the next day */
const DEFAULT_JOURNEY = 24 * 60 * MINUTE;
/** deliveries happen early in the afternoon, the receiver's time */
const DELIVERY_TIME = "14:00";

/** collections start in the morning of the despatch date, the sender's time */
const PICKUP_TIME = "08:00";

/**
 * When the journey starts and how long it takes. On the simulation's clock (journey_minutes) it
 * starts at despatch; at the real pace it starts on the despatch date (not before despatch) and
 * ends in the afternoon of the estimated delivery date, the receiver's time.
 */
export function journeyTimes(subject: TrackingSubject, simulation: Simulation): { start: Date; durationMs: number } {
  if (simulation.journey_minutes != null) return { start: subject.despatchedAt, durationMs: simulation.journey_minutes * MINUTE };
  const collect = subject.despatchDate ? instantInZone(subject.despatchDate, PICKUP_TIME, subject.sender.timeZone) : subject.despatchedAt;
  const start = new Date(Math.max(subject.despatchedAt.getTime(), collect.getTime()));
  if (!subject.estimatedDeliveryDate) return { start, durationMs: DEFAULT_JOURNEY };
  const delivery = instantInZone(subject.estimatedDeliveryDate, DELIVERY_TIME, subject.receiver.timeZone);
  return { start, durationMs: Math.max(SHORTEST_REAL_JOURNEY, delivery.getTime() - start.getTime()) };
}

const hasPoint = (p: TrackingPlace): p is TrackingPlace & Point => p.latitude != null && p.longitude != null;

/** boxes (degrees either way) searched for the nearest locality: a town nearby, else further out */
const SEARCH_BOXES = [0.6, 2];

/** The real locality nearest a point of the route, in the consignment's country. */
async function nearestLocality(db: DbOrTx, country: string, p: Point, timeZone: string | null): Promise<JourneyPlace | null> {
  // longitude degrees shrink with latitude: weigh them so "nearest" is nearest on the ground
  const squash = Math.cos((p.latitude * Math.PI) / 180) ** 2;
  for (const box of SEARCH_BOXES) {
    const [row] = await db
      .select({ locality: localities.locality, region: localities.region, latitude: localities.latitude, longitude: localities.longitude })
      .from(localities)
      .where(
        and(
          eq(localities.country, country as never),
          isNotNull(localities.latitude),
          between(localities.latitude, p.latitude - box, p.latitude + box),
          between(localities.longitude, p.longitude - box, p.longitude + box),
        ),
      )
      .orderBy(sql`power(${localities.latitude} - ${p.latitude}, 2) + power(${localities.longitude} - ${p.longitude}, 2) * ${squash}`, asc(localities.id))
      .limit(1);
    if (row) return { name: null, locality: row.locality, region: row.region, latitude: row.latitude, longitude: row.longitude, timeZone };
  }
  return null;
}

/** Depots between sender and receiver (none when either has no coordinates); one lookup per route for a whole despatch. */
async function depotsFor(db: DbOrTx, subject: TrackingSubject, cache: Map<string, Promise<JourneyPlace[]>>): Promise<JourneyPlace[]> {
  const { sender, receiver } = subject;
  if (!hasPoint(sender) || !hasPoint(receiver)) return [];
  const key = [sender.country, sender.latitude, sender.longitude, receiver.latitude, receiver.longitude].join("|");
  let depots = cache.get(key);
  if (!depots) {
    depots = (async () => {
      const found: JourneyPlace[] = [];
      const points = routePoints(sender, receiver);
      for (const [i, point] of points.entries()) {
        // a depot's clock: the sender's for the first half of the road, the receiver's after
        const zone = i < points.length / 2 ? sender.timeZone : receiver.timeZone;
        const place = await nearestLocality(db, sender.country, point, zone);
        if (place && !found.some((f) => f.locality === place.locality && f.region === place.region)) found.push(place);
      }
      return found;
    })();
    cache.set(key, depots);
  }
  return depots;
}

/** Plans the journeys of consignments it has not planned yet; answers when each planned event is due. */
export async function planJourneys(ctx: TrackingContext, simulation: Simulation, subjects: TrackingSubject[]): Promise<{ consignmentId: number; at: Date }[]> {
  if (!subjects.length) return [];
  const planned = await ctx.db.select({ id: simulatedJourneys.consignmentId }).from(simulatedJourneys).where(inArray(simulatedJourneys.consignmentId, subjects.map((s) => s.consignmentId)));
  const already = new Set(planned.map((p) => p.id));
  const cache = new Map<string, Promise<JourneyPlace[]>>();
  const rows: { consignmentId: number; events: PlannedEvent[] }[] = [];
  for (const subject of subjects) {
    if (already.has(subject.consignmentId)) continue;
    const events = planJourney({
      ...journeyTimes(subject, simulation),
      failDelivery: Boolean(simulation.fail_delivery),
      sender: subject.sender,
      receiver: subject.receiver,
      waypoints: await depotsFor(ctx.db, subject, cache),
    });
    rows.push({ consignmentId: subject.consignmentId, events });
  }
  if (!rows.length) return [];
  // a plan made meanwhile by another run stands; only this run's new plans are answered
  const inserted = await ctx.db.insert(simulatedJourneys).values(rows).onConflictDoNothing().returning({ id: simulatedJourneys.consignmentId });
  const mine = new Set(inserted.map((r) => r.id));
  return rows.filter((r) => mine.has(r.consignmentId)).flatMap((r) => r.events.map((e) => ({ consignmentId: r.consignmentId, at: new Date(e.event_time) })));
}

/** The events of these consignments' journeys whose time has come. */
export async function journeyEvents(ctx: TrackingContext, subjects: TrackingSubject[]): Promise<CarrierEvent[]> {
  if (!subjects.length) return [];
  const journeys = await ctx.db.select().from(simulatedJourneys).where(inArray(simulatedJourneys.consignmentId, subjects.map((s) => s.consignmentId)));
  return journeys.flatMap((j) =>
    j.events
      .filter((e) => new Date(e.event_time).getTime() <= ctx.now.getTime())
      .map(
        (e): CarrierEvent => ({
          consignmentId: j.consignmentId,
          event: e.event,
          carrierEvent: e.carrier_event,
          eventTime: e.event_time,
          message: e.message,
          latitude: e.latitude,
          longitude: e.longitude,
          podUrl: null,
          images: [],
          generatedPod: e.pod,
        }),
      ),
  );
}
