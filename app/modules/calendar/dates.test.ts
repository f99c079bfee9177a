import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonDepth } from "../../utils/bounded-json";
import { calendarDate, DESPATCH_DATE_PAST, DESPATCH_DATE_TOO_FAR, despatchDate, isRealDate, isRealDateTime, localDateTime, plusYears } from "./dates";
import { localTimeExists, skippedLocalTimes } from "./site-time";

const messages = (r: { success: boolean; error?: { issues: { message: string }[] } }) => (r.success ? [] : r.error!.issues.map((i) => i.message));

afterEach(() => vi.useRealTimers());

describe("real dates and times", () => {
  it("knows month lengths and leap years", () => {
    expect(isRealDate("2028-02-29")).toBe(true);
    expect(isRealDate("2026-02-29")).toBe(false);
    expect(isRealDate("2100-02-29")).toBe(false);
    expect(isRealDate("2000-02-29")).toBe(true);
    expect(isRealDate("2026-04-31")).toBe(false);
    expect(isRealDate("2026-00-10")).toBe(false);
  });

  it("takes hours 0-23 and minutes 0-59 only", () => {
    expect(isRealDateTime("2026-05-05 23:59")).toBe(true);
    expect(isRealDateTime("2026-05-05T00:00")).toBe(true);
    expect(isRealDateTime("2026-05-05 24:00")).toBe(false);
    expect(isRealDateTime("2026-05-05 10:60")).toBe(false);
    expect(isRealDateTime("2026-99-99 99:99")).toBe(false);
  });

  it("plusYears keeps the day, 29 February becoming 28", () => {
    expect(plusYears("2028-02-29", 1)).toBe("2029-02-28");
    expect(plusYears("2026-11-23", 1)).toBe("2027-11-23");
  });
});

describe("date schemas", () => {
  it("a despatch date: from today anywhere on Earth to a year ahead", () => {
    // 10:00 UTC on 23 Nov 2026: 22 Nov at UTC-12, 24 Nov at UTC+14
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-23T10:00:00Z") });
    const schema = despatchDate();
    expect(messages(schema.safeParse("2026-11-22"))).toEqual([]);
    expect(messages(schema.safeParse("2026-11-21"))).toEqual([DESPATCH_DATE_PAST]);
    expect(messages(schema.safeParse("2027-11-24"))).toEqual([]);
    expect(messages(schema.safeParse("2027-11-25"))).toEqual([DESPATCH_DATE_TOO_FAR]);
    expect(messages(schema.safeParse("9999-12-31"))).toEqual([DESPATCH_DATE_TOO_FAR]);
    expect(messages(schema.safeParse("2026-02-30"))).toEqual(["Despatch date must be a date (YYYY-MM-DD)"]);
  });

  it("the despatch window moves with the clock, even a second after it was checked", () => {
    // 11:59:59 UTC on 24 Nov: still 23 Nov at UTC-12, for one more second
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-24T11:59:59.500Z") });
    const schema = despatchDate();
    expect(messages(schema.safeParse("2026-11-23"))).toEqual([]);
    vi.setSystemTime(new Date("2026-11-24T12:00:00.500Z"));
    expect(messages(schema.safeParse("2026-11-23"))).toEqual([DESPATCH_DATE_PAST]);
  });

  it("a saved consignment's despatch date may have passed, but not into another century", () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-23T10:00:00Z") });
    const schema = despatchDate({ allowPast: true });
    expect(messages(schema.safeParse("2026-01-01"))).toEqual([]);
    expect(messages(schema.safeParse("1999-12-31"))).toEqual([DESPATCH_DATE_PAST]);
    expect(messages(schema.safeParse("9000-06-01"))).toEqual([DESPATCH_DATE_TOO_FAR]);
  });

  it("other dates lie in the years 2000 to 2100, with one message each", () => {
    const schema = calendarDate("Date");
    expect(messages(schema.safeParse("2000-01-01"))).toEqual([]);
    expect(messages(schema.safeParse("2100-12-31"))).toEqual([]);
    expect(messages(schema.safeParse("1999-12-31"))).toEqual(["Date must be in the years 2000 to 2100"]);
    expect(messages(schema.safeParse("2101-01-01"))).toEqual(["Date must be in the years 2000 to 2100"]);
    expect(messages(schema.safeParse("nope"))).toEqual(["Date must be a date (YYYY-MM-DD)"]);
  });

  it("a local date-time: real, in the window, written with a space", () => {
    const schema = localDateTime("Pickup time");
    expect(schema.parse("2026-05-05T07:15")).toBe("2026-05-05 07:15");
    expect(messages(schema.safeParse("2026-02-30 25:61"))).toEqual(["Pickup time must be a real date and time (hour 0-23, minute 0-59)"]);
    expect(messages(schema.safeParse("2026-05-05"))).toEqual(["Pickup time must be a date and time (YYYY-MM-DD HH:mm)"]);
    expect(messages(schema.safeParse("0000-01-01 00:00"))).toEqual(["Pickup time must be in the years 2000 to 2100"]);
  });
});

describe("local times at a site", () => {
  it("a time the clocks skip does not exist; the hour repeated when they go back does", () => {
    expect(localTimeExists("2026-10-04 02:30", "Australia/Melbourne")).toBe(false);
    expect(localTimeExists("2026-10-04 01:59", "Australia/Melbourne")).toBe(true);
    expect(localTimeExists("2026-10-04 03:00", "Australia/Melbourne")).toBe(true);
    expect(localTimeExists("2026-04-05 02:30", "Australia/Melbourne")).toBe(true);
    expect(localTimeExists("2026-03-08 02:30", "America/Los_Angeles")).toBe(false);
    expect(localTimeExists("2026-11-01 01:30", "America/Los_Angeles")).toBe(true);
    expect(localTimeExists("2026-09-27 02:30", "Pacific/Auckland")).toBe(false);
    // no zone on the site: UTC, where every time exists
    expect(localTimeExists("2026-03-08 02:30", null)).toBe(true);
  });

  it("names each skipped field", () => {
    expect(skippedLocalTimes({ pickup_at: "2026-10-04 02:15", deliver_by: "2026-10-04 09:00", deliver_at: null }, "Australia/Melbourne")).toEqual({
      pickup_at: ["2026-10-04 02:15 does not exist at the site (the clocks go forward then)"],
    });
  });
});

describe("JSON depth", () => {
  it("measures without recursion, so 100,000 levels neither overflow nor take long", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(jsonDepth(deep, 8)).toBe(9);
    expect(jsonDepth({ a: { b: [1, { c: null }] } })).toBe(4);
    expect(jsonDepth("text")).toBe(0);
  });
});
