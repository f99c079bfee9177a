import { describe, expect, it } from "vitest";
import { clickSelect, toggleAll } from "./selection";

const ids = [11, 12, 13, 14, 15];
const sorted = (s: Set<number>) => [...s].sort((a, b) => a - b);

describe("clickSelect", () => {
  it("a plain click sets one row", () => {
    expect(sorted(clickSelect(ids, new Set(), 2, true, null, false))).toEqual([13]);
    expect(sorted(clickSelect(ids, new Set([13, 14]), 2, false, 0, false))).toEqual([14]);
  });

  it("shift-click sets the range from the last click, either way, to the new value", () => {
    expect(sorted(clickSelect(ids, new Set([12]), 4, true, 1, true))).toEqual([12, 13, 14, 15]);
    expect(sorted(clickSelect(ids, new Set([15]), 0, true, 4, true))).toEqual([11, 12, 13, 14, 15]);
    expect(sorted(clickSelect(ids, new Set(ids), 1, false, 3, true))).toEqual([11, 15]);
    // no earlier click: shift does nothing more
    expect(sorted(clickSelect(ids, new Set(), 3, true, null, true))).toEqual([14]);
  });
});

describe("toggleAll", () => {
  it("selects all unless all are selected", () => {
    expect(sorted(toggleAll(ids, new Set([11])))).toEqual(ids);
    expect(sorted(toggleAll(ids, new Set(ids)))).toEqual([]);
  });
});
