/**
 * The types a carrier's tracking and the simulated carrier's journeys are written in: below both
 * the adapters (adapters.server.ts) and the simulated carrier's journeys (simex-tracking.server.ts),
 * so the adapters can use the journeys without the two importing each other (issue 30 item 7).
 */
import type { DbOrTx } from "../../../db/client.server";
import type { TrackingEvent } from "../tracking/states";

export type CancelResult = "cancel_pending" | "cancel_confirmed" | "cancel_confirmed_for_auto_delivered" | "cancel_rejected";

export interface TrackingPlace {
  name: string | null;
  locality: string | null;
  region: string | null;
  postcode: string | null;
  country: string;
  latitude: number | null;
  longitude: number | null;
  /** IANA zone: the address's, else its region's, else the sending site's */
  timeZone: string | null;
}

/** A despatched consignment as a carrier's tracking sees it. */
export interface TrackingSubject {
  consignmentId: number;
  consignmentNumber: string;
  /** when its manifest was despatched */
  despatchedAt: Date;
  /** the day it is to be collected (YYYY-MM-DD), at the sender */
  despatchDate: string | null;
  estimatedDeliveryDate: string | null;
  sender: TrackingPlace;
  receiver: TrackingPlace;
}

/** An event as a carrier gives it (POST /api/tracking_events takes the same from carriers that push). */
export interface CarrierEvent {
  consignmentId: number;
  event: TrackingEvent;
  carrierEvent: string;
  /** ISO 8601 at the offset of where it happened */
  eventTime: string;
  message: string | null;
  latitude: number | null;
  longitude: number | null;
  podUrl: string | null;
  images: string[];
  /** a proof of delivery the product draws (the simulated carrier's): served at /api/pod/{event id} */
  generatedPod?: boolean;
}

/** Where tracking calls run: the carrier's own records (the simulated one's) and its clock. */
export interface TrackingContext {
  db: DbOrTx;
  now: Date;
}

/** What the simulated carrier is told to do (carriers.options.simulate), set by devs for a demo or test. */
export interface Simulation {
  fail_despatch?: boolean;
  /** answer a despatch only after this long, as a slow carrier API would (demos of progress; the kill-mid-despatch test) */
  delay_ms?: number;
  cancel_result?: CancelResult;
  reject_message?: string;
  /** despatch to delivery on the simulated clock, for journeys planned from now on; unset: until the estimated delivery date */
  journey_minutes?: number | null;
  /** the first delivery attempt fails, then the goods go out again */
  fail_delivery?: boolean;
  /** refuse pickup bookings (they can be rebooked), or refuse them for good (failed_permanently) */
  fail_booking?: boolean;
  fail_booking_permanently?: boolean;
}
