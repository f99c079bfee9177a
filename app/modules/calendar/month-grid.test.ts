import { describe, expect, it } from "vitest";
import { dayLabel, monthTitle, monthWeeks, moveByKey, plusMonths, weekStartOf, weekdayHeadings } from "./month-grid";

const US = "UNITED STATES OF AMERICA";

describe("the date picker's month", () => {
  it("weeks start on Monday, on Sunday in the United States", () => {
    expect(weekStartOf("AUSTRALIA")).toBe(1);
    expect(weekStartOf(US)).toBe(0);
    expect(weekdayHeadings(1).map((d) => d.short)).toEqual(["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"]);
    expect(weekdayHeadings(0)[0]).toEqual({ name: "Sunday", short: "Su" });
  });

  it("lays a month out in whole weeks, blank cells around it", () => {
    // 1 November 2026 is a Sunday
    const monday = monthWeeks("2026-11-24", 1);
    expect(monday[0]).toEqual([null, null, null, null, null, null, "2026-11-01"]);
    expect(monday.at(-1)).toEqual(["2026-11-30", null, null, null, null, null, null]);
    expect(monday.flat().filter(Boolean)).toHaveLength(30);
    const sunday = monthWeeks("2026-11-24", 0);
    expect(sunday[0]![0]).toBe("2026-11-01");
    expect(sunday).toHaveLength(5);
    expect(monthWeeks("2028-02-10", 1).flat().filter(Boolean)).toHaveLength(29);
  });

  it("names the month and each day in full, as the country says it", () => {
    expect(monthTitle("2026-11-24")).toBe("November 2026");
    expect(dayLabel("2026-11-24", "AUSTRALIA")).toBe("Tuesday 24 November 2026");
    expect(dayLabel("2026-11-24", US)).toBe("Tuesday, November 24, 2026");
  });

  it("keys move the focused day: a day, a week, a month, a year, the week's ends", () => {
    const at = "2026-11-24"; // a Tuesday
    expect(moveByKey(at, "ArrowLeft", false, 1)).toBe("2026-11-23");
    expect(moveByKey(at, "ArrowRight", false, 1)).toBe("2026-11-25");
    expect(moveByKey(at, "ArrowUp", false, 1)).toBe("2026-11-17");
    expect(moveByKey(at, "ArrowDown", false, 1)).toBe("2026-12-01");
    expect(moveByKey(at, "PageUp", false, 1)).toBe("2026-10-24");
    expect(moveByKey(at, "PageDown", false, 1)).toBe("2026-12-24");
    expect(moveByKey(at, "PageDown", true, 1)).toBe("2027-11-24");
    expect(moveByKey(at, "Home", false, 1)).toBe("2026-11-23");
    expect(moveByKey(at, "End", false, 1)).toBe("2026-11-29");
    expect(moveByKey(at, "Home", false, 0)).toBe("2026-11-22");
    expect(moveByKey(at, "End", false, 0)).toBe("2026-11-28");
    expect(moveByKey(at, "Enter", false, 1)).toBeNull();
  });

  it("a month on from the 31st is the next month's last day; the years stay in the window", () => {
    expect(plusMonths("2026-01-31", 1)).toBe("2026-02-28");
    expect(plusMonths("2026-12-15", 1)).toBe("2027-01-15");
    expect(plusMonths("2026-01-15", -1)).toBe("2025-12-15");
    expect(moveByKey("2100-12-31", "ArrowRight", false, 1)).toBe("2100-12-31");
    expect(moveByKey("2000-01-01", "PageUp", true, 1)).toBe("2000-01-01");
  });
});
