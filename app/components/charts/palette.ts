/**
 * Series colours: the Okabe–Ito palette (Okabe and Ito, 2008), which stays distinguishable
 * with the common colour-vision deficiencies, in its published order with two changes:
 * - yellow (#F0E442) is left out: at 1.3:1 against white a thin line or a small point in it
 *   all but vanishes;
 * - black goes last, so that the first series is never mistaken for an axis or for text.
 *
 * Orange and sky blue reach only about 2.3:1 against white, under the 3:1 that WCAG 1.4.11 asks
 * of the parts of a graphic one needs to read it. Each colour therefore has an `edge`: the same
 * hue darkened to at least 3:1, drawn as lines and as the outlines of bars and points, while the
 * `fill` keeps the palette's own colour.
 */
export const PALETTE = [
  { name: "orange", fill: "#E69F00", edge: "#BF8400" },
  { name: "sky blue", fill: "#56B4E9", edge: "#4897C4" },
  { name: "bluish green", fill: "#009E73", edge: "#009E73" },
  { name: "blue", fill: "#0072B2", edge: "#0072B2" },
  { name: "vermillion", fill: "#D55E00", edge: "#D55E00" },
  { name: "reddish purple", fill: "#CC79A7", edge: "#C675A2" },
  { name: "black", fill: "#000000", edge: "#000000" },
] as const;

// after the seventh series the colours repeat; the line chart's point shapes and the table
// still tell series apart, and a chart with more than seven series wants splitting anyway
const at = (i: number) => PALETTE[((Math.trunc(i) % PALETTE.length) + PALETTE.length) % PALETTE.length]!;

/** The fill colour of series i (0-based): bars, points, legend swatches. */
export const seriesColour = (i: number): string => at(i).fill;

/** The outline and line colour of series i: at least 3:1 against white. */
export const seriesEdge = (i: number): string => at(i).edge;

/**
 * The greys of the drawing, as SVG attributes (a class would not reach a chart copied out of the
 * page). Text is slate-600 on white, 7.6:1, above the 4.5:1 axe checks for small text.
 */
export const INK = {
  text: "#475569",
  axis: "#64748b",
  grid: "#e2e8f0",
} as const;

/** WCAG contrast ratio of a #rrggbb colour against white. */
export function contrastOnWhite(hex: string): number {
  const n = Number.parseInt(hex.slice(1), 16);
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(n >> 16) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
  return 1.05 / (luminance + 0.05);
}
