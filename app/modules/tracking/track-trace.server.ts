/**
 * GET /api/track_trace/{id} (spec 1 sections 3 and 7; issue 14 item 3): a consignment's tracking
 * events, newest first, and the metadata the track and trace screen and its map read: sender and
 * receiver (with coordinates from the locality data), state, the carrier's tracking page and the
 * latest proof of delivery. A consignment the user may not see is 404, never its events.
 */
import { and, desc, eq } from "drizzle-orm";
import { emissionsFor } from "../emissions/emissions.server";
import type { EmissionsField } from "../emissions/method";
import { alias } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../../../db/client.server";
import { addresses, carrierAccounts, carriers, consignments, trackingEvents, type ConsignmentState } from "../../../db/schema";
import { addressJson, type AddressJson } from "../addresses/address-json";
import type { CurrentUser } from "../auth/current-user.server";
import { adapterFor, type CarrierInfo } from "../carriers/adapters.server";
import { AppError, notFound } from "../../utils/errors";
import { trackingScope } from "./scope";
import type { TrackingEvent } from "./states";
import { coordinatesOf } from "./subjects.server";

export interface TrackingEventJson {
  id: number;
  event: TrackingEvent;
  carrier_event: string;
  /** ISO 8601 (UTC) */
  event_time: string;
  /** the date where it happened (YYYY-MM-DD) */
  event_date: string;
  message: string | null;
  latitude: number | null;
  longitude: number | null;
  images: string[];
  pod_url: string | null;
  source: "api" | "carrier";
}

export type PlacedAddress = AddressJson & { latitude: number | null; longitude: number | null };

export interface TrackTraceJson {
  events: TrackingEventJson[];
  metadata: {
    consignment_id: number;
    /** the sending site: the screen reads times in its zone and dates in its country's format */
    site_id: number;
    consignment_number: string | null;
    consignment_state: ConsignmentState;
    is_quote: boolean;
    /** false once deleted or merged */
    active: boolean;
    carrier_name: string | null;
    carrier_code: string | null;
    estimated_delivery_date: string | null;
    sender_address: PlacedAddress | null;
    receiver_address: PlacedAddress | null;
    /** the carrier's tracking page for this consignment (its web_url with the number), if it has one */
    web_url: string | null;
    /** the newest proof of delivery among the events */
    pod_url: string | null;
  } & EmissionsField;
}

export const eventJson = (e: typeof trackingEvents.$inferSelect): TrackingEventJson => ({
  id: e.id,
  event: e.event,
  carrier_event: e.carrierEvent,
  event_time: e.eventTime.toISOString(),
  event_date: e.eventDate,
  message: e.message,
  latitude: e.latitude,
  longitude: e.longitude,
  images: e.images,
  pod_url: e.podUrl,
  source: e.source,
});

type JoinedCarrier = { code: string | null; name: string | null; webUrl: string | null; options: CarrierInfo["options"] | null } | null;

/** The consignment's carrier (left-joined through its account) as the adapters take it; none without an account. */
export const carrierOf = (c: JoinedCarrier): CarrierInfo | null => (c?.code ? { code: c.code, name: c.name!, webUrl: c.webUrl, options: c.options ?? {} } : null);

export async function trackTrace(db: DbOrTx, user: CurrentUser, id: number): Promise<TrackTraceJson> {
  const sender = alias(addresses, "sender");
  const receiver = alias(addresses, "receiver");
  const [row] = await db
    .select({ consignment: consignments, sender, receiver, carrier: { code: carriers.code, name: carriers.name, webUrl: carriers.webUrl, options: carriers.options } })
    .from(consignments)
    .leftJoin(sender, eq(sender.id, consignments.senderAddressId))
    .leftJoin(receiver, eq(receiver.id, consignments.receiverAddressId))
    .leftJoin(carrierAccounts, eq(carrierAccounts.id, consignments.carrierAccountId))
    .leftJoin(carriers, eq(carriers.id, carrierAccounts.carrierId))
    .where(and(eq(consignments.id, id), trackingScope(user)));
  if (!row) throw notFound("Consignment");
  const c = row.consignment;
  // newest first, as the screen lists them (the key's leading column finds a consignment's events)
  const events = await db.select().from(trackingEvents).where(eq(trackingEvents.consignmentId, id)).orderBy(desc(trackingEvents.eventTime), desc(trackingEvents.id));
  const places = [row.sender, row.receiver];
  const points = await coordinatesOf(
    db,
    places.map((p) => ({ country: p?.country ?? "AUSTRALIA", postcode: p?.postcode ?? null, locality: p?.locality ?? null })),
  );
  const placed = (k: number): PlacedAddress | null => {
    const json = addressJson(places[k]);
    return json ? { ...json, latitude: points[k]?.latitude ?? null, longitude: points[k]?.longitude ?? null } : null;
  };
  const carrier = carrierOf(row.carrier);
  return {
    events: events.map(eventJson),
    metadata: {
      consignment_id: c.id,
      site_id: c.siteId,
      consignment_number: c.consignmentNumber,
      consignment_state: c.state,
      is_quote: c.isQuote,
      active: c.active,
      carrier_name: carrier?.name ?? null,
      carrier_code: carrier?.code ?? null,
      estimated_delivery_date: c.estimatedDeliveryDate,
      sender_address: placed(0),
      receiver_address: placed(1),
      web_url: carrier ? adapterFor(carrier).trackingUrl(c.consignmentNumber) : null,
      pod_url: events.find((e) => e.podUrl)?.podUrl ?? null,
      ...(await emissionsFor(db, c.id)),
    },
  };
}

export const NO_CARRIER_WEBSITE = "The carrier of this consignment has no tracking website.";

/** GET /api/external_tracking/{consignment_id}: the carrier's page for this consignment (the Carrier Website button). */
export async function externalTracking(db: DbOrTx, user: CurrentUser, id: number): Promise<{ url: string }> {
  const [row] = await db
    .select({ number: consignments.consignmentNumber, carrier: { code: carriers.code, name: carriers.name, webUrl: carriers.webUrl, options: carriers.options } })
    .from(consignments)
    .leftJoin(carrierAccounts, eq(carrierAccounts.id, consignments.carrierAccountId))
    .leftJoin(carriers, eq(carriers.id, carrierAccounts.carrierId))
    .where(and(eq(consignments.id, id), trackingScope(user)));
  if (!row) throw notFound("Consignment");
  const carrier = carrierOf(row.carrier);
  const url = carrier ? adapterFor(carrier).trackingUrl(row.number) : null;
  if (!url) throw new AppError("not_found", NO_CARRIER_WEBSITE);
  return { url };
}
