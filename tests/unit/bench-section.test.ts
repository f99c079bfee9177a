import { describe, expect, it } from "vitest";
import { floorPercent, floorShare, setFloor, TABLE_HEAD, tableRows, type Stats } from "../../bench/measure";
import { replaceSection, sectionOf } from "../../bench/section";

describe("replaceSection", () => {
  const doc = ["# Performance", "", "## A", "old a", "", "## B", "old b", "", "## C", "old c"].join("\n");
  it("replaces the section with the same heading up to the next one, the rest untouched", () => {
    expect(replaceSection(doc, ["## B", "new b", ""])).toBe(["# Performance", "", "## A", "old a", "", "## B", "new b", "", "## C", "old c"].join("\n"));
  });
  it("replaces the last section to the end of the file", () => {
    expect(replaceSection(doc, ["## C", "new c"]).split("\n").slice(-2)).toEqual(["## C", "new c"]);
  });
  it("reads one section, heading included, and nothing for one the file lacks", () => {
    expect(sectionOf(doc, "## B")).toEqual(["## B", "old b", ""]);
    expect(sectionOf(doc, "## C")).toEqual(["## C", "old c"]);
    expect(sectionOf(doc, "## D")).toEqual([]);
  });
  it("adds a section the file does not have at its end", () => {
    expect(replaceSection(doc, ["## D", "d"]).endsWith("old c\n## D\nd")).toBe(true);
  });
});

describe("the floor's share", () => {
  const row = (perSecond: number, callers?: number): Stats => ({ n: 100, p50: 1, p95: 2, max: 3, perSecond, callers });
  it("reads a row against the floor at the same number of callers, and none without one", () => {
    setFloor(10, row(4000, 10));
    expect(floorPercent(row(1200, 10))).toBe(30);
    expect(tableRows([["a call", row(1200, 10)]])[0]).toBe("| a call | 100 | 1.0 | 2.0 | 3.0 | 1200 | 30% |");
    expect(floorShare(row(300, 10))).toBe("7.5%");
    // another number of callers, or callers in the server's own process: no share claimed
    expect(floorShare(row(1200, 7))).toBe("–");
    expect(floorShare(row(1200))).toBe("–");
    expect(TABLE_HEAD[0]!.split("|").length).toBe(TABLE_HEAD[1]!.split("|").length);
  });
});
