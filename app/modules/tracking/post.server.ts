/**
 * POST /api/tracking_events (issue 14 item 1): carriers and integrators post events by
 * consignment number and are told what became of each. Staff reach every customer's
 * consignments; a user given can_post_tracking_events (a customer's own carrier feed) reaches
 * only their customer's, and others' numbers answer unknown_consignment, as numbers that do not
 * exist do, so a feed learns nothing of other customers.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { consignments, type ConsignmentState } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { authorize } from "../auth/guard.server";
import { canPostTrackingEvents, isAdmin } from "../auth/roles";
import { parseOrThrow } from "../../utils/validation";
import type { CarrierEvent } from "../carriers/adapters.server";
import { incomingOf, recordTrackingEvents, type IncomingEvent } from "./record.server";
import { OUTCOME_MESSAGES, OUTCOMES, type Outcome } from "./rules";
import { postEventsSchema, type PostedEvent } from "./schema";
import type { JobQueue } from "../jobs/queue";

export interface PostedOutcome {
  index: number;
  consignment_number: string;
  event: string;
  event_time: string;
  outcome: Outcome;
  message: string;
  /** the consignment's state after the whole post; absent for unknown numbers */
  state?: ConsignmentState;
}

export interface PostAnswer {
  results: PostedOutcome[];
  counts: Record<Outcome, number>;
}

/** A posted event as a carrier's event of a known consignment. */
const carrierEventOf = (e: PostedEvent, consignmentId: number): CarrierEvent => ({
  consignmentId,
  event: e.event,
  carrierEvent: e.carrier_event ?? e.event,
  eventTime: e.event_time,
  message: e.message,
  latitude: e.latitude ?? null,
  longitude: e.longitude ?? null,
  images: e.images ?? [],
  podUrl: e.pod_url ?? null,
});

/** The consignments these numbers name within `customerId` (every customer when null): number -> ids. */
async function resolveNumbers(db: DbOrTx, numbers: string[], customerId: number | null): Promise<Map<string, number[]>> {
  const rows = await db
    .select({ id: consignments.id, number: consignments.consignmentNumber })
    .from(consignments)
    .where(and(inArray(consignments.consignmentNumber, numbers), eq(consignments.active, true), eq(consignments.isQuote, false), customerId ? eq(consignments.customerId, customerId) : undefined));
  const out = new Map<string, number[]>();
  for (const r of rows) out.set(r.number!, [...(out.get(r.number!) ?? []), r.id]);
  return out;
}

export async function postTrackingEvents(db: DbOrTx, user: CurrentUser, raw: unknown, queue: JobQueue | null = null): Promise<PostAnswer> {
  authorize(user, canPostTrackingEvents);
  const { events } = parseOrThrow(postEventsSchema, raw);
  const idsOf = await resolveNumbers(db, [...new Set(events.map((e) => e.consignment_number))], isAdmin(user) ? null : user.homeCustomerId);

  const outcomes: Outcome[] = new Array(events.length);
  const known: { index: number; event: IncomingEvent }[] = [];
  events.forEach((e, index) => {
    const ids = idsOf.get(e.consignment_number) ?? [];
    if (ids.length === 1) known.push({ index, event: incomingOf(carrierEventOf(e, ids[0]!)) });
    else outcomes[index] = ids.length ? "ambiguous_consignment" : "unknown_consignment";
  });
  const recorded = await recordTrackingEvents(
    db,
    known.map((k) => k.event),
    { source: "api", userId: user.id, notify: queue },
  );
  known.forEach((k, i) => (outcomes[k.index] = recorded.outcomes[i]!));

  const counts = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  const results = events.map((e, index): PostedOutcome => {
    const outcome = outcomes[index]!;
    counts[outcome]++;
    const ids = idsOf.get(e.consignment_number);
    const state = ids?.length === 1 ? recorded.states.get(ids[0]!) : undefined;
    return { index, consignment_number: e.consignment_number, event: e.event, event_time: e.event_time, outcome, message: OUTCOME_MESSAGES[outcome], ...(state ? { state } : {}) };
  });
  return { results, counts };
}
