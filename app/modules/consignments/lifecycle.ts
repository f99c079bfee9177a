/**
 * The consignment state machine (spec 1 section 4; DESIGN "Consignment lifecycle"). Every change
 * of state goes through `transition`, which answers the new state or refuses with a clear error.
 * Tracking events after despatch (picked_up ... delivered_with_pod) are transitions too: each
 * moves a despatched consignment forward in the journey only (tracking/states.ts ranks them);
 * which of several events is the latest word is the tracking rules' (tracking/rules.ts).
 */
import type { ConsignmentState } from "../../../db/schema/consignments";
import { AppError } from "../../utils/errors";
import { DESPATCHED_STATES, FAILED_STATES } from "./rules";
import { TRACKED_STATES, TRACKING_EVENTS, TRACKING_RANK, type TrackingEvent } from "../tracking/states";

export type LifecycleEvent =
  | "complete"
  | "incomplete"
  | "promote_complete"
  | "promote_incomplete"
  | "merge"
  | "delete"
  | "despatch"
  | "despatch_succeeded"
  | "despatch_failed"
  | "despatch_abandoned"
  | "redespatch"
  | "cancel_pending"
  | "cancel_confirmed"
  | "confirm_cancel"
  | TrackingTransition;

/** A carrier's tracking event as a lifecycle event: `track_in_transit` moves to in_transit. */
export type TrackingTransition = `track_${TrackingEvent}`;
export const trackingTransition = (event: TrackingEvent): TrackingTransition => `track_${event}`;

const ENTRY: readonly ConsignmentState[] = ["open", "despatchable"];
/** despatched and later, but not while a despatch is still running */
const CANCELLABLE = DESPATCHED_STATES.filter((s) => s !== "despatching" && s !== "despatch_processing");

interface Transition {
  from: readonly ConsignmentState[];
  to: ConsignmentState;
  verb: string;
}

/** A carrier's event: from despatched and every tracking state not further along than it (never backwards). */
function trackingTransitions() {
  const out = {} as Record<TrackingTransition, Transition>;
  for (const event of TRACKING_EVENTS) {
    out[trackingTransition(event)] = { from: TRACKED_STATES.filter((s) => TRACKING_RANK[s] <= TRACKING_RANK[event]), to: event, verb: `record ${event.replace(/_/g, " ")} for` };
  }
  return out;
}

/** From which states each event may happen, and the state it leads to. */
export const TRANSITIONS: Record<LifecycleEvent, Transition> = {
  complete: { from: ENTRY, to: "despatchable", verb: "save" },
  incomplete: { from: ENTRY, to: "open", verb: "save" },
  promote_complete: { from: ["quote"], to: "despatchable", verb: "promote" },
  promote_incomplete: { from: ["quote"], to: "open", verb: "promote" },
  merge: { from: ENTRY, to: "merged", verb: "merge" },
  delete: { from: [...ENTRY, "quote"], to: "deleted", verb: "delete" },
  despatch: { from: ["despatchable"], to: "despatching", verb: "despatch" },
  despatch_succeeded: { from: ["despatching"], to: "despatched", verb: "complete the despatch of" },
  despatch_failed: { from: ["despatching"], to: "despatch_failure", verb: "fail the despatch of" },
  // a despatch whose worker died before it reached a carrier: the consignment can be despatched again (decision 008)
  despatch_abandoned: { from: ["despatching"], to: "despatchable", verb: "give up the despatch of" },
  redespatch: { from: FAILED_STATES, to: "despatching", verb: "redespatch" },
  cancel_pending: { from: CANCELLABLE, to: "cancelling", verb: "cancel" },
  cancel_confirmed: { from: [...CANCELLABLE, "cancelling"], to: "cancelled", verb: "cancel" },
  confirm_cancel: { from: ["cancelling"], to: "cancelled", verb: "confirm the cancellation of" },
  ...trackingTransitions(),
};

export const canTransition = (state: ConsignmentState, event: LifecycleEvent) => TRANSITIONS[event].from.includes(state);

/** The state after `event`, or a conflict error naming what was refused. */
export function transition(state: ConsignmentState, event: LifecycleEvent): ConsignmentState {
  const t = TRANSITIONS[event];
  if (!t.from.includes(state)) {
    const message = `Cannot ${t.verb} a consignment that is ${state.replace(/_/g, " ")}`;
    throw new AppError("conflict", message, { base: [message] });
  }
  return t.to;
}
