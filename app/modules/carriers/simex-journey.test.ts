import { describe, expect, it } from "vitest";
import { distanceKm, planJourney, routePoints, type JourneyPlace } from "./simex-journey";

const melbourne: JourneyPlace = { name: "Melbourne DC", locality: "DANDENONG SOUTH", region: "VIC", latitude: -38.01, longitude: 145.21, timeZone: "Australia/Melbourne" };
const brisbane: JourneyPlace = { name: "Brisbane Hardware", locality: "WOOLLOONGABBA", region: "QLD", latitude: -27.49, longitude: 153.04, timeZone: "Australia/Brisbane" };
const depots: JourneyPlace[] = [
  { name: null, locality: "ALBURY", region: "NSW", latitude: -36.08, longitude: 146.92, timeZone: "Australia/Sydney" },
  { name: null, locality: "DUBBO", region: "NSW", latitude: -32.25, longitude: 148.6, timeZone: "Australia/Sydney" },
  { name: null, locality: "MOREE", region: "NSW", latitude: -29.47, longitude: 149.84, timeZone: "Australia/Sydney" },
];
const start = new Date("2026-07-06T00:00:00Z");
const HOUR = 3_600_000;

describe("the simulated carrier's journey", () => {
  it("spaces depots along the line, one per 400 km or so, between one and four", () => {
    expect(distanceKm(melbourne as never, brisbane as never)).toBeGreaterThan(1300);
    expect(distanceKm(melbourne as never, brisbane as never)).toBeLessThan(1450);
    const points = routePoints(melbourne as never, brisbane as never);
    expect(points).toHaveLength(3);
    // in order from the sender, strictly between the two ends
    expect(points.map((p) => p.latitude)).toEqual([...points.map((p) => p.latitude)].sort((a, b) => a - b));
    expect(points.every((p) => p.latitude > -38.01 && p.latitude < -27.49)).toBe(true);
    expect(routePoints(melbourne as never, { latitude: -37.9, longitude: 145.1 })).toHaveLength(1);
    expect(routePoints({ latitude: -31.95, longitude: 115.86 }, { latitude: -16.92, longitude: 145.77 })).toHaveLength(4);
  });

  it("picks up, passes the depots, goes on board and delivers with a proof of delivery at the end", () => {
    const plan = planJourney({ start, durationMs: 48 * HOUR, failDelivery: false, sender: melbourne, receiver: brisbane, waypoints: depots });
    expect(plan.map((e) => [e.event, e.carrier_event])).toEqual([
      ["picked_up", "PCK"],
      ["in_transit", "ARR"],
      ["in_transit", "ARR"],
      ["in_transit", "ARR"],
      ["on_board_for_delivery", "OFD"],
      ["delivered_with_pod", "POD"],
    ]);
    expect(plan[1]!.message).toBe("In transit: arrived at ALBURY NSW depot");
    expect([plan[1]!.latitude, plan[1]!.longitude]).toEqual([-36.08, 146.92]);
    expect(plan.at(-1)).toMatchObject({ pod: true, message: "Delivered to Brisbane Hardware; signed for by Brisbane Hardware", latitude: -27.49 });
    expect(plan.filter((e) => e.pod)).toHaveLength(1);
    // delivered when the journey ends, written at the receiver's offset (Brisbane: +10:00, no daylight saving)
    expect(plan.at(-1)!.event_time).toBe("2026-07-08T10:00:00+10:00");
    expect(new Date(plan.at(-1)!.event_time).getTime()).toBe(start.getTime() + 48 * HOUR);
    const times = plan.map((e) => new Date(e.event_time).getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it("makes a failed delivery a real path: the attempt fails, the goods go out again, then are delivered", () => {
    const plan = planJourney({ start, durationMs: 10 * HOUR, failDelivery: true, sender: melbourne, receiver: brisbane, waypoints: depots.slice(0, 1) });
    expect(plan.map((e) => e.event)).toEqual(["picked_up", "in_transit", "on_board_for_delivery", "failed_delivery", "on_board_for_delivery", "delivered_with_pod"]);
    // the two attempts are two events (same code, other times)
    expect(new Set(plan.map((e) => `${e.carrier_event}|${e.event_time}`)).size).toBe(plan.length);
  });

  it("keeps a journey squeezed to no time in order, a second apart", () => {
    const plan = planJourney({ start, durationMs: 0, failDelivery: true, sender: melbourne, receiver: brisbane, waypoints: depots });
    const times = plan.map((e) => new Date(e.event_time).getTime());
    times.slice(1).forEach((t, i) => expect(t - times[i]!).toBe(1000));
  });
});
