/**
 * Public tracking links (issue 14 item 5): `GET /api/create_tracktrace_url/{id}` answers the
 * consignment's link, `POST` replaces it (the old one stops working), and /track/{token} shows a
 * receiver the journey without signing in: the state, the estimated delivery date, the events and
 * the proof of delivery. Nothing else leaves here: no prices, no references, no ids, no other
 * consignment. The token is made with the consignment (db/schema/consignments.ts), so reading the
 * link writes nothing.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import { executePrepared, type DbOrTx } from "../../../db/client.server";
import { addresses, carrierAccounts, carriers, consignmentEmissions, consignments, sites, trackingEvents, type ConsignmentState } from "../../../db/schema";
import { NOT_COMPUTED } from "../emissions/method";
import type { CurrentUser } from "../auth/current-user.server";
import { localTime } from "../calendar/site-time";
import { formatDisplayDate } from "../calendar/display-date";
import { AppError, notFound } from "../../utils/errors";
import { drawnPod } from "./pod.server";
import { POD_ROUTE } from "./record.server";
import { LINK_NOT_FOUND, LINK_NOT_OFFERED, PUBLIC_TRACKING_PATH, linkOffered, publicTrackingUrl, stateWords, tokenOrNull } from "./public-link";
import { trackingScope } from "./scope";
import type { TrackingEvent } from "./states";
import { zoneOf } from "./subjects.server";

/** The consignment a signed-in user asks a link for: in their scope (else 404) and offered (else 409). */
async function linkable(db: DbOrTx, user: CurrentUser, id: number) {
  const [row] = await db
    .select({ state: consignments.state, isQuote: consignments.isQuote, active: consignments.active, token: consignments.publicTrackingToken })
    .from(consignments)
    .where(and(eq(consignments.id, id), trackingScope(user)));
  if (!row) throw notFound("Consignment");
  if (!linkOffered(row)) throw new AppError("conflict", LINK_NOT_OFFERED, { base: [LINK_NOT_OFFERED] });
  return row;
}

/** GET /api/create_tracktrace_url/{id}: the consignment's current public link. */
export async function trackingLinkFor(db: DbOrTx, user: CurrentUser, id: number, baseUrl: string): Promise<{ url: string }> {
  const row = await linkable(db, user, id);
  return { url: publicTrackingUrl(baseUrl, row.token) };
}

/** POST /api/create_tracktrace_url/{id}: a new link; whoever holds the old one now gets "not valid". */
export async function replaceTrackingLink(db: DbOrTx, user: CurrentUser, id: number, baseUrl: string): Promise<{ url: string }> {
  return db.transaction(async (tx) => {
    await linkable(tx, user, id);
    const [row] = await tx
      .update(consignments)
      .set({ publicTrackingToken: sql`gen_random_uuid()` })
      .where(eq(consignments.id, id))
      .returning({ token: consignments.publicTrackingToken });
    return { url: publicTrackingUrl(baseUrl, row!.token) };
  });
}

export interface PublicTrackingJson {
  consignment_number: string | null;
  carrier_name: string | null;
  state: string;
  /** DD/MM/YYYY (MM/DD/YYYY in the US), as the receiver's country writes dates */
  estimated_delivery_date: string | null;
  from: string;
  to: string;
  delivered: boolean;
  /** newest first; times where the receiver is */
  events: { at: string; status: string; message: string | null }[];
  /** the proof of delivery: drawn here (/track/{token}/pod) or the carrier's own page */
  pod_url: string | null;
  /** well-to-wheel kg CO2e and mode only: distance and weight would say more of the sender than the page may (docs/decisions/041) */
  emissions: { kg_co2e: number; mode: string } | null;
  emissions_reason: string | null;
}

const place = (a: { locality: string | null; region: string | null; postcode: string | null } | null) => [a?.locality, a?.region, a?.postcode].filter(Boolean).join(" ");

interface LinkedRow {
  id: number;
  number: string | null;
  state: ConsignmentState;
  is_quote: boolean;
  active: boolean;
  eta: string | null;
  site_zone: string | null;
  carrier_name: string | null;
  sender_name: string | null;
  sender_region: string | null;
  receiver_locality: string | null;
  receiver_region: string | null;
  receiver_postcode: string | null;
  receiver_country: string | null;
  receiver_zone: string | null;
  kg_co2e: string | null;
  emissions_mode: string | null;
  emissions_reason: string | null;
  /** newest first; event_time as JSON writes a timestamp */
  events: { event: TrackingEvent; event_time: string; message: string | null; pod_url: string | null }[] | null;
}

/**
 * The linked consignment with its events, in one statement: anyone may open the page as often as
 * they like, and a round trip per part cost more than the page itself (docs/performance.md).
 */
async function linkedConsignment(db: DbOrTx, tokenText: string | undefined, withEvents: boolean): Promise<LinkedRow & { token: string }> {
  const token = tokenOrNull(tokenText);
  if (!token) throw new AppError("not_found", LINK_NOT_FOUND);
  const [row] = await executePrepared<LinkedRow>(
    db,
    sql`
      select c.id, c.consignment_number as number, c.state, c.is_quote, c.active, c.estimated_delivery_date::text as eta,
        s.timezone as site_zone, cr.name as carrier_name,
        se.name as sender_name, se.region as sender_region,
        re.locality as receiver_locality, re.region as receiver_region, re.postcode as receiver_postcode, re.country as receiver_country, re.timezone as receiver_zone,
        ce.kg_co2e::text as kg_co2e, ce.mode as emissions_mode, ce.reason as emissions_reason,
        case when ${withEvents} then (
          select json_agg(json_build_object('event', e.event, 'event_time', e.event_time, 'message', e.message, 'pod_url', e.pod_url) order by e.event_time desc, e.id desc)
          from ${trackingEvents} e where e.consignment_id = c.id
        ) end as events
      from ${consignments} c
      join ${sites} s on s.id = c.site_id
      left join ${addresses} se on se.id = c.sender_address_id
      left join ${addresses} re on re.id = c.receiver_address_id
      left join ${carrierAccounts} ca on ca.id = c.carrier_account_id
      left join ${carriers} cr on cr.id = ca.carrier_id
      left join ${consignmentEmissions} ce on ce.consignment_id = c.id
      where c.public_tracking_token = ${token}`,
  );
  // a link of a consignment no longer offered (deleted, merged) reads like one that never was
  if (!row || !linkOffered({ state: row.state, isQuote: row.is_quote, active: row.active })) throw new AppError("not_found", LINK_NOT_FOUND);
  return { ...row, token };
}

/** The page at /track/{token}. */
export async function publicTracking(db: DbOrTx, tokenText: string | undefined): Promise<PublicTrackingJson> {
  const c = await linkedConsignment(db, tokenText, true);
  const events = c.events ?? [];
  const country = c.receiver_country ?? "AUSTRALIA";
  const zone = zoneOf({ timezone: c.receiver_zone, country, region: c.receiver_region }, c.site_zone);
  const pod = events.find((e) => e.pod_url)?.pod_url ?? null;
  return {
    consignment_number: c.number,
    carrier_name: c.carrier_name,
    state: stateWords(c.state),
    estimated_delivery_date: c.eta ? formatDisplayDate(c.eta, country) : null,
    // who it is from and the state it left: never the sender's suburb, postcode or street (docs/decisions/025-attack-run-ii.md)
    from: [c.sender_name, c.sender_region].filter(Boolean).join(", "),
    to: place({ locality: c.receiver_locality, region: c.receiver_region, postcode: c.receiver_postcode }),
    delivered: c.state === "delivered" || c.state === "delivered_with_pod",
    events: events.map((e) => ({ at: localTime(new Date(e.event_time), zone, country), status: stateWords(e.event), message: e.message })),
    // a drawn POD's own address needs a session: the link's page serves it instead
    pod_url: pod?.startsWith(POD_ROUTE) ? `${PUBLIC_TRACKING_PATH}${c.token}/pod` : pod,
    emissions: c.kg_co2e != null && c.emissions_mode ? { kg_co2e: Number(c.kg_co2e), mode: c.emissions_mode } : null,
    emissions_reason: c.kg_co2e != null ? null : (c.emissions_reason ?? NOT_COMPUTED),
  };
}

/** /track/{token}/pod: the newest proof of delivery the product drew for the linked consignment. */
export async function publicPod(db: DbOrTx, tokenText: string | undefined): Promise<string> {
  const c = await linkedConsignment(db, tokenText, false);
  const [latest] = await db
    .select({ id: trackingEvents.id, podUrl: trackingEvents.podUrl })
    .from(trackingEvents)
    .where(and(eq(trackingEvents.consignmentId, c.id), sql`${trackingEvents.podUrl} is not null`))
    .orderBy(desc(trackingEvents.eventTime), desc(trackingEvents.id))
    .limit(1);
  if (!latest) throw notFound("Proof of delivery");
  return drawnPod(db, latest.id, eq(consignments.id, c.id));
}
