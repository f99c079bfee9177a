import { date, doublePrecision, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { consignments } from "./consignments";
import { TRACKING_EVENTS } from "./tracking-events";

export { TRACKING_EVENTS };

export const TRACKING_SOURCES = ["api", "carrier"] as const;

/**
 * What carriers say happened to a consignment after despatch (spec 1 section 3 "Tracking event";
 * issue 14). Its state follows its events (app/modules/tracking/rules.ts); every event is kept,
 * also late ones that did not move it.
 */
export const trackingEvents = pgTable(
  "tracking_events",
  {
    id: serial("id").primaryKey(),
    consignmentId: integer("consignment_id")
      .notNull()
      .references(() => consignments.id, { onDelete: "cascade" }),
    event: text("event", { enum: TRACKING_EVENTS }).notNull(),
    /** the carrier's own code or words for the event (the event's name when it sent none) */
    carrierEvent: text("carrier_event").notNull(),
    eventTime: timestamp("event_time", { withTimezone: true }).notNull(),
    /** the calendar date where it happened: event_time's date at the offset the carrier gave */
    eventDate: date("event_date", { mode: "string" }).notNull(),
    message: text("message"),
    latitude: doublePrecision("latitude"),
    longitude: doublePrecision("longitude"),
    images: jsonb("images").$type<string[]>().notNull().default([]),
    /** proof of delivery: the carrier's link, or /api/pod/{id} for one this product draws (the simulated carrier's) */
    podUrl: text("pod_url"),
    /** posted to POST /api/tracking_events, or fetched from the carrier's adapter (journey, replay) */
    source: text("source", { enum: TRACKING_SOURCES }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // a duplicate (same consignment, carrier event and time) is a no-op (insert ... on conflict do
    // nothing); its leading column also serves reading a consignment's events (track and trace)
    uniqueIndex("tracking_events_consignment_event_time_key").on(t.consignmentId, t.carrierEvent, t.eventTime),
  ],
);

/** One planned event of the simulated carrier's journey (times as ISO strings). */
export interface PlannedEvent {
  event: (typeof TRACKING_EVENTS)[number];
  carrier_event: string;
  event_time: string;
  message: string;
  latitude: number | null;
  longitude: number | null;
  /** a proof of delivery the product draws (the receiver's name, signed) */
  pod: boolean;
}

/**
 * The simulated carrier's own record of the consignments it carries: the journey it planned at
 * despatch (places along the road, times on its clock). Its adapter answers tracking requests from
 * here, so fetching again (replay) gives the same events.
 */
export const simulatedJourneys = pgTable("simulated_journeys", {
  consignmentId: integer("consignment_id")
    .primaryKey()
    .references(() => consignments.id, { onDelete: "cascade" }),
  events: jsonb("events").$type<PlannedEvent[]>().notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
