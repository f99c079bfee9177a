/**
 * The simulated carrier's journey (issue 14 item 2): after despatch a SIMEX consignment is picked
 * up at the sender, passes depots at real places along the road to the receiver, goes on board
 * for delivery and is delivered with a proof of delivery signed with the receiver's name; with a
 * failed delivery, the first attempt fails and the goods go out again. Pure: the places come from
 * simex-tracking.server.ts, which stores the plan the adapter then answers from.
 */
import type { PlannedEvent } from "../../../db/schema/tracking";
import { isoInZone } from "../calendar/zone-offset";

export interface Point {
  latitude: number;
  longitude: number;
}

export interface JourneyPlace {
  name: string | null;
  locality: string | null;
  region: string | null;
  latitude: number | null;
  longitude: number | null;
  /** IANA zone of the place: event times are written at its offset */
  timeZone: string | null;
}

export interface JourneyRequest {
  /** when the carrier took the consignment (its manifest's despatch time) */
  start: Date;
  /** from despatch to delivery, on the simulated carrier's clock */
  durationMs: number;
  failDelivery: boolean;
  sender: JourneyPlace;
  receiver: JourneyPlace;
  /** depots along the way, from the sender's end */
  waypoints: JourneyPlace[];
}

const EARTH_KM = 6371;
const rad = (d: number) => (d * Math.PI) / 180;

/** Great-circle distance in km. */
export function distanceKm(a: Point, b: Point): number {
  const dLat = rad(b.latitude - a.latitude);
  const dLng = rad(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Roughly one depot every 400 km of road, one at least and four at most. */
const KM_PER_DEPOT = 400;
const MAX_DEPOTS = 4;

/**
 * Where the journey passes between two places: evenly spaced points on the line between them,
 * one per KM_PER_DEPOT (at least one: even a short trip goes through a depot). The nearest real
 * locality to each is the depot.
 */
export function routePoints(from: Point, to: Point): Point[] {
  const count = Math.min(MAX_DEPOTS, Math.max(1, Math.round(distanceKm(from, to) / KM_PER_DEPOT)));
  return Array.from({ length: count }, (_, i) => {
    const f = (i + 1) / (count + 1);
    return { latitude: from.latitude + (to.latitude - from.latitude) * f, longitude: from.longitude + (to.longitude - from.longitude) * f };
  });
}

const placeName = (p: JourneyPlace) => [p.locality, p.region].filter(Boolean).join(" ") || "the depot";

/**
 * The journey's events, in order. Each is placed at a fraction of the journey's duration (and at
 * least a second after the one before, so a journey squeezed to nothing keeps distinct times and
 * the order); delivery is at the end.
 */
export function planJourney(r: JourneyRequest): PlannedEvent[] {
  const steps: { at: number; event: PlannedEvent["event"]; code: string; message: string; place: JourneyPlace; pod?: boolean }[] = [];
  steps.push({ at: 0.04, event: "picked_up", code: "PCK", message: `Picked up from ${r.sender.name ?? "the sender"}, ${placeName(r.sender)}`, place: r.sender });
  r.waypoints.forEach((w, i) => {
    const at = 0.15 + (0.55 * (i + 0.5)) / r.waypoints.length;
    steps.push({ at, event: "in_transit", code: "ARR", message: `In transit: arrived at ${placeName(w)} depot`, place: w });
  });
  const receiver = r.receiver.name ?? "the receiver";
  if (r.failDelivery) {
    steps.push({ at: 0.78, event: "on_board_for_delivery", code: "OFD", message: `On board for delivery to ${placeName(r.receiver)}`, place: r.receiver });
    steps.push({ at: 0.82, event: "failed_delivery", code: "FDA", message: "Delivery attempted: nobody available to sign. Card left; the goods go out again on the next run.", place: r.receiver });
    steps.push({ at: 0.92, event: "on_board_for_delivery", code: "OFD", message: `On board for redelivery to ${placeName(r.receiver)}`, place: r.receiver });
  } else {
    steps.push({ at: 0.86, event: "on_board_for_delivery", code: "OFD", message: `On board for delivery to ${placeName(r.receiver)}`, place: r.receiver });
  }
  steps.push({ at: 1, event: "delivered_with_pod", code: "POD", message: `Delivered to ${receiver}; signed for by ${receiver}`, place: r.receiver, pod: true });

  let previous = -Infinity;
  return steps.map((s) => {
    const time = Math.max(r.start.getTime() + Math.round(s.at * r.durationMs), previous + 1000);
    previous = time;
    return {
      event: s.event,
      carrier_event: s.code,
      event_time: isoInZone(new Date(time), s.place.timeZone),
      message: s.message,
      latitude: s.place.latitude,
      longitude: s.place.longitude,
      pod: Boolean(s.pod),
    };
  });
}
