import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SCHEDULE_DAYS, SCHEDULE_HOURS, SCHEDULE_TIME_ZONES, earliestScheduleDate, localDate, localInstant, nextRunAt, scheduleSchema, type ScheduleTiming } from "./schedule";

const iso = (d: Date | null) => d?.toISOString() ?? null;
const weekly = (day: ScheduleTiming["day"], hour: string, time_zone: ScheduleTiming["time_zone"]): ScheduleTiming => ({ period: "WEEKLY", day, hour, time_zone });
/** local wall clock of an instant, to check what a run reads as where it runs */
const wall = (at: Date, timeZone: string) =>
  new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short" }).format(at);

describe("localInstant", () => {
  it("an ordinary time on either side of the offset change", () => {
    expect(iso(localInstant("2026-03-02", "09:00", "Australia/Sydney"))).toBe("2026-03-01T22:00:00.000Z"); // AEDT +11
    expect(iso(localInstant("2026-06-01", "09:00", "Australia/Sydney"))).toBe("2026-05-31T23:00:00.000Z"); // AEST +10
    expect(iso(localInstant("2026-06-01", "09:00", "Australia/Adelaide"))).toBe("2026-05-31T23:30:00.000Z"); // ACST +9:30
  });

  it("a skipped time (02:30 on the spring-forward day) runs at 03:30 by the new clock", () => {
    expect(iso(localInstant("2026-10-04", "02:30", "Australia/Sydney"))).toBe("2026-10-03T16:30:00.000Z");
    expect(iso(localInstant("2026-10-04", "02:00", "Australia/Sydney"))).toBe("2026-10-03T16:00:00.000Z");
    expect(iso(localInstant("2026-10-04", "01:30", "Australia/Sydney"))).toBe("2026-10-03T15:30:00.000Z"); // still AEST
    expect(iso(localInstant("2026-10-04", "02:30", "Australia/Adelaide"))).toBe("2026-10-03T17:00:00.000Z");
    expect(iso(localInstant("2026-09-27", "02:30", "Pacific/Auckland"))).toBe("2026-09-26T14:30:00.000Z");
    expect(wall(localInstant("2026-10-04", "02:30", "Australia/Sydney"), "Australia/Sydney")).toContain("03:30");
  });

  it("a repeated time (02:30 on the autumn day) is its first occurrence, in daylight time", () => {
    expect(iso(localInstant("2026-04-05", "02:30", "Australia/Sydney"))).toBe("2026-04-04T15:30:00.000Z"); // AEDT, not 16:30Z AEST
    expect(iso(localInstant("2026-04-05", "02:30", "Australia/Adelaide"))).toBe("2026-04-04T16:00:00.000Z");
    expect(iso(localInstant("2026-04-05", "02:30", "Pacific/Auckland"))).toBe("2026-04-04T13:30:00.000Z");
  });

  it("Brisbane keeps +10 all year", () => {
    expect(iso(localInstant("2026-10-04", "02:30", "Australia/Brisbane"))).toBe("2026-10-03T16:30:00.000Z");
    expect(iso(localInstant("2026-04-05", "02:30", "Australia/Brisbane"))).toBe("2026-04-04T16:30:00.000Z");
  });
});

describe("nextRunAt: weekly", () => {
  it("the next Monday 09:00 Sydney, and the same wall time after the clocks go back", () => {
    const s = weekly("Monday", "09:00", "Australia/Sydney");
    const first = nextRunAt(s, new Date("2026-03-28T00:00:00Z"))!;
    expect(iso(first)).toBe("2026-03-29T22:00:00.000Z"); // Mon 30 Mar 09:00 AEDT
    const second = nextRunAt(s, first)!;
    expect(iso(second)).toBe("2026-04-05T23:00:00.000Z"); // Mon 6 Apr 09:00 AEST: 7 days and 1 hour later
    expect(wall(second, "Australia/Sydney")).toMatch(/2026-04-06, 09:00/);
  });

  it("today's time not yet come runs today; passed, next week; exactly now is not again", () => {
    const s = weekly("Wednesday", "17:30", "Australia/Brisbane");
    expect(iso(nextRunAt(s, new Date("2026-11-25T07:00:00Z")))).toBe("2026-11-25T07:30:00.000Z");
    expect(iso(nextRunAt(s, new Date("2026-11-25T07:30:00Z")))).toBe("2026-12-02T07:30:00.000Z");
    expect(iso(nextRunAt(s, new Date("2026-11-25T08:00:00Z")))).toBe("2026-12-02T07:30:00.000Z");
  });

  it("the local date decides the day, not UTC's: Monday 08:00 in Auckland is Sunday in UTC", () => {
    expect(iso(nextRunAt(weekly("Monday", "08:00", "Pacific/Auckland"), new Date("2026-11-22T00:00:00Z")))).toBe("2026-11-22T19:00:00.000Z");
  });

  for (const [zone, autumn, spring, skippedAt] of [
    ["Australia/Sydney", "2026-04-04T15:30:00.000Z", "2026-10-03T16:30:00.000Z", "03:30"],
    ["Australia/Adelaide", "2026-04-04T16:00:00.000Z", "2026-10-03T17:00:00.000Z", "03:30"],
    ["Australia/Brisbane", "2026-04-04T16:30:00.000Z", "2026-10-03T16:30:00.000Z", "02:30"],
  ] as const) {
    it(`Sunday 02:30 in ${zone}: once on the autumn day, once (at ${skippedAt}) on the spring day`, () => {
      const s = weekly("Sunday", "02:30", zone);
      const a = nextRunAt(s, new Date("2026-04-01T00:00:00Z"))!;
      expect(iso(a)).toBe(autumn);
      const b = nextRunAt(s, a)!;
      expect(localDate(b, zone)).toBe("2026-04-12"); // the repeated 02:30 did not run a second time
      expect(wall(b, zone)).toContain("02:30");
      const c = nextRunAt(s, new Date("2026-10-01T00:00:00Z"))!;
      expect(iso(c)).toBe(spring);
      expect(wall(c, zone)).toContain(skippedAt);
      expect(localDate(nextRunAt(s, c)!, zone)).toBe("2026-10-11");
    });
  }

  it("Sunday 02:30 in Pacific/Auckland across its own days (5 April, 27 September)", () => {
    const s = weekly("Sunday", "02:30", "Pacific/Auckland");
    const a = nextRunAt(s, new Date("2026-04-01T00:00:00Z"))!;
    expect(iso(a)).toBe("2026-04-04T13:30:00.000Z");
    expect(iso(nextRunAt(s, a))).toBe("2026-04-11T14:30:00.000Z");
    expect(iso(nextRunAt(s, new Date("2026-09-24T00:00:00Z")))).toBe("2026-09-26T14:30:00.000Z");
  });

  it("property: every run is at its day and hour (or the hour after a skipped time), one a week, strictly later each time", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SCHEDULE_TIME_ZONES),
        fc.constantFrom(...SCHEDULE_DAYS),
        fc.constantFrom(...SCHEDULE_HOURS),
        fc.integer({ min: Date.parse("2026-01-01T00:00:00Z"), max: Date.parse("2027-12-31T00:00:00Z") }),
        (zone, day, hour, start) => {
          const s = weekly(day, hour, zone);
          let prev = new Date(start);
          const dates: string[] = [];
          for (let i = 0; i < 3; i++) {
            const next = nextRunAt(s, prev)!;
            expect(next.getTime()).toBeGreaterThan(prev.getTime());
            const date = localDate(next, zone);
            expect(new Date(`${date}T00:00:00Z`).getUTCDay()).toBe((SCHEDULE_DAYS.indexOf(day) + 1) % 7);
            const shown = wall(next, zone);
            const [h, m] = hour.split(":").map(Number) as [number, number];
            const later = `${String(h + 1).padStart(2, "0")}:${String(m).padStart(2, "0")}`;
            expect(shown.includes(hour) || shown.includes(later)).toBe(true);
            dates.push(date);
            prev = next;
          }
          expect(new Set(dates).size).toBe(3);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("nextRunAt: once", () => {
  it("at its date and hour, null once run or past", () => {
    const s: ScheduleTiming = { period: "ONCE", date: "2026-12-01", hour: "10:00", time_zone: "Australia/Perth" };
    expect(iso(nextRunAt(s, new Date("2026-11-25T00:00:00Z")))).toBe("2026-12-01T02:00:00.000Z");
    expect(nextRunAt(s, new Date("2026-12-01T02:00:00Z"))).toBeNull();
    expect(nextRunAt(s, new Date("2026-11-25T00:00:00Z"), new Date("2026-11-26T00:00:00Z"))).toBeNull();
  });

  it("without a date, the next of its day; never again after it ran", () => {
    const s: ScheduleTiming = { period: "ONCE", day: "Friday", hour: "16:00", time_zone: "Australia/Darwin" };
    expect(iso(nextRunAt(s, new Date("2026-11-25T00:00:00Z")))).toBe("2026-11-27T06:30:00.000Z");
    expect(nextRunAt(s, new Date("2026-11-28T00:00:00Z"), new Date("2026-11-27T06:30:00Z"))).toBeNull();
  });
});

describe("earliestScheduleDate", () => {
  it("is today where the offered zones are furthest behind (Perth), not UTC's today nor the reader's", () => {
    // 20:00 UTC on 28 November: 04:00 on the 29th in Perth, later elsewhere; UTC's 28th has passed in every offered zone
    expect(earliestScheduleDate(new Date("2026-11-28T20:00:00Z"))).toBe("2026-11-29");
    // 12:00 UTC: already the 29th in Auckland, still the 28th in Perth
    expect(earliestScheduleDate(new Date("2026-11-28T12:00:00Z"))).toBe("2026-11-28");
    // a reader in Los Angeles at 17:00 on the 28th (01:00 UTC on the 29th): Perth's 09:00 on the 29th
    expect(earliestScheduleDate(new Date("2026-11-29T01:00:00Z"))).toBe("2026-11-29");
  });
});

describe("scheduleSchema", () => {
  const body = (period: string, invoicing_options: Record<string, unknown>) => ({ period, options: { invoice_detail_ids: [1, 2], invoicing_options } });

  it("accepts the spec's choices", () => {
    expect(scheduleSchema.safeParse(body("WEEKLY", { day: "Monday", hour: "09:30", time_zone: "Australia/Hobart" })).success).toBe(true);
    expect(scheduleSchema.safeParse(body("ONCE", { date: "2026-12-01", hour: "00:00", time_zone: "Pacific/Auckland" })).success).toBe(true);
  });

  it("refuses other steps, zones, periods, and a weekly run without a day", () => {
    const issue = (b: unknown) => scheduleSchema.safeParse(b).error?.issues[0]?.message;
    expect(issue(body("WEEKLY", { day: "Monday", hour: "09:15", time_zone: "Australia/Sydney" }))).toBe("Must be a time in 30-minute steps (HH:MM)");
    expect(issue(body("WEEKLY", { day: "Monday", hour: "09:00", time_zone: "Europe/London" }))).toMatch(/^Must be one of Australia\/Sydney/);
    expect(issue(body("DAILY", { day: "Monday", hour: "09:00", time_zone: "Australia/Sydney" }))).toBe("Must be ONCE or WEEKLY");
    expect(issue(body("WEEKLY", { hour: "09:00", time_zone: "Australia/Sydney" }))).toBe("Choose a day.");
    expect(issue(body("ONCE", { hour: "09:00", time_zone: "Australia/Sydney" }))).toBe("Choose a day.");
    expect(issue({ period: "ONCE", options: { invoice_detail_ids: [], invoicing_options: { day: "Monday", hour: "09:00", time_zone: "Australia/Sydney" } } })).toBe("Choose at least one line.");
  });
});
