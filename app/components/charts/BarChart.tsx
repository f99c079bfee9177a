import { scaleBand } from "d3-scale";
import { stack, stackOffsetDiverging } from "d3-shape";
import { CategoryAxis, ChartSvg, ValueAxis } from "./Axes";
import { pointTitle, valueAt, type ChartData } from "./data";
import { formatValue } from "./format";
import { chartFrame, px } from "./layout";
import { seriesColour, seriesEdge } from "./palette";

export type BarChartProps = {
  /** prefix of the chart's ids */
  id: string;
  title: string;
  description: string;
  data: ChartData;
  /** one bar per category with the series on top of each other, instead of side by side */
  stacked?: boolean;
};

type Bar = { category: number; series: number; value: number; top: number; bottom: number; x: number; width: number };

/**
 * Vertical bars on a linear value axis from 0: side by side when there are several series, or
 * stacked. A null draws no bar (a 0 draws a flat one: it is a figure). Each bar's <title> is
 * its hover detail.
 */
export function BarChart({ id, title, description, data, stacked = false }: BarChartProps) {
  const { categories, series, unit, currency } = data;
  const indices = series.map((_, s) => s);
  const rows = categories.map((_, c) => series.map((s) => valueAt(s, c)));

  // d3's diverging stack puts negatives below zero and positives above; a null stacks as 0, so
  // the segments above it close up, and then draws nothing
  const layers = stacked
    ? stack<(number | null)[], number>()
        .keys(indices)
        .value((row, s) => row[s] ?? 0)
        .offset(stackOffsetDiverging)(rows)
    : null;
  const values = layers ? layers.flatMap((layer) => layer.flatMap(([a, b]) => [a, b])) : rows.flat().filter((v): v is number => v !== null);
  // a share is read against the whole: percent bars run to 100 (more only if a value does)
  const domain: [number, number] = [Math.min(0, ...values), Math.max(unit === "percent" ? 100 : 0, ...values)];
  const frame = chartFrame({ categories, domain, kind: "band", unit, currency });
  const { y } = frame;

  // the series of a group side by side inside the category's band
  const inner = scaleBand<number>().domain(indices).range([0, frame.bandwidth]).paddingInner(stacked ? 0 : 0.08);
  const bars: Bar[] = [];
  rows.forEach((row, c) => {
    const left = frame.x(c) - frame.bandwidth / 2;
    row.forEach((value, s) => {
      if (value === null) return;
      const [from, to] = layers ? layers[s]![c]! : [0, value];
      const x = stacked ? left : left + (inner(s) ?? 0);
      const width = stacked ? frame.bandwidth : inner.bandwidth();
      bars.push({ category: c, series: s, value, top: Math.min(y(from), y(to)), bottom: Math.max(y(from), y(to)), x, width });
    });
  });

  return (
    <ChartSvg id={id} title={title} description={description} kind={stacked ? "stacked" : "bar"}>
      <ValueAxis frame={frame} />
      <g data-bars="">
        {bars.map((b) => (
          <rect
            key={`${b.category}-${b.series}`}
            x={px(b.x)}
            y={px(b.top)}
            width={px(b.width)}
            height={px(b.bottom - b.top)}
            fill={seriesColour(b.series)}
            stroke={seriesEdge(b.series)}
            strokeWidth={1}
            data-category={b.category}
            data-series={series[b.series]!.key}
          >
            <title>{pointTitle(categories[b.category]!, series[b.series]!.label, formatValue(b.value, unit, { currency }))}</title>
          </rect>
        ))}
      </g>
      <CategoryAxis frame={frame} />
    </ChartSvg>
  );
}
