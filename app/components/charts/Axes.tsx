import type { ReactNode } from "react";
import { FONT_SIZE, HEIGHT, px, WIDTH, type ChartFrame } from "./layout";
import { INK } from "./palette";

/** The ids of a chart's <title> and <desc>, from the figure's id so two charts on a page never share one. */
export const chartIds = (id: string) => ({ title: `${id}-title`, desc: `${id}-desc` });

/**
 * The <svg> of every chart: a fixed 640 x 280 drawing scaled to the width it is given, an image
 * to assistive technology named by its <title> and <desc> (the table under it holds the figures).
 * Colours and sizes are SVG attributes, not style attributes, which a strict CSP would block.
 */
export function ChartSvg({ id, title, description, kind, children }: { id: string; title: string; description: string; kind: string; children: ReactNode }) {
  const ids = chartIds(id);
  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      width="100%"
      role="img"
      aria-labelledby={`${ids.title} ${ids.desc}`}
      className="block h-auto"
      fontSize={FONT_SIZE}
      data-chart={kind}
    >
      <title id={ids.title}>{title}</title>
      <desc id={ids.desc}>{description}</desc>
      {children}
    </svg>
  );
}

/** Light gridlines at the value ticks with their labels, and a darker line at zero. */
export function ValueAxis({ frame }: { frame: ChartFrame }) {
  const { plot, ticks, y } = frame;
  const [lo, hi] = y.domain() as [number, number];
  return (
    <g data-axis="value">
      {ticks.map((t) => (
        <g key={t.value}>
          <line x1={plot.left} x2={plot.right} y1={px(t.y)} y2={px(t.y)} stroke={INK.grid} strokeWidth={1} shapeRendering="crispEdges" />
          <text x={plot.left - 6} y={px(t.y)} dy="0.32em" textAnchor="end" fill={INK.text}>
            {t.text}
          </text>
        </g>
      ))}
      {lo <= 0 && hi >= 0 ? <line x1={plot.left} x2={plot.right} y1={px(y(0))} y2={px(y(0))} stroke={INK.axis} strokeWidth={1} shapeRendering="crispEdges" data-zero="" /> : null}
    </g>
  );
}

/** The category labels under the plot: level, or turned 45° when they do not fit (see chartFrame). */
export function CategoryAxis({ frame }: { frame: ChartFrame }) {
  const base = frame.plot.bottom + 6;
  // offsets in units, not a dy in em: a dy is lost on a <text> that starts with a <title> in some renderers
  return (
    <g data-axis="category" fill={INK.text}>
      {frame.labels.map((l) => {
        // a cut label keeps its full text as hover detail
        const hint = l.text === l.full ? null : <title>{l.full}</title>;
        return frame.rotate ? (
          <text key={l.index} transform={`translate(${px(l.x)},${px(base)}) rotate(-45)`} y={px(FONT_SIZE * 0.32)} textAnchor="end" data-category={l.index}>
            {hint}
            {l.text}
          </text>
        ) : (
          <text key={l.index} x={px(l.x)} y={px(base + FONT_SIZE * 0.71)} textAnchor="middle" data-category={l.index}>
            {hint}
            {l.text}
          </text>
        );
      })}
    </g>
  );
}
