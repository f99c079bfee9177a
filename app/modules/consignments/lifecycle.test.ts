import { describe, expect, it } from "vitest";
import { CONSIGNMENT_STATES, type ConsignmentState } from "../../../db/schema/consignments";
import { AppError } from "../../utils/errors";
import { canTransition, transition, TRANSITIONS, type LifecycleEvent } from "./lifecycle";

const BEFORE_DELIVERY = ["despatched", "booked", "picked_up", "in_transit"] as const;
const ATTEMPTS = ["on_board_for_delivery", "partial_delivery", "failed_delivery"] as const;
const to = (target: ConsignmentState, from: readonly ConsignmentState[]) => Object.fromEntries(from.map((s) => [s, target]));

/** The spec's transitions, written out by hand so the table cannot drift from them unnoticed. */
const ALLOWED: Record<LifecycleEvent, Partial<Record<ConsignmentState, ConsignmentState>>> = {
  complete: { open: "despatchable", despatchable: "despatchable" },
  incomplete: { open: "open", despatchable: "open" },
  promote_complete: { quote: "despatchable" },
  promote_incomplete: { quote: "open" },
  merge: { open: "merged", despatchable: "merged" },
  delete: { open: "deleted", despatchable: "deleted", quote: "deleted" },
  despatch: { despatchable: "despatching" },
  despatch_succeeded: { despatching: "despatched" },
  despatch_failed: { despatching: "despatch_failure" },
  despatch_abandoned: { despatching: "despatchable" },
  redespatch: { despatch_failure: "despatching", permanently_failed: "despatching" },
  cancel_pending: Object.fromEntries(
    (["despatched", "booked", "in_transit", "delivered", "delivered_with_pod", "partial_delivery", "failed_delivery", "on_board_for_delivery", "picked_up"] as const).map((s) => [s, "cancelling"]),
  ),
  cancel_confirmed: Object.fromEntries(
    (["despatched", "booked", "in_transit", "delivered", "delivered_with_pod", "partial_delivery", "failed_delivery", "on_board_for_delivery", "picked_up", "cancelling"] as const).map((s) => [s, "cancelled"]),
  ),
  confirm_cancel: { cancelling: "cancelled" },
  // a carrier's event moves a despatched consignment forward only; the delivery attempts
  // (on board, partial, failed) are one step, so a redelivery after a failed one is allowed
  track_booked: to("booked", ["despatched", "booked"]),
  track_picked_up: to("picked_up", ["despatched", "booked", "picked_up"]),
  track_in_transit: to("in_transit", ["despatched", "booked", "picked_up", "in_transit"]),
  track_on_board_for_delivery: to("on_board_for_delivery", [...BEFORE_DELIVERY, ...ATTEMPTS]),
  track_partial_delivery: to("partial_delivery", [...BEFORE_DELIVERY, ...ATTEMPTS]),
  track_failed_delivery: to("failed_delivery", [...BEFORE_DELIVERY, ...ATTEMPTS]),
  track_delivered: to("delivered", [...BEFORE_DELIVERY, ...ATTEMPTS, "delivered"]),
  track_delivered_with_pod: to("delivered_with_pod", [...BEFORE_DELIVERY, ...ATTEMPTS, "delivered", "delivered_with_pod"]),
};

describe("consignment state machine", () => {
  it("names every event the spec needs and no other", () => {
    expect(Object.keys(TRANSITIONS).sort()).toEqual(Object.keys(ALLOWED).sort());
  });

  for (const [event, allowed] of Object.entries(ALLOWED) as [LifecycleEvent, Partial<Record<ConsignmentState, ConsignmentState>>][]) {
    for (const state of CONSIGNMENT_STATES) {
      const to = allowed[state];
      if (to) {
        it(`${event}: ${state} -> ${to}`, () => {
          expect(canTransition(state, event)).toBe(true);
          expect(transition(state, event)).toBe(to);
        });
      } else {
        it(`${event}: refused from ${state}`, () => {
          expect(canTransition(state, event)).toBe(false);
          let error: unknown;
          try {
            transition(state, event);
          } catch (e) {
            error = e;
          }
          expect(error).toBeInstanceOf(AppError);
          expect((error as AppError).code).toBe("conflict");
          expect((error as AppError).message).toMatch(new RegExp(`^Cannot .+ a consignment that is ${state.replace(/_/g, " ")}$`));
        });
      }
    }
  }
});
