import { scaleBand, scaleLinear, scalePoint, type ScaleLinear } from "d3-scale";
import type { Unit } from "./data";
import { formatTicks } from "./format";

/** The drawing's own size; the SVG scales it to the width it is given (width="100%"). */
export const WIDTH = 640;
export const HEIGHT = 280;
export const FONT_SIZE = 11;

// No text is measured on the server: an average glyph of a sans-serif at 11 px, a little
// generous, so an estimate errs towards more room.
const CHAR = 7;
// what two neighbouring labels need between their baselines to be read apart
const LINE = 13;
// axis labels longer than this are cut with "…" (the full label is in the label's <title> and in the table)
const MAX_LABEL = 16;
const TICK_COUNT = 5;
const TOP = 10;
const RIGHT = 12;
const GAP = 6;

/** Two decimals are a hundredth of a pixel: enough, and the markup stays short. */
export const px = (n: number) => Math.round(n * 100) / 100;

export type CategoryLabel = { index: number; x: number; text: string; full: string };

export type ChartFrame = {
  /** the centre of category i */
  x: (index: number) => number;
  /** a bar group's width (0 on a line chart) */
  bandwidth: number;
  y: ScaleLinear<number, number>;
  ticks: { value: number; y: number; text: string }[];
  /** the category labels drawn: all of them, or every `every`-th when they cannot all be read */
  labels: CategoryLabel[];
  rotate: boolean;
  every: number;
  plot: { left: number; right: number; top: number; bottom: number };
};

export const truncate = (label: string) => (label.length > MAX_LABEL ? `${label.slice(0, MAX_LABEL - 1).trimEnd()}…` : label);

/**
 * Places the axes: the value scale (d3's nice domain and ticks), then the category scale in the
 * width the tick labels leave, then how the category labels fit under it.
 *
 * Category labels stay horizontal while the longest fits its slot; otherwise they turn 45°, which
 * keeps 24 labels of up to 16 characters readable in 640 units. When even turned labels would
 * touch (slots under 13 / sin 45° ≈ 18.4 units, about 30 categories and more) only every n-th
 * label is drawn, starting with the first; every category keeps its bar or point, its hover
 * detail and its table row.
 */
export function chartFrame(options: { categories: string[]; domain: [number, number]; kind: "band" | "point"; unit: Unit; currency?: string }): ChartFrame {
  let [lo, hi] = options.domain;
  // a flat series still needs a scale with height: widen it to 0, or to 0..1 when all is 0
  if (lo === hi) [lo, hi] = lo === 0 ? [0, 1] : [Math.min(lo, 0), Math.max(hi, 0)];
  const y = scaleLinear().domain([lo, hi]).nice(TICK_COUNT);
  const tickValues = y.ticks(TICK_COUNT);
  const tickTexts = formatTicks(tickValues, options.unit, options.currency);

  const count = options.categories.length;
  const indices = Array.from({ length: count }, (_, i) => i);
  const full = options.categories;
  const texts = full.map(truncate);
  const widest = Math.max(0, ...texts.map((t) => t.length)) * CHAR;

  const build = (left: number) => {
    // categories are placed by index: two categories with the same name still get two slots
    if (options.kind === "band") {
      const band = scaleBand<number>().domain(indices).range([left, WIDTH - RIGHT]).paddingInner(0.2).paddingOuter(0.1);
      return { centre: (i: number) => (band(i) ?? 0) + band.bandwidth() / 2, step: band.step(), bandwidth: band.bandwidth() };
    }
    const point = scalePoint<number>().domain(indices).range([left, WIDTH - RIGHT]).padding(0.5);
    return { centre: (i: number) => point(i) ?? 0, step: point.step(), bandwidth: 0 };
  };

  let left = Math.max(32, Math.max(...tickTexts.map((t) => t.length)) * CHAR + GAP + 8);
  let xs = build(left);
  const rotate = widest > xs.step - 4;
  if (rotate && count) {
    // a turned first label runs down and to the left of its slot: keep it inside the drawing
    const reach = (texts[0]!.length * CHAR + FONT_SIZE) * Math.SQRT1_2;
    const short = reach + 2 - xs.centre(0);
    if (short > 0) xs = build((left += short));
  }
  const every = rotate ? Math.max(1, Math.ceil(LINE / (xs.step * Math.SQRT1_2))) : 1;
  const shown = indices.filter((i) => i % every === 0);

  const labelDepth = rotate ? (Math.max(0, ...shown.map((i) => texts[i]!.length)) * CHAR + FONT_SIZE) * Math.SQRT1_2 : FONT_SIZE;
  const bottom = HEIGHT - (GAP + labelDepth + 6);
  y.range([bottom, TOP]);

  return {
    x: xs.centre,
    bandwidth: xs.bandwidth,
    y,
    ticks: tickValues.map((value, i) => ({ value, y: y(value), text: tickTexts[i]! })),
    labels: shown.map((i) => ({ index: i, x: xs.centre(i), text: texts[i]!, full: full[i]! })),
    rotate,
    every,
    plot: { left, right: WIDTH - RIGHT, top: TOP, bottom },
  };
}
