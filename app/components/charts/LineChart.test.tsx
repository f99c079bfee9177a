import { load } from "cheerio";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ChartData } from "./data";
import { LineChart } from "./LineChart";
import { seriesEdge } from "./palette";

const render = (data: ChartData) => load(renderToStaticMarkup(<LineChart id="l" title="T" description="D" data={data} />));
const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun"];

/** A point's centre, read back from its transform. */
const centre = (transform: string | undefined) => {
  const m = /translate\(([-\d.]+),([-\d.]+)\)/.exec(transform ?? "")!;
  return { x: Number(m[1]), y: Number(m[2]) };
};
/** How many separate pieces a path is drawn in: one per move-to. */
const pieces = (d: string | undefined) => (d ?? "").match(/M/g)?.length ?? 0;

describe("LineChart", () => {
  const data: ChartData = {
    categories: months,
    unit: "days",
    series: [
      { key: "a", label: "Carrier A", values: [2, 3, null, 4, 5, 4] },
      { key: "b", label: "Carrier B", values: [1, 1.5, 2, 2.5, 3, 3.5] },
    ],
  };
  const $ = render(data);
  const group = (key: string) => $(`g[data-series="${key}"]`);

  it("draws one line per series in the series' edge colour", () => {
    expect($("path[data-line]")).toHaveLength(2);
    expect(group("a").find("path[data-line]").attr("stroke")).toBe(seriesEdge(0));
    expect(group("b").find("path[data-line]").attr("stroke")).toBe(seriesEdge(1));
  });

  it("breaks the line at a null instead of bridging it", () => {
    expect(pieces(group("a").find("path[data-line]").attr("d"))).toBe(2);
    expect(pieces(group("b").find("path[data-line]").attr("d"))).toBe(1);
  });

  it("marks every value with a point and none for a null", () => {
    const a = group("a").find("path[data-category]").toArray().map((p) => Number($(p).attr("data-category")));
    expect(a).toEqual([0, 1, 3, 4, 5]);
    expect(group("b").find("path[data-category]")).toHaveLength(6);
  });

  it("places points left to right by month and at heights linear in the value", () => {
    const pts = group("b").find("path[data-category]").toArray().map((p) => centre($(p).attr("transform")));
    for (let i = 1; i < pts.length; i++) expect(pts[i]!.x).toBeGreaterThan(pts[i - 1]!.x);
    // equal steps of 0.5 day are equal steps up the drawing (y grows downwards)
    const rise = pts[0]!.y - pts[1]!.y;
    expect(rise).toBeGreaterThan(0);
    for (let i = 1; i < pts.length; i++) expect(pts[i - 1]!.y - pts[i]!.y).toBeCloseTo(rise, 1);
  });

  it("gives every point its hover detail", () => {
    expect(group("a").find("path[data-category] > title").first().text()).toBe("Jan · Carrier A: 2 days");
    expect(group("b").find("path[data-category] > title").last().text()).toBe("Jun · Carrier B: 3.5 days");
  });

  it("marks each series with its own point shape", () => {
    const shape = (key: string) => group(key).find("path[data-category]").first().attr("d");
    expect(shape("a")).not.toBe(shape("b"));
  });

  it("shows a point alone between two nulls, though it has no line to join", () => {
    const $1 = render({ categories: ["Jan", "Feb", "Mar"], unit: "number", series: [{ key: "s", label: "S", values: [null, 7, null] }] });
    expect($1("path[data-category]").toArray().map((p) => $1(p).attr("data-category"))).toEqual(["1"]);
  });

  it("has no script and no style attribute a strict CSP would block", () => {
    expect($.html()).not.toMatch(/<script|\sstyle=|\son[a-z]+=/i);
  });
});
