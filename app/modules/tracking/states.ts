/**
 * The tracking part of the consignment states (spec 1 section 4, the despatched group): which
 * events a carrier reports and how far along its journey each says a consignment is. Pure and
 * dependency-free, so the lifecycle module, the rules and the browser share one copy.
 */
import type { ConsignmentState } from "../../../db/schema/consignments";
import { TRACKING_EVENTS } from "../../../db/schema/tracking-events";

/** What a carrier may report (POST /api/tracking_events `event`), in journey order. */
export { TRACKING_EVENTS };
export type TrackingEvent = (typeof TRACKING_EVENTS)[number];
// every event is a consignment state
TRACKING_EVENTS satisfies readonly ConsignmentState[];

/**
 * How far along each state of the despatched group is. An event moves a consignment only forward
 * in rank. on_board_for_delivery, partial_delivery and failed_delivery share a rank: they are the
 * outcomes of delivery attempts, and a carrier that fails a delivery takes the goods out again the
 * next day, so after failed_delivery a newer on_board_for_delivery is the consignment's latest
 * word (docs/decisions/013); within one rank the newer event wins.
 */
export const TRACKING_RANK = {
  despatched: 0,
  booked: 1,
  picked_up: 2,
  in_transit: 3,
  on_board_for_delivery: 4,
  partial_delivery: 4,
  failed_delivery: 4,
  delivered: 5,
  delivered_with_pod: 6,
} as const satisfies Partial<Record<ConsignmentState, number>>;

export type TrackedState = keyof typeof TRACKING_RANK;

/** States whose consignment tracking events move: despatched (handed to the carrier) and after. */
export const TRACKED_STATES = Object.keys(TRACKING_RANK) as TrackedState[];

export const isTrackingEvent = (value: string): value is TrackingEvent => (TRACKING_EVENTS as readonly string[]).includes(value);
export const isTracked = (state: ConsignmentState): state is TrackedState => state in TRACKING_RANK;
