/**
 * Storing carriers' tracking events and moving their consignments' states, set-wise (issue 14
 * item 1): one transaction per batch locks the consignments, reads what they already have, asks
 * the rules (rules.ts) what each new event does, then inserts the events, moves the states through
 * the lifecycle and writes their history in a handful of statements whatever the batch size. Both
 * roads in (POST /api/tracking_events and the adapters' fetch: journeys, replay) come here.
 */
import { asc, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import type { JobQueue } from "../jobs/queue";
import { consignments, trackingEvents, type ConsignmentState } from "../../../db/schema";
import { rowsOf } from "../../utils/sql-rows";
import type { CarrierEvent } from "../carriers/adapters.server";
import { trackingTransition, transition } from "../consignments/lifecycle";
import { applyEvents, type Outcome, type TrackedEvent } from "./rules";
import { eventDateOf } from "./schema";
import { isTrackingEvent } from "./states";
import type { TrackingEventJson } from "./track-trace.server";
import { emitEvents, type WebhookEvent } from "../webhooks/index.server";
import { env } from "../../utils/env.server";

export interface IncomingEvent extends TrackedEvent {
  consignmentId: number;
  /** the calendar date where it happened (schema.ts eventDateOf) */
  eventDate: string;
  message: string | null;
  latitude: number | null;
  longitude: number | null;
  images: string[];
  podUrl: string | null;
  /** a proof of delivery the product draws (the simulated carrier's): its pod_url becomes /api/pod/{id} */
  generatedPod?: boolean;
}

/** A carrier's event (fetched, or posted) as the writer takes it. */
export const incomingOf = (e: CarrierEvent): IncomingEvent => ({
  consignmentId: e.consignmentId,
  event: e.event,
  carrierEvent: e.carrierEvent,
  eventTime: new Date(e.eventTime),
  eventDate: eventDateOf(e.eventTime),
  message: e.message,
  latitude: e.latitude,
  longitude: e.longitude,
  images: e.images,
  podUrl: e.podUrl,
  generatedPod: e.generatedPod,
});

export interface StateChange {
  consignmentId: number;
  from: ConsignmentState;
  to: ConsignmentState;
  version: number;
}

export interface Recorded {
  /** per incoming event, in the order given */
  outcomes: Outcome[];
  /** each consignment's state after the batch */
  states: Map<number, ConsignmentState>;
  /** the consignments the batch moved (notifications start from these) */
  changes: StateChange[];
  /** how many events were stored */
  stored: number;
}

/** Where a drawn proof of delivery is served (app/routes/api+/pod.$id.ts): this and the event's id. */
export const POD_ROUTE = "/api/pod/";

/** rows per insert statement (a JSON parameter of a few hundred KB) */
const INSERT_CHUNK = 2000;

/**
 * Records `events` for consignments that exist (callers resolve numbers and scope first). A
 * consignment no longer there answers unknown_consignment. `userId` is who the history names
 * (null for a carrier's fetch run by a job).
 */
export async function recordTrackingEvents(
  db: DbOrTx,
  events: readonly IncomingEvent[],
  options: { source: "api" | "carrier"; userId: number | null; notify?: JobQueue | null },
): Promise<Recorded> {
  const outcomes: Outcome[] = new Array(events.length);
  const states = new Map<number, ConsignmentState>();
  if (!events.length) return { outcomes, states, changes: [], stored: 0 };
  const byConsignment = new Map<number, number[]>();
  events.forEach((e, i) => byConsignment.set(e.consignmentId, [...(byConsignment.get(e.consignmentId) ?? []), i]));
  const ids = [...byConsignment.keys()].sort((a, b) => a - b);

  return db.transaction(async (tx) => {
    // in id order, as every state change locks consignments: two batches (or a batch and a
    // despatch or cancel) touching the same consignments wait for each other, never deadlock
    const locked = await tx.select({ id: consignments.id, state: consignments.state, customerId: consignments.customerId, consignmentNumber: consignments.consignmentNumber }).from(consignments).where(inArray(consignments.id, ids)).orderBy(asc(consignments.id)).for("update");
    const stored = await tx
      .select({ consignmentId: trackingEvents.consignmentId, event: trackingEvents.event, carrierEvent: trackingEvents.carrierEvent, eventTime: trackingEvents.eventTime })
      .from(trackingEvents)
      .where(inArray(trackingEvents.consignmentId, ids));
    const storedOf = new Map<number, TrackedEvent[]>();
    for (const s of stored) if (isTrackingEvent(s.event)) storedOf.set(s.consignmentId, [...(storedOf.get(s.consignmentId) ?? []), s]);

    const toInsert: IncomingEvent[] = [];
    const moves: { id: number; from: ConsignmentState; to: ConsignmentState }[] = [];
    const found = new Set(locked.map((c) => c.id));
    for (const [id, indexes] of byConsignment) if (!found.has(id)) for (const i of indexes) outcomes[i] = "unknown_consignment";
    for (const c of locked) {
      const indexes = byConsignment.get(c.id)!;
      const decision = applyEvents(c.state, storedOf.get(c.id) ?? [], indexes.map((i) => events[i]!));
      decision.outcomes.forEach((o, k) => (outcomes[indexes[k]!] = o));
      for (const k of decision.store) toInsert.push(events[indexes[k]!]!);
      states.set(c.id, decision.state);
      if (decision.state !== c.state) {
        // the lifecycle refuses a backward move; the rules never ask for one
        transition(c.state, trackingTransition(decision.state as TrackedEvent["event"]));
        moves.push({ id: c.id, from: c.state, to: decision.state });
      }
    }

    const drawnPods: number[] = [];
    const storedIds: number[] = [];
    const storedRows: StoredEventRow[] = [];
    for (let i = 0; i < toInsert.length; i += INSERT_CHUNK) {
      // one parameter (a JSON array) for the whole chunk: binding thousands of parameters cost more than the insert
      const rows = toInsert.slice(i, i + INSERT_CHUNK).map((e) => ({
        c: e.consignmentId,
        e: e.event,
        ce: e.carrierEvent,
        t: e.eventTime.toISOString(),
        d: e.eventDate,
        m: e.message,
        la: e.latitude,
        lo: e.longitude,
        i: e.images,
        p: e.generatedPod ? GENERATED : e.podUrl,
      }));
      const inserted = rowsOf<StoredEventRow & { drawn: boolean }>(
        await tx.execute(sql`
          insert into tracking_events (consignment_id, event, carrier_event, event_time, event_date, message, latitude, longitude, images, pod_url, source)
          select x.c, x.e, x.ce, x.t, x.d, x.m, x.la, x.lo, coalesce(x.i, '[]'::jsonb), x.p, ${options.source}
          from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(c int, e text, ce text, t timestamptz, d date, m text, la float8, lo float8, i jsonb, p text)
          -- the rules found these new under lock; the key makes a duplicate a no-op even so
          on conflict do nothing
          returning id, consignment_id, event, carrier_event, event_time, event_date, message, latitude, longitude, images, pod_url, source, pod_url = ${GENERATED} as drawn`),
      );
      storedRows.push(...inserted);
      drawnPods.push(...inserted.filter((r) => r.drawn).map((r) => Number(r.id)));
      storedIds.push(...inserted.map((r) => Number(r.id)));
    }
    if (drawnPods.length) {
      await tx
        .update(trackingEvents)
        .set({ podUrl: sql`${POD_ROUTE} || ${trackingEvents.id}` })
        .where(inArray(trackingEvents.id, drawnPods));
    }

    const changes = await moveStates(tx, moves, options.userId);
    await emitTrackingEvents(tx, locked, storedRows, states);
    // the notifications these changes call for, queued with them: committed together or not at all
    if (options.notify && (changes.length || storedIds.length)) {
      await options.notify.enqueue("notifications.send", { changes: changes.map((c) => ({ consignmentId: c.consignmentId, state: c.to })), eventIds: storedIds }, { tx });
    }
    return { outcomes, states, changes, stored: toInsert.length };
  });
}

/** placeholder pod_url of a drawn proof of delivery until its id is known */
const GENERATED = "generated:pod";

/** The moves and their history in one statement, whatever their number. */
async function moveStates(tx: DbOrTx, moves: { id: number; from: ConsignmentState; to: ConsignmentState }[], userId: number | null): Promise<StateChange[]> {
  if (!moves.length) return [];
  const rows = rowsOf<{ consignment_id: number; version: number; from_value: ConsignmentState; to_value: ConsignmentState }>(
    await tx.execute(sql`
      with moved as (
        update consignments c set state = x.s, version = c.version + 1, updated_at = now()
        from jsonb_to_recordset(${JSON.stringify(moves.map((m) => ({ id: m.id, s: m.to, f: m.from })))}::jsonb) as x(id int, s text, f text)
        where c.id = x.id
        returning c.id, c.version, x.f, x.s
      )
      insert into consignment_changes (consignment_id, version, field, from_value, to_value, changed_by)
      select id, version, 'state', f, s, ${userId}::int from moved
      returning consignment_id, version, from_value, to_value`),
  );
  return rows.map((r) => ({ consignmentId: Number(r.consignment_id), from: r.from_value, to: r.to_value, version: Number(r.version) }));
}

/** A stored event as the insert answers it (raw: dates as the driver gives them). */
interface StoredEventRow {
  id: number;
  consignment_id: number;
  event: TrackingEventJson["event"];
  carrier_event: string;
  event_time: string | Date;
  event_date: string | Date;
  message: string | null;
  latitude: number | null;
  longitude: number | null;
  images: string[];
  pod_url: string | null;
  source: "api" | "carrier";
}

const storedEventJson = (r: StoredEventRow): TrackingEventJson => ({
  id: Number(r.id),
  event: r.event,
  carrier_event: r.carrier_event,
  event_time: new Date(r.event_time).toISOString(),
  event_date: r.event_date instanceof Date ? r.event_date.toISOString().slice(0, 10) : String(r.event_date).slice(0, 10),
  message: r.message,
  latitude: r.latitude == null ? null : Number(r.latitude),
  longitude: r.longitude == null ? null : Number(r.longitude),
  images: r.images ?? [],
  // a drawn proof of delivery's link is written after the insert (its id is in it)
  pod_url: r.pod_url === GENERATED ? `${POD_ROUTE}${r.id}` : r.pod_url,
  source: r.source,
});

/**
 * The batch's webhooks (docs/decisions/039), in its transaction: tracking.updated for each stored
 * event, in each consignment's order, and consignment.delivered (with the proof of delivery link)
 * after the events of a consignment the batch delivered. The event JSON is GET /api/track_trace's.
 */
async function emitTrackingEvents(
  tx: DbOrTx,
  locked: { id: number; state: ConsignmentState; customerId: number; consignmentNumber: string | null }[],
  stored: StoredEventRow[],
  states: Map<number, ConsignmentState>,
) {
  if (!stored.length) return;
  const byId = new Map(locked.map((c) => [c.id, c]));
  const events: WebhookEvent[] = [];
  const ordered = [...stored].sort((a, b) => Number(a.consignment_id) - Number(b.consignment_id) || Number(a.id) - Number(b.id));
  // the consignment's latest delivered event and proof of delivery so far
  let delivered: StoredEventRow | null = null;
  let pod: StoredEventRow | null = null;
  for (let i = 0; i < ordered.length; i++) {
    const row = ordered[i]!;
    const c = byId.get(Number(row.consignment_id))!;
    if (i === 0 || Number(ordered[i - 1]!.consignment_id) !== c.id) delivered = pod = null;
    if (DELIVERED.has(row.event)) delivered = row;
    if (row.pod_url) pod = row;
    const state = states.get(c.id) ?? c.state;
    const event = storedEventJson(row);
    const head = { consignment_id: c.id, consignment_number: c.consignmentNumber, state };
    events.push({ type: "tracking.updated", customerId: c.customerId, consignmentId: c.id, payload: { ...head, event } });
    const last = Number(ordered[i + 1]?.consignment_id) !== c.id;
    // the move into delivered (a later proof of delivery is a tracking.updated of its own)
    if (last && DELIVERED.has(state) && !DELIVERED.has(c.state)) {
      events.push({ type: "consignment.delivered", customerId: c.customerId, consignmentId: c.id, payload: { ...head, event: storedEventJson(delivered ?? row), pod_url: pod ? absolute(storedEventJson(pod).pod_url!) : null } });
    }
  }
  await emitEvents(tx, events);
}

const DELIVERED = new Set<string>(["delivered", "delivered_with_pod"]);

/** A link of ours (/api/pod/…) as the receiver can follow it; a carrier's link as it is. */
const absolute = (url: string) => (url.startsWith("/") ? `${env().APP_URL ?? ""}${url}` : url);
