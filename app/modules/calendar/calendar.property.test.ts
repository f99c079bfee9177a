/**
 * Issue 12 finding 1: the calendar functions over every date the parser accepts (z.iso.date takes
 * 0000-01-01 to 9999-12-31). Each call ends with a real date or a clean AppError: 10000-01-01
 * once became "+010000-01-01", never a business day, and the search spun forever.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AppError } from "../../utils/errors";
import { addBusinessDays, isBusinessDay, MAX_SEARCH_DAYS, nextBusinessDay } from "./business-days";
import { isRealDate, plusDays, plusYears } from "./dates";

const DAY = 86_400_000;
const FIRST = Date.parse("0000-01-01T00:00:00Z");
const LAST = Date.parse("9999-12-31T00:00:00Z");
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);

/** Any accepted date, with the last weeks of 9999 (where the search once ran off the calendar) drawn often. */
const anyDate = fc.oneof(
  fc.integer({ min: 0, max: (LAST - FIRST) / DAY }).map((n) => iso(FIRST + n * DAY)),
  fc.integer({ min: 0, max: 60 }).map((n) => iso(LAST - n * DAY)),
  fc.integer({ min: 0, max: 60 }).map((n) => iso(FIRST + n * DAY)),
);
const place = fc.constantFrom<[string, string | undefined]>(
  ["AUSTRALIA", "VIC"],
  ["AUSTRALIA", "NSW"],
  ["AUSTRALIA", "TAS"],
  ["NEW ZEALAND", undefined],
  ["UNITED STATES OF AMERICA", "CA"],
  ["UNITED STATES OF AMERICA", undefined],
);

/** The value of `f`, or the AppError it threw (anything else fails the property). */
function outcome<T>(f: () => T): T | AppError {
  try {
    return f();
  } catch (e) {
    if (e instanceof AppError && e.code === "invalid") return e;
    throw e;
  }
}

describe("calendar functions over 0000-01-01 to 9999-12-31", () => {
  it("the accepted range really is what the generator covers", () => {
    expect(isRealDate(iso(FIRST))).toBe(true);
    expect(isRealDate(iso(LAST))).toBe(true);
  });

  it("nextBusinessDay ends with the first business day after the date, or a clean error past the calendar's end", () => {
    fc.assert(
      fc.property(anyDate, place, (date, [country, region]) => {
        const next = outcome(() => nextBusinessDay(date, country, region));
        if (next instanceof AppError) {
          // only near the end: a business day always comes within a few days
          expect(date >= "9999-12-01").toBe(true);
          return;
        }
        expect(isRealDate(next)).toBe(true);
        expect(next > date).toBe(true);
        expect(isBusinessDay(next, country, region)).toBe(true);
        // the first one: every day between is a weekend or holiday
        for (let d = plusDays(date, 1); d < next; d = plusDays(d, 1)) expect(isBusinessDay(d, country, region)).toBe(false);
        expect(Date.parse(next) - Date.parse(date)).toBeLessThanOrEqual(MAX_SEARCH_DAYS * DAY);
      }),
      { numRuns: 300 },
    );
  });

  it("addBusinessDays ends with a business day on or after the date, or a clean error", () => {
    fc.assert(
      fc.property(anyDate, fc.integer({ min: 0, max: 99 }), place, (date, n, [country, region]) => {
        const result = outcome(() => addBusinessDays(date, n, country, region));
        if (result instanceof AppError) {
          expect(date >= "9999-07-01").toBe(true);
          return;
        }
        expect(isRealDate(result)).toBe(true);
        expect(result >= date).toBe(true);
        expect(result > date || n === 0).toBe(true);
        expect(isBusinessDay(result, country, region)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it("plusDays and plusYears stay within four-digit years or refuse, never writing '+010000'", () => {
    fc.assert(
      fc.property(anyDate, fc.integer({ min: -800, max: 800 }), (date, n) => {
        for (const result of [outcome(() => plusDays(date, n)), outcome(() => plusYears(date, Math.trunc(n / 100)))]) {
          if (result instanceof AppError) expect(result.message).toMatch(/outside the calendar/);
          else expect(isRealDate(result)).toBe(true);
        }
      }),
    );
  });

  it("the dates of the report: 9999-12-31 and 9999-12-24 end with a clean error", () => {
    expect(() => nextBusinessDay("9999-12-31", "AUSTRALIA", "VIC")).toThrow(/outside the calendar/);
    expect(nextBusinessDay("9999-12-24", "AUSTRALIA", "VIC")).toBe("9999-12-29");
    expect(() => plusDays("9999-12-31", 1)).toThrow(/outside the calendar/);
  });

  it("refuses what is not a date instead of answering for it", () => {
    for (const bad of ["2026-02-30", "2026-13-01", "+010000-01-01", "garbage"]) {
      expect(() => nextBusinessDay(bad, "AUSTRALIA", "VIC")).toThrow(AppError);
      expect(() => isBusinessDay(bad, "AUSTRALIA", "VIC")).toThrow(AppError);
    }
    expect(() => addBusinessDays("2026-11-23", -1, "AUSTRALIA", "VIC")).toThrow(AppError);
    expect(() => addBusinessDays("2026-11-23", 1e9, "AUSTRALIA", "VIC")).toThrow(AppError);
  });
});
