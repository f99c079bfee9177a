import { describe, expect, it } from "vitest";
import { addDays, listedDates } from "./schemas";

const today = "2026-11-27"; // a Friday

describe("listedDates", () => {
  it("the past fortnight is the fourteen days up to and including today, and anything dated after today", () => {
    expect(listedDates("fortnight", today)).toEqual({ from: addDays(today, -13), to: today, through: null });
    expect(listedDates("fortnight", today).from).toBe("2026-11-14");
  });

  it("a custom range with no end typed runs on past today; one with an end stops there", () => {
    expect(listedDates("custom", today, { from: "2026-11-01" })).toEqual({ from: "2026-11-01", to: today, through: null });
    expect(listedDates("custom", today, { from: "2026-11-01", to: today })).toEqual({ from: "2026-11-01", to: today, through: today });
  });

  it("ranges that end on another day end there", () => {
    expect(listedDates("this_week", today)).toEqual({ from: "2026-11-23", to: "2026-11-29", through: "2026-11-29" });
    expect(listedDates("last_week", today).through).toBe("2026-11-22");
    expect(listedDates("last_month", today).through).toBe("2026-10-31");
  });
});
