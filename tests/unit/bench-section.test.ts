import { describe, expect, it } from "vitest";
import { replaceSection } from "../../bench/section";

describe("replaceSection", () => {
  const doc = ["# Performance", "", "## A", "old a", "", "## B", "old b", "", "## C", "old c"].join("\n");
  it("replaces the section with the same heading up to the next one, the rest untouched", () => {
    expect(replaceSection(doc, ["## B", "new b", ""])).toBe(["# Performance", "", "## A", "old a", "", "## B", "new b", "", "## C", "old c"].join("\n"));
  });
  it("replaces the last section to the end of the file", () => {
    expect(replaceSection(doc, ["## C", "new c"]).split("\n").slice(-2)).toEqual(["## C", "new c"]);
  });
  it("adds a section the file does not have at its end", () => {
    expect(replaceSection(doc, ["## D", "d"]).endsWith("old c\n## D\nd")).toBe(true);
  });
});
