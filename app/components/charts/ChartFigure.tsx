import { BarChart } from "./BarChart";
import { hasData, valueAt, type ChartData } from "./data";
import { formatValue, NO_VALUE } from "./format";
import { LineChart, seriesSymbol } from "./LineChart";
import { seriesColour, seriesEdge } from "./palette";

export type ChartKind = "bar" | "stacked" | "line";

export type ChartFigureProps = {
  /** unique on the page, without spaces: the figure's id and the prefix of every id inside it */
  id: string;
  /** the figure's caption, the chart's accessible name and the table's caption */
  title: string;
  /** a sentence saying what the chart shows: the chart's <desc> */
  description: string;
  data: ChartData;
  kind: ChartKind;
  /** where the chart's figures download as CSV; no link without it */
  csvHref?: string;
  /** what shows instead of the chart when there is nothing to draw */
  empty?: string;
  /** the heading of the table's first column (default "Category"), e.g. "Month" or "Carrier" */
  categoryLabel?: string;
};

export const DEFAULT_EMPTY = "No data for these filters.";

/**
 * A chart as pages show it: caption, legend (when there is more than one series), the chart as
 * an SVG drawn on the server, a CSV download, and the same figures as a table, so nothing is
 * told by the drawing alone. Nothing here needs JavaScript in the browser, and it prints.
 *
 * With no categories, or only nulls, it shows the `empty` message: an empty chart would read as
 * "all zero", which is not what no data means.
 */
export function ChartFigure({ id, title, description, data, kind, csvHref, empty, categoryLabel = "Category" }: ChartFigureProps) {
  const show = hasData(data);
  return (
    <figure id={id} className="break-inside-avoid rounded border border-slate-200 bg-white p-4" data-testid="chart-figure">
      <figcaption className="text-base font-semibold text-slate-900">{title}</figcaption>
      {!show ? (
        <p className="mt-3 rounded bg-slate-50 px-3 py-6 text-center text-sm text-slate-600" data-testid="chart-empty">
          {empty ?? DEFAULT_EMPTY}
        </p>
      ) : (
        <>
          {data.series.length > 1 ? <Legend data={data} line={kind === "line"} /> : null}
          <div className="mt-2">
            {kind === "line" ? (
              <LineChart id={id} title={title} description={description} data={data} />
            ) : (
              <BarChart id={id} title={title} description={description} data={data} stacked={kind === "stacked"} />
            )}
          </div>
          {csvHref ? (
            <p className="mt-2 text-sm">
              <a href={csvHref} download className="text-sky-700 underline hover:text-sky-900" data-testid="chart-csv">
                Download CSV<span className="sr-only"> of {title}</span>
              </a>
            </p>
          ) : null}
          <details className="mt-2 text-sm">
            <summary className="cursor-pointer text-sky-700 hover:text-sky-900">Show the data</summary>
            <DataTable data={data} title={title} categoryLabel={categoryLabel} />
          </details>
        </>
      )}
    </figure>
  );
}

/** Swatch and label per series, in HTML so it wraps and reads as text; a line chart's swatch carries the point's shape. */
function Legend({ data, line }: { data: ChartData; line: boolean }) {
  return (
    <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700" aria-label="Legend" data-testid="chart-legend">
      {data.series.map((s, i) => (
        <li key={i} className="flex items-center gap-1.5">
          <svg width="18" height="12" viewBox="-9 -6 18 12" aria-hidden="true" focusable="false" className="shrink-0">
            {line ? (
              <>
                <line x1={-9} x2={9} y1={0} y2={0} stroke={seriesEdge(i)} strokeWidth={2} />
                <path d={seriesSymbol(i)} fill={seriesColour(i)} stroke={seriesEdge(i)} strokeWidth={1} />
              </>
            ) : (
              <rect x={-5.5} y={-5.5} width={11} height={11} fill={seriesColour(i)} stroke={seriesEdge(i)} strokeWidth={1} />
            )}
          </svg>
          {s.label}
        </li>
      ))}
    </ul>
  );
}

/** The chart's equivalent for anyone who cannot see it (and for copying figures): one row per category. */
function DataTable({ data, title, categoryLabel }: { data: ChartData; title: string; categoryLabel: string }) {
  return (
    <div className="mt-2 overflow-x-auto">
      <table className="w-full text-sm" data-testid="chart-table">
        <caption className="pb-1 text-left text-xs text-slate-600">{title}</caption>
        <thead className="text-xs uppercase text-slate-600">
          <tr>
            <th scope="col" className="py-1 pr-3 text-left">
              {categoryLabel}
            </th>
            {data.series.map((s, i) => (
              <th key={i} scope="col" className="py-1 pl-3 text-right">
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.categories.map((c, row) => (
            <tr key={row} className="border-t border-slate-100">
              <th scope="row" className="py-1 pr-3 text-left font-normal">
                {c}
              </th>
              {data.series.map((s, i) => {
                const v = valueAt(s, row);
                return (
                  <td key={i} className="py-1 pl-3 text-right tabular-nums">
                    {v === null ? (
                      // a bare dash is read as "dash", or not at all
                      <>
                        <span aria-hidden="true">{NO_VALUE}</span>
                        <span className="sr-only">no data</span>
                      </>
                    ) : (
                      formatValue(v, data.unit, { currency: data.currency })
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
