import { describe, expect, it } from "vitest";
import { CONSIGNMENT_STATES, type ConsignmentState } from "../../../db/schema/consignments";
import { applyEvents, type TrackedEvent } from "./rules";
import { TRACKING_EVENTS, type TrackingEvent } from "./states";

const at = (minute: number) => new Date(Date.UTC(2026, 4, 4, 8, minute));
const ev = (event: TrackingEvent, minute: number, carrierEvent: string = event): TrackedEvent => ({ event, carrierEvent, eventTime: at(minute) });

/** The despatched group and how far along each is, written out by hand (spec 1 section 4). */
const ORDER: Record<string, number> = {
  despatched: 0,
  booked: 1,
  picked_up: 2,
  in_transit: 3,
  on_board_for_delivery: 4,
  partial_delivery: 4,
  failed_delivery: 4,
  delivered: 5,
  delivered_with_pod: 6,
};
const UNTRACKED = CONSIGNMENT_STATES.filter((s) => !(s in ORDER));

describe("tracking events and states", () => {
  it("knows the eight events of the despatched group", () => {
    expect([...TRACKING_EVENTS].sort()).toEqual(Object.keys(ORDER).filter((s) => s !== "despatched").sort());
    expect(UNTRACKED.sort()).toEqual(
      ["open", "despatchable", "quote", "despatching", "despatch_processing", "cancelling", "cancelled", "despatch_failure", "permanently_failed", "merged", "deleted"].sort(),
    );
  });

  // every tracked state meets every event, with nothing stored that set the state
  for (const state of Object.keys(ORDER) as ConsignmentState[]) {
    for (const event of TRACKING_EVENTS) {
      const forward = ORDER[event]! >= ORDER[state]!;
      it(`${state} + ${event}: ${forward ? `moves to ${event}` : `stays ${state}`}`, () => {
        const d = applyEvents(state, [], [ev(event, 10)]);
        expect(d.outcomes).toEqual([forward ? "applied" : "older_than_current_state"]);
        expect(d.state).toBe(forward ? event : state);
        // stored either way: a late event is history
        expect(d.store).toEqual([0]);
      });
    }
  }

  for (const state of UNTRACKED) {
    it(`${state}: events are stored and the state is left alone`, () => {
      const d = applyEvents(state, [], [ev("picked_up", 1), ev("delivered", 2)]);
      expect(d.outcomes).toEqual(["not_tracked", "not_tracked"]);
      expect(d.store).toEqual([0, 1]);
      expect(d.state).toBe(state);
    });
  }

  it("follows a journey received in order", () => {
    const journey = [ev("booked", 1), ev("picked_up", 2), ev("in_transit", 3, "ARR DANDENONG"), ev("in_transit", 4, "ARR ALBURY"), ev("on_board_for_delivery", 5), ev("delivered_with_pod", 6)];
    const d = applyEvents("despatched", [], journey);
    expect(d.outcomes).toEqual(Array(6).fill("applied"));
    expect(d.state).toBe("delivered_with_pod");
  });

  it("never moves backwards: a late in_transit after delivered is stored, the state stays delivered", () => {
    const stored = [ev("picked_up", 1), ev("delivered", 9)];
    const d = applyEvents("delivered", stored, [ev("in_transit", 5)]);
    expect(d.outcomes).toEqual(["older_than_current_state"]);
    expect(d.store).toEqual([0]);
    expect(d.state).toBe("delivered");
    // even when the carrier's clock puts the in_transit after the delivery
    expect(applyEvents("delivered", stored, [ev("in_transit", 30)]).state).toBe("delivered");
  });

  it("ends in the same state whatever order and batches the events arrive in", () => {
    const events = [ev("picked_up", 2), ev("in_transit", 3), ev("on_board_for_delivery", 5), ev("failed_delivery", 6), ev("on_board_for_delivery", 20, "OFD2"), ev("in_transit", 7, "RTD"), ev("delivered_with_pod", 21)];
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let round = 0; round < 200; round++) {
      const shuffled = [...events].sort(() => random() - 0.5);
      let state: ConsignmentState = "despatched";
      const stored: TrackedEvent[] = [];
      for (let i = 0; i < shuffled.length; ) {
        const batch = shuffled.slice(i, (i += 1 + Math.floor(random() * 3)));
        const d = applyEvents(state, stored, batch);
        state = d.state;
        stored.push(...d.store.map((k) => batch[k]!));
      }
      expect(state).toBe("delivered_with_pod");
      // without the delivery: the newest attempt, the redelivery on board
      const withoutPod = shuffled.filter((e) => e.event !== "delivered_with_pod");
      expect(applyEvents("despatched", [], withoutPod).state).toBe("on_board_for_delivery");
    }
  });

  it("reports an event older than the state as such, and a newer one as applied", () => {
    const d = applyEvents("despatched", [], [ev("in_transit", 10), ev("picked_up", 5), ev("in_transit", 12, "ARR ALBURY"), ev("in_transit", 11, "ARR WODONGA")]);
    expect(d.outcomes).toEqual(["applied", "older_than_current_state", "applied", "older_than_current_state"]);
    expect(d.state).toBe("in_transit");
  });

  it("treats a redelivery after a failed delivery as progress, and an older attempt as history", () => {
    const stored = [ev("on_board_for_delivery", 10), ev("failed_delivery", 11)];
    expect(applyEvents("failed_delivery", stored, [ev("on_board_for_delivery", 30, "OFD2")])).toMatchObject({ outcomes: ["applied"], state: "on_board_for_delivery" });
    // an attempt older than the failure that set the state does not undo it
    expect(applyEvents("failed_delivery", stored, [ev("on_board_for_delivery", 9, "OFD0")])).toMatchObject({ outcomes: ["older_than_current_state"], state: "failed_delivery" });
    // a return to the depot (in transit) after the failure is behind it
    expect(applyEvents("failed_delivery", stored, [ev("in_transit", 40)])).toMatchObject({ outcomes: ["older_than_current_state"], state: "failed_delivery" });
    // a partial delivery then the rest delivered
    expect(applyEvents("partial_delivery", [ev("partial_delivery", 10)], [ev("delivered", 50)]).state).toBe("delivered");
  });

  it("ignores duplicates: the same carrier event and time, stored or earlier in the batch", () => {
    const stored = [ev("picked_up", 2, "PCK")];
    const d = applyEvents("picked_up", stored, [
      ev("picked_up", 2, "PCK"), // stored already
      ev("in_transit", 3, "ARR"),
      ev("in_transit", 3, "ARR"), // earlier in this batch
      ev("in_transit", 4, "ARR"), // same carrier event, another time: a new event
      ev("on_board_for_delivery", 4, "OFD"), // same time, another carrier event: a new event
      ev("delivered", 2, "PCK"), // same carrier event and time under another name: still the same event
    ]);
    expect(d.outcomes).toEqual(["duplicate", "applied", "duplicate", "applied", "applied", "duplicate"]);
    expect(d.store).toEqual([1, 3, 4]);
    expect(d.state).toBe("on_board_for_delivery");
  });

  it("breaks a tie of rank and time by journey order, so arrival order cannot decide", () => {
    const a = ev("on_board_for_delivery", 10, "A");
    const b = ev("failed_delivery", 10, "B");
    expect(applyEvents("in_transit", [], [a, b]).state).toBe("failed_delivery");
    expect(applyEvents("in_transit", [], [b, a]).state).toBe("failed_delivery");
  });
});
