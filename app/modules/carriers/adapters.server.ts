/**
 * Carrier adapters (DESIGN "Carriers"): one interface for what we ask of a carrier — take a
 * manifest, say when its manifest document is ready, cancel a consignment, give a tracking URL,
 * take despatched consignments into its tracking and give their events.
 * Built in: the generic adapter (despatch is local; cancellation is an e-mail to the account's
 * support address), Australia Post's (its manifest is ready only once the carrier has made it,
 * so it is polled), and a simulated carrier that can be told to fail, so the failure paths of
 * despatch, redespatch and cancellation are real. Real carrier APIs plug in behind this later.
 */
import type { Mailer } from "../mail/mailer.server";
import { journeyEvents, planJourneys } from "./simex-tracking.server";
import type { CancelResult, CarrierEvent, Simulation, TrackingContext, TrackingSubject } from "./tracking-types";

// the tracking types live below this file and the simulated journeys (tracking-types.ts); named here too for the callers
export type { CancelResult, CarrierEvent, Simulation, TrackingContext, TrackingPlace, TrackingSubject } from "./tracking-types";

export interface CarrierInfo {
  code: string;
  name: string;
  webUrl: string | null;
  options: Record<string, unknown>;
}

export interface ManifestForCarrier {
  number: string;
  accountNumber: string;
  consignments: { id: number; consignmentNumber: string; returnType: string | null }[];
}

export type DespatchOutcome = { ok: true; ready: boolean } | { ok: false; reason: string };

export interface CancelRequest {
  consignmentNumber: string | null;
  autoDelivered: boolean;
  supportEmail: string;
  customerName: string;
  requestedBy: string;
  mailer: Mailer;
}

export interface CarrierAdapter {
  despatchManifest(manifest: ManifestForCarrier): Promise<DespatchOutcome>;
  /** Whether the carrier's manifest document is ready to print: pending, ready or failed. */
  manifestStatus(manifestNumber: string): Promise<"pending" | "ready" | "failed">;
  cancel(request: CancelRequest): Promise<{ result: CancelResult; message?: string }>;
  trackingUrl(consignmentNumber: string | null): string | null;
  /**
   * Takes despatched consignments into the carrier's tracking (again is a no-op) and answers when
   * to ask for their events. A carrier that posts its events to POST /api/tracking_events (the
   * generic one: events are accepted, not fetched) answers none.
   */
  startTracking(ctx: TrackingContext, subjects: TrackingSubject[]): Promise<{ consignmentId: number; at: Date }[]>;
  /** Every event the carrier has for these consignments until ctx.now; the same again on every ask (replay). */
  fetchTrackingEvents(ctx: TrackingContext, subjects: TrackingSubject[]): Promise<CarrierEvent[]>;
  /** Books a pickup (spec 2 "Booking"): answers the carrier's booking number, or why it was refused. */
  bookPickup(request: PickupRequest): Promise<BookingOutcome>;
}

/** The generic carrier's cancellation: an e-mail to the account's support address. */
async function cancelByEmail(carrier: CarrierInfo, request: CancelRequest): Promise<{ result: CancelResult }> {
  if (request.autoDelivered) return { result: "cancel_confirmed_for_auto_delivered" };
  await request.mailer.send({
    to: request.supportEmail,
    subject: `Cancellation request: consignment ${request.consignmentNumber ?? ""}`.trim(),
    text: [
      `${request.customerName} asks ${carrier.name} to cancel consignment ${request.consignmentNumber ?? "(no number)"}.`,
      `Requested by ${request.requestedBy}.`,
      "Please do not collect or deliver it, and reply to confirm.",
    ].join("\n"),
  });
  return { result: "cancel_confirmed" };
}

function trackingUrlOf(carrier: CarrierInfo, number: string | null) {
  if (!carrier.webUrl || !number) return null;
  const url = new URL(carrier.webUrl);
  url.searchParams.set("id", number);
  return url.toString();
}

// ---------------------------------------------------------------------------------------------
// Pickup bookings (issue 17 item 5)

export interface PickupRequest {
  bookingId: number;
  /** the pickup day (YYYY-MM-DD) and window (HH:MM) at the site */
  bookingDate: string;
  readyAt: string;
  closingAt: string;
  /** the account's booking e-mail, else its support e-mail, else the carrier's */
  bookingEmail: string | null;
  accountNumber: string | null;
  customerName: string;
  siteName: string;
  siteAddress: string;
  serviceName: string;
  consignmentNumbers: string[];
  totalItems: number;
  totalWeight: number;
  hazardousGoods: boolean;
  additionalItems: Record<string, unknown>[];
  specialRequirements: string | null;
  mailer: Mailer;
}

export type BookingOutcome = { ok: true; bookingNumber: string } | { ok: false; reason: string; permanent: boolean };

/** The local booking number of a carrier booked by e-mail. */
export const localBookingNumber = (bookingId: number) => `BK${String(bookingId).padStart(7, "0")}`;

/** The generic carrier's booking: an e-mail to its booking address, numbered locally. */
async function bookByEmail(carrier: CarrierInfo, r: PickupRequest): Promise<BookingOutcome> {
  if (!r.bookingEmail) return { ok: false, reason: `${carrier.name} has no booking or support e-mail address for this site's account.`, permanent: true };
  const number = localBookingNumber(r.bookingId);
  const items = r.additionalItems.map((i) => `  ${i.quantity} x ${i.type} ${i.length}x${i.width}x${i.height} ${i.weight_in_uom}${i.un_number ? ` DG UN${i.un_number} class ${i.hazard_class} ${i.proper_shipping_name}` : ""}`);
  await r.mailer.send({
    to: r.bookingEmail,
    subject: `Pickup booking ${number}: ${r.customerName}, ${r.siteName} on ${r.bookingDate}`,
    text: [
      `${r.customerName} books a ${carrier.name} ${r.serviceName} pickup${r.accountNumber ? ` on account ${r.accountNumber}` : ""}.`,
      `Booking number: ${number}`,
      `Pickup from: ${r.siteName}, ${r.siteAddress}`,
      `Date: ${r.bookingDate}, ready at ${r.readyAt}, closing at ${r.closingAt}`,
      `Consignments (${r.consignmentNumbers.length}): ${r.consignmentNumbers.join(", ") || "none"}`,
      `Items: ${r.totalItems}, weight ${r.totalWeight} kg${r.hazardousGoods ? ", includes dangerous goods" : ""}`,
      ...(items.length ? ["Additional items:", ...items] : []),
      ...(r.specialRequirements ? [`Special requirements: ${r.specialRequirements}`] : []),
    ].join("\n"),
  });
  return { ok: true, bookingNumber: number };
}

/** The simulated carrier's booking: its own number, or a refusal when told to (for the failure paths). */
function simulatedBooking(carrier: CarrierInfo, simulation: Simulation) {
  return async (r: PickupRequest): Promise<BookingOutcome> => {
    if (simulation.fail_booking_permanently) return { ok: false, reason: `${carrier.name} cannot collect from this address (simulated permanent failure)`, permanent: true };
    if (simulation.fail_booking) return { ok: false, reason: `${carrier.name} refused pickup booking ${r.bookingId} (simulated failure)`, permanent: false };
    return { ok: true, bookingNumber: `SXB${String(r.bookingId).padStart(6, "0")}` };
  };
}

function generic(carrier: CarrierInfo): CarrierAdapter {
  return {
    async despatchManifest() {
      return { ok: true, ready: true };
    },
    async manifestStatus() {
      return "ready";
    },
    cancel: (request) => cancelByEmail(carrier, request),
    trackingUrl: (number) => trackingUrlOf(carrier, number),
    // its events are posted to POST /api/tracking_events: nothing to ask it
    startTracking: async () => [],
    fetchTrackingEvents: async () => [],
    bookPickup: (request) => bookByEmail(carrier, request),
  };
}

/** Australia Post makes the manifest itself: despatched separately, its manifest printed once ready. */
function auspost(carrier: CarrierInfo): CarrierAdapter {
  return {
    ...generic(carrier),
    async despatchManifest() {
      return { ok: true, ready: false };
    },
    // the local stand-in has the manifest ready at the first ask; a real API answers pending for a while
    async manifestStatus() {
      return "ready";
    },
  };
}

function simulated(carrier: CarrierInfo): CarrierAdapter {
  const simulation = (carrier.options.simulate ?? {}) as Simulation;
  return {
    ...generic(carrier),
    async despatchManifest(manifest) {
      if (simulation.delay_ms) await new Promise((resolve) => setTimeout(resolve, simulation.delay_ms));
      if (simulation.fail_despatch) return { ok: false, reason: `${carrier.name} refused manifest ${manifest.number} (simulated failure)` };
      return { ok: true, ready: true };
    },
    async cancel(request) {
      const result = simulation.cancel_result ?? "cancel_pending";
      if (result === "cancel_rejected") return { result, message: simulation.reject_message ?? `${carrier.name} cannot cancel a consignment that has been collected.` };
      if (result === "cancel_confirmed") return cancelByEmail(carrier, request);
      return { result };
    },
    // it plans a journey at despatch and answers from it (simex-tracking.server.ts)
    startTracking: (ctx, subjects) => planJourneys(ctx, simulation, subjects),
    fetchTrackingEvents: (ctx, subjects) => journeyEvents(ctx, subjects),
    bookPickup: simulatedBooking(carrier, simulation),
  };
}

export type AdapterKind = "generic" | "auspost" | "simulated";

/** The adapter of a carrier: named in its options (`adapter`), else by code. */
export function adapterKind(carrier: Pick<CarrierInfo, "code" | "options">): AdapterKind {
  const named = carrier.options.adapter;
  if (named === "simulated" || named === "auspost" || named === "generic") return named;
  return carrier.code.toLowerCase() === "auspost" ? "auspost" : "generic";
}

export function adapterFor(carrier: CarrierInfo): CarrierAdapter {
  const kind = adapterKind(carrier);
  return kind === "auspost" ? auspost(carrier) : kind === "simulated" ? simulated(carrier) : generic(carrier);
}
