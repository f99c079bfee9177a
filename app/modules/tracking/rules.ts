/**
 * The event-to-state rules of track and trace (issue 14 item 1; spec 1 section 4). Pure: the
 * set-wise writer (apply.server.ts) reads a consignment's state and stored events under lock, asks
 * here what each new event does, and stores and moves what this says.
 *
 * - Duplicates are ignored: an event with the carrier event and time of one already stored (or
 *   earlier in the same batch) is not stored again.
 * - An event never moves a consignment backwards. Events are ordered by how far along the journey
 *   they say the consignment is (states.ts TRACKING_RANK), then by time: the consignment's state is
 *   the furthest, newest event it has. A late in_transit after delivered is stored and the state
 *   stays delivered. After failed_delivery, a newer on_board_for_delivery (the redelivery) moves
 *   it on: both are delivery attempts, one rank (docs/decisions/013).
 * - Because the state is the greatest of its events, the order events arrive in does not matter:
 *   the same events in any order and any batches end in the same state.
 * - Only consignments handed to a carrier (despatched and after) move; events for others (not yet
 *   despatched, being cancelled, cancelled) are stored, and their state is left alone.
 */
import type { ConsignmentState } from "../../../db/schema/consignments";
import { isTracked, TRACKING_EVENTS, TRACKING_RANK, type TrackingEvent } from "./states";

export interface TrackedEvent {
  event: TrackingEvent;
  /** the carrier's own code or wording for the event; with the time, what makes it unique */
  carrierEvent: string;
  eventTime: Date;
}

/** What became of one posted or fetched event (POST /api/tracking_events answers it per event). */
export const OUTCOMES = ["applied", "duplicate", "older_than_current_state", "not_tracked", "unknown_consignment", "ambiguous_consignment"] as const;
export type Outcome = (typeof OUTCOMES)[number];

export const OUTCOME_MESSAGES: Record<Outcome, string> = {
  applied: "Applied: the consignment's latest event.",
  duplicate: "Already received (same carrier event and time): ignored.",
  older_than_current_state: "Stored; the consignment is already further along, so its state is unchanged.",
  not_tracked: "Stored; the consignment is not despatched (or is cancelled), so its state is unchanged.",
  unknown_consignment: "No consignment with this number.",
  ambiguous_consignment: "Several consignments have this number: nothing was stored.",
};

interface Position {
  rank: number;
  time: number;
  /** ties of rank and time go to the event later in journey order, so the result never depends on arrival order */
  order: number;
}

const positionOf = (e: TrackedEvent): Position => ({ rank: TRACKING_RANK[e.event], time: e.eventTime.getTime(), order: TRACKING_EVENTS.indexOf(e.event) });
const compare = (a: Position, b: Position) => a.rank - b.rank || a.time - b.time || a.order - b.order;

/** What makes two events of one consignment the same: carrier event and time. */
export const eventKey = (e: Pick<TrackedEvent, "carrierEvent" | "eventTime">) => `${e.carrierEvent}\u0000${e.eventTime.getTime()}`;

/**
 * How far along a consignment in `state` is: its state's rank, at the time of the newest stored
 * event of that rank (the one that set it); null when events do not move it.
 */
function currentPosition(state: ConsignmentState, stored: readonly TrackedEvent[]): Position | null {
  if (!isTracked(state)) return null;
  let current: Position = { rank: TRACKING_RANK[state], time: -Infinity, order: -1 };
  for (const e of stored) {
    const p = positionOf(e);
    if (p.rank === current.rank && compare(p, current) > 0) current = p;
  }
  return current;
}

export interface Decision {
  /** per incoming event, in the order given */
  outcomes: Outcome[];
  /** indexes of the incoming events to store: all but the duplicates */
  store: number[];
  /** the consignment's state after these events (the one it had when none moves it) */
  state: ConsignmentState;
}

/**
 * What `incoming` events (in the order received) do to a consignment in `state` that already has
 * `stored` events.
 */
export function applyEvents(state: ConsignmentState, stored: readonly TrackedEvent[], incoming: readonly TrackedEvent[]): Decision {
  const seen = new Set(stored.map(eventKey));
  let current = currentPosition(state, stored);
  let next = state;
  const outcomes: Outcome[] = [];
  const store: number[] = [];
  incoming.forEach((e, i) => {
    const key = eventKey(e);
    if (seen.has(key)) {
      outcomes.push("duplicate");
      return;
    }
    seen.add(key);
    store.push(i);
    if (!current) {
      outcomes.push("not_tracked");
      return;
    }
    const p = positionOf(e);
    if (compare(p, current) > 0) {
      current = p;
      next = e.event;
      outcomes.push("applied");
    } else {
      outcomes.push("older_than_current_state");
    }
  });
  return { outcomes, store, state: next };
}
