import { line, symbol, symbolsFill } from "d3-shape";
import { CategoryAxis, ChartSvg, ValueAxis } from "./Axes";
import { pointTitle, valueAt, type ChartData } from "./data";
import { formatValue } from "./format";
import { chartFrame, px } from "./layout";
import { seriesColour, seriesEdge } from "./palette";

export type LineChartProps = { id: string; title: string; description: string; data: ChartData };

/** The point mark of series i: d3's filled symbols (circle, cross, diamond, ...), so lines differ in shape as well as colour. */
export const seriesSymbol = (i: number) => symbol(symbolsFill[i % symbolsFill.length]!, 48)() ?? "";

/**
 * One line per series over the categories (months, in order), each value marked by a point with
 * its hover detail. A null breaks the line (d3's line().defined), so a month without figures is
 * never bridged as if it had some.
 *
 * The value axis spans the data (with d3's nice ends) rather than always starting at 0: a line
 * is read for its changes, which a 0 baseline would flatten (on-time 92 % to 97 %); the tick
 * labels say where the axis starts.
 */
export function LineChart({ id, title, description, data }: LineChartProps) {
  const { categories, series, unit, currency } = data;
  const values = series.flatMap((s) => categories.map((_, c) => valueAt(s, c))).filter((v): v is number => v !== null);
  const domain: [number, number] = values.length ? [Math.min(...values), Math.max(...values)] : [0, 0];
  const frame = chartFrame({ categories, domain, kind: "point", unit, currency });
  const { x, y } = frame;
  const path = line<number | null>()
    .defined((v) => v !== null)
    .x((_, c) => px(x(c)))
    .y((v) => px(y(v ?? 0)));

  return (
    <ChartSvg id={id} title={title} description={description} kind="line">
      <ValueAxis frame={frame} />
      {series.map((s, i) => {
        const points = categories.map((_, c) => valueAt(s, c));
        const mark = seriesSymbol(i);
        return (
          <g key={i} data-series={s.key}>
            <path d={path(points) ?? ""} fill="none" stroke={seriesEdge(i)} strokeWidth={2} strokeLinejoin="round" strokeLinecap="round" data-line="" />
            {points.map((v, c) =>
              v === null ? null : (
                <path key={c} d={mark} transform={`translate(${px(x(c))},${px(y(v))})`} fill={seriesColour(i)} stroke={seriesEdge(i)} strokeWidth={1} data-category={c}>
                  <title>{pointTitle(categories[c]!, s.label, formatValue(v, unit, { currency }))}</title>
                </path>
              ),
            )}
          </g>
        );
      })}
      <CategoryAxis frame={frame} />
    </ChartSvg>
  );
}
