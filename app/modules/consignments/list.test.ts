import { describe, expect, it } from "vitest";
import { DATE_FILTERS as OPTION_DATE_FILTERS } from "../users/options.server";
import {
  DATE_FILTERS,
  canDespatchIn,
  canPrintLabelsIn,
  dateRange,
  decodeCursor,
  dueForPrinting,
  encodeCursor,
  listUrl,
  parseOpen,
  selectRange,
  sortBy,
  stateLabel,
  toggleGroup,
  truncate,
  type ListView,
} from "./list";

describe("date filters (spec 1 section 9)", () => {
  it("are the user option's list", () => {
    expect([...DATE_FILTERS]).toEqual([...OPTION_DATE_FILTERS]);
  });
  it("cover the N days ending today, this week Monday to Sunday, and today with the 6 days after", () => {
    const wed = "2025-01-15"; // a Wednesday
    expect(dateRange("today", wed)).toEqual({ start: wed, end: wed });
    expect(dateRange("last_3_days", wed)).toEqual({ start: "2025-01-13", end: wed });
    expect(dateRange("last_7_days", wed)).toEqual({ start: "2025-01-09", end: wed });
    expect(dateRange("last_14_days", wed)).toEqual({ start: "2025-01-02", end: wed });
    expect(dateRange("last_30_days", wed)).toEqual({ start: "2024-12-17", end: wed });
    expect(dateRange("this_week", wed)).toEqual({ start: "2025-01-13", end: "2025-01-19" });
    expect(dateRange("next_7_days", wed)).toEqual({ start: wed, end: "2025-01-21" });
  });
  it("this week on a Monday and on a Sunday", () => {
    expect(dateRange("this_week", "2025-01-13")).toEqual({ start: "2025-01-13", end: "2025-01-19" });
    expect(dateRange("this_week", "2025-01-19")).toEqual({ start: "2025-01-13", end: "2025-01-19" });
  });
  it("cross month and leap-year ends", () => {
    expect(dateRange("last_3_days", "2024-03-01")).toEqual({ start: "2024-02-28", end: "2024-03-01" });
    expect(dateRange("next_7_days", "2024-12-28")).toEqual({ start: "2024-12-28", end: "2025-01-03" });
  });
});

describe("what each filter allows (spec 1 section 4)", () => {
  it("labels cannot print in incomplete; despatch is not possible in incomplete and labels_to_print", () => {
    expect(canPrintLabelsIn("incomplete")).toBe(false);
    expect(canPrintLabelsIn("labels_to_print")).toBe(true);
    expect(canDespatchIn("incomplete")).toBe(false);
    expect(canDespatchIn("labels_to_print")).toBe(false);
    expect(canDespatchIn("complete")).toBe(true);
    expect(canDespatchIn("metadata")).toBe(true);
  });
});

describe("keyset cursors", () => {
  it("round-trip each sort's value type, URL-safe", () => {
    const cases = [
      ["party_name", "o'brien & søn / 株式会社"],
      ["despatch_date", "2025-01-15"],
      ["item_count", 12],
      ["weight", "1234.500"],
      ["hazardous", true],
      ["reference", null],
    ] as const;
    for (const [sort, value] of cases) {
      const c = encodeCursor(value, 42);
      expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeCursor(c, sort)).toEqual({ value, id: 42 });
    }
  });
  it("refuse what is not ours or does not fit the sort", () => {
    expect(decodeCursor("not-a-cursor", "party_name")).toBeNull();
    expect(decodeCursor(encodeCursor("abc", 1), "item_count")).toBeNull();
    expect(decodeCursor(encodeCursor("2025-13", 1), "despatch_date")).toBeNull();
    expect(decodeCursor(encodeCursor("1; drop table", 1), "weight")).toBeNull();
    expect(decodeCursor(encodeCursor("x", -1), "party_name")).toBeNull();
  });
});

describe("the list URL", () => {
  const view: ListView = { filter: "complete", dateFilter: "last_7_days", site: "MEL", sort: "despatch_date", dir: "desc", open: [], after: {} };
  it("puts the filters in the path and the rest in the query", () => {
    expect(listUrl(view)).toBe("/consignments/complete/last_7_days?site=MEL");
    expect(listUrl({ ...view, site: null, sort: "weight", dir: "asc", open: ["s3", "returns"], after: { s3: "abc" } })).toBe(
      "/consignments/complete/last_7_days?site=all&sort=weight&dir=asc&open=s3,returns&after_s3=abc",
    );
  });
  it("opens and closes groups; a closed group forgets its cursor", () => {
    const opened = toggleGroup(view, "s3");
    expect(opened.open).toEqual(["s3"]);
    expect(toggleGroup({ ...opened, after: { s3: "x" } }, "s3")).toMatchObject({ open: [], after: {} });
    expect(parseOpen("s3,returns,none,s3,bogus,s0,s-1")).toEqual(["s3", "returns", "none"]);
  });
  it("sorting the same column flips it, another starts ascending, paging restarts", () => {
    expect(sortBy({ ...view, after: { s3: "x" } }, "despatch_date")).toMatchObject({ sort: "despatch_date", dir: "asc", after: {} });
    expect(sortBy({ ...view, dir: "asc" }, "despatch_date").dir).toBe("desc");
    expect(sortBy(view, "party_name")).toMatchObject({ sort: "party_name", dir: "asc" });
  });
});

describe("shift-click range selection", () => {
  const order = [1, 2, 3, 4, 5];
  it("selects from the anchor to the clicked row, either direction", () => {
    expect([...selectRange(order, new Set([1]), 1, 4, true)].sort()).toEqual([1, 2, 3, 4]);
    expect([...selectRange(order, new Set(), 4, 2, true)].sort()).toEqual([2, 3, 4]);
  });
  it("clears a range, and without an anchor toggles one row", () => {
    expect([...selectRange(order, new Set(order), 2, 4, false)].sort()).toEqual([1, 5]);
    expect([...selectRange(order, new Set(), null, 3, true)]).toEqual([3]);
  });
});

describe("auto labels", () => {
  it("skips a consignment printed in the last 45 s", () => {
    const printed = new Map([
      [1, 10_000],
      [2, 50_000],
    ]);
    // 1 was printed 50 s ago, 2 only 10 s ago, 3 never
    expect(dueForPrinting([1, 2, 3, 3], printed, 60_000)).toEqual([1, 3]);
    expect(dueForPrinting([1, 2], printed, 95_000)).toEqual([1, 2]);
  });
  it("truncates to the first n characters", () => {
    expect(truncate("Perth Outdoor Supplies", 19)).toBe("Perth Outdoor Suppl");
    expect(truncate("short", 19)).toBe("short");
    expect(truncate(null, 12)).toBe("");
  });
});

describe("the All view's State column", () => {
  it("names the states still to despatch as the counters do, and words any other state", () => {
    expect(stateLabel("open", false)).toBe("Not Ready");
    expect(stateLabel("despatchable", false)).toBe("Labels to print");
    expect(stateLabel("despatchable", true)).toBe("Ready to despatch");
    expect(stateLabel("despatched", true)).toBe("Despatched");
    expect(stateLabel("cancelled", true)).toBe("Cancelled");
    expect(stateLabel("despatch_failure", false)).toBe("Despatch failure");
    expect(stateLabel("delivered_with_pod", true)).toBe("Delivered with POD");
  });
});
