import { describe, expect, it } from "vitest";
import { contrastOnWhite, INK, PALETTE, seriesColour, seriesEdge } from "./palette";

describe("series palette", () => {
  it("is Okabe–Ito in its order, yellow left out and black moved last", () => {
    // the published order: black, orange, sky blue, bluish green, yellow, blue, vermillion, reddish purple
    expect(PALETTE.map((c) => c.fill)).toEqual(["#E69F00", "#56B4E9", "#009E73", "#0072B2", "#D55E00", "#CC79A7", "#000000"]);
    expect(PALETTE.map((c) => c.fill)).not.toContain("#F0E442");
  });

  it("gives the first seven series seven different colours, then repeats", () => {
    const first = Array.from({ length: 7 }, (_, i) => seriesColour(i));
    expect(new Set(first).size).toBe(7);
    expect(seriesColour(7)).toBe(seriesColour(0));
    expect(seriesEdge(9)).toBe(seriesEdge(2));
  });

  it("draws every line and outline at 3:1 or more against white (WCAG 1.4.11)", () => {
    for (let i = 0; i < PALETTE.length; i++) expect(contrastOnWhite(seriesEdge(i)), PALETTE[i]!.name).toBeGreaterThanOrEqual(3);
    // the edge is a darker shade only where the fill itself is too pale
    expect(contrastOnWhite(seriesColour(0))).toBeLessThan(3);
    expect(seriesEdge(3)).toBe(seriesColour(3));
  });

  it("writes chart text at 4.5:1 or more against white, as axe checks", () => {
    expect(contrastOnWhite(INK.text)).toBeGreaterThanOrEqual(4.5);
    expect(contrastOnWhite("#ffffff")).toBeCloseTo(1);
    expect(contrastOnWhite("#000000")).toBeCloseTo(21);
  });
});
