import { describe, expect, it } from "vitest";
import { instantInZone, isoInZone, offsetMinutes } from "./zone-offset";

describe("times at a place's offset", () => {
  it("writes an instant at the zone's offset, across daylight saving", () => {
    // Melbourne: +11:00 in summer (AEDT), +10:00 in winter (AEST)
    expect(isoInZone(new Date("2026-01-15T12:30:00Z"), "Australia/Melbourne")).toBe("2026-01-15T23:30:00+11:00");
    expect(isoInZone(new Date("2026-07-15T13:30:00Z"), "Australia/Melbourne")).toBe("2026-07-15T23:30:00+10:00");
    expect(isoInZone(new Date("2026-07-15T13:30:00Z"), "Australia/Adelaide")).toBe("2026-07-15T23:00:00+09:30");
    expect(isoInZone(new Date("2026-07-15T03:00:00Z"), "America/Los_Angeles")).toBe("2026-07-14T20:00:00-07:00");
    expect(isoInZone(new Date("2026-07-15T03:00:00.999Z"), null)).toBe("2026-07-15T03:00:00+00:00");
    expect(offsetMinutes(new Date(), "Not/AZone")).toBe(0);
  });

  it("finds the instant of a wall-clock time in a zone", () => {
    expect(instantInZone("2026-05-05", "14:00", "Australia/Brisbane").toISOString()).toBe("2026-05-05T04:00:00.000Z");
    // the day Melbourne's clocks go back (5 April 2026, 03:00 -> 02:00): 14:00 is at +10:00
    expect(instantInZone("2026-04-05", "14:00", "Australia/Melbourne").toISOString()).toBe("2026-04-05T04:00:00.000Z");
    expect(instantInZone("2026-04-04", "14:00", "Australia/Melbourne").toISOString()).toBe("2026-04-04T03:00:00.000Z");
  });
});
