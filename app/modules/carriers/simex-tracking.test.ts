import { describe, expect, it } from "vitest";
import type { TrackingSubject } from "./adapters.server";
import { journeyTimes } from "./simex-tracking.server";

const place = (timeZone: string) => ({ name: null, locality: null, region: null, postcode: null, country: "AUSTRALIA", latitude: null, longitude: null, timeZone });
const subject = (over: Partial<TrackingSubject>): TrackingSubject => ({
  consignmentId: 1,
  consignmentNumber: "SX1",
  despatchedAt: new Date("2026-07-06T01:00:00Z"), // Monday 11:00 in Melbourne
  despatchDate: "2026-07-08",
  estimatedDeliveryDate: "2026-07-09",
  sender: place("Australia/Melbourne"),
  receiver: place("Australia/Brisbane"),
  ...over,
});
const HOUR = 3_600_000;

describe("the simulated carrier's clock", () => {
  it("runs a sped-up journey from despatch, for journey_minutes", () => {
    expect(journeyTimes(subject({}), { journey_minutes: 3 })).toEqual({ start: new Date("2026-07-06T01:00:00Z"), durationMs: 3 * 60_000 });
    expect(journeyTimes(subject({}), { journey_minutes: 0 }).durationMs).toBe(0);
  });

  it("at the real pace collects on the despatch date's morning and delivers in the estimated delivery date's afternoon", () => {
    const t = journeyTimes(subject({}), {});
    // 08:00 on 8 July in Melbourne (+10:00) to 14:00 on 9 July in Brisbane (+10:00)
    expect(t.start.toISOString()).toBe("2026-07-07T22:00:00.000Z");
    expect(t.durationMs).toBe(30 * HOUR);
    // despatched after the morning of its despatch date: from despatch
    const late = journeyTimes(subject({ despatchDate: "2026-07-06" }), {});
    expect(late.start.toISOString()).toBe("2026-07-06T01:00:00.000Z");
    // a same-day delivery still takes a couple of hours; no estimate: the next day
    expect(journeyTimes(subject({ despatchedAt: new Date("2026-07-06T03:30:00Z"), despatchDate: "2026-07-06", estimatedDeliveryDate: "2026-07-06" }), {}).durationMs).toBe(2 * HOUR);
    expect(journeyTimes(subject({ estimatedDeliveryDate: null }), { journey_minutes: null }).durationMs).toBe(24 * HOUR);
  });
});
