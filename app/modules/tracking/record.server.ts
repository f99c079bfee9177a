/**
 * Storing carriers' tracking events and moving their consignments' states, set-wise (issue 14
 * item 1): one transaction per batch locks the consignments, reads what they already have, asks
 * the rules (rules.ts) what each new event does, then inserts the events, moves the states through
 * the lifecycle and writes their history in a handful of statements whatever the batch size. Both
 * roads in (POST /api/tracking_events and the adapters' fetch: journeys, replay) come here.
 */
import { asc, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import type { JobQueue } from "../../../queues/queue.server";
import { consignments, trackingEvents, type ConsignmentState } from "../../../db/schema";
import { rowsOf } from "../../utils/sql-rows";
import type { CarrierEvent } from "../carriers/adapters.server";
import { trackingTransition, transition } from "../consignments/lifecycle";
import { applyEvents, type Outcome, type TrackedEvent } from "./rules";
import { eventDateOf } from "./schema";
import { isTrackingEvent } from "./states";

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
    const locked = await tx.select({ id: consignments.id, state: consignments.state }).from(consignments).where(inArray(consignments.id, ids)).orderBy(asc(consignments.id)).for("update");
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
      const inserted = rowsOf<{ id: number; drawn: boolean }>(
        await tx.execute(sql`
          insert into tracking_events (consignment_id, event, carrier_event, event_time, event_date, message, latitude, longitude, images, pod_url, source)
          select x.c, x.e, x.ce, x.t, x.d, x.m, x.la, x.lo, coalesce(x.i, '[]'::jsonb), x.p, ${options.source}
          from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(c int, e text, ce text, t timestamptz, d date, m text, la float8, lo float8, i jsonb, p text)
          -- the rules found these new under lock; the key makes a duplicate a no-op even so
          on conflict do nothing
          returning id, pod_url = ${GENERATED} as drawn`),
      );
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
