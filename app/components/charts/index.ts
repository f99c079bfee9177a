// The public face of the charts: pages render a ChartFigure; the rest is how it draws.
export { ChartFigure, type ChartFigureProps, type ChartKind } from "./ChartFigure";
export type { ChartData, ChartSeries, Unit } from "./data";
export { formatValue } from "./format";
export { seriesColour } from "./palette";
