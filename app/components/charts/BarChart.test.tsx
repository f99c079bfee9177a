import { load } from "cheerio";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { BarChart } from "./BarChart";
import type { ChartData } from "./data";

const render = (data: ChartData, stacked = false) => load(renderToStaticMarkup(<BarChart id="c" title="T" description="D" data={data} stacked={stacked} />));
const num = (v: string | undefined) => Number(v);

/** Each bar as drawn: its series, category, top, height and horizontal extent, read back from the markup. */
function bars($: ReturnType<typeof load>) {
  return $("rect[data-series]")
    .toArray()
    .map((el) => {
      const r = $(el);
      return {
        series: r.attr("data-series"),
        category: num(r.attr("data-category")),
        y: num(r.attr("y")),
        x: num(r.attr("x")),
        width: num(r.attr("width")),
        height: num(r.attr("height")),
        title: r.children("title").text(),
      };
    });
}
const zeroY = ($: ReturnType<typeof load>) => num($("line[data-zero]").attr("y1"));

const carriers: ChartData = {
  categories: ["Carrier X", "Carrier Y", "Carrier Z"],
  unit: "percent",
  series: [
    { key: "on", label: "On time", values: [92.5, 46.25, null] },
    { key: "late", label: "Late", values: [7.5, 53.75, 20] },
  ],
};

describe("BarChart, grouped", () => {
  const $ = render(carriers);
  const drawn = bars($);

  it("draws bar heights in proportion to the values, from a 0 baseline", () => {
    const on = drawn.filter((b) => b.series === "on");
    expect(on[0]!.height / on[1]!.height).toBeCloseTo(92.5 / 46.25, 2);
    const late = drawn.filter((b) => b.series === "late");
    expect(late[1]!.height / late[0]!.height).toBeCloseTo(53.75 / 7.5, 2);
    // every bar stands on the zero line
    for (const b of drawn) expect(b.y + b.height).toBeCloseTo(zeroY($), 1);
  });

  it("starts the value axis at 0 even when every value is far from it", () => {
    // a baseline at the smallest value would draw 60 as no bar and 120 as twice 90's height
    const $f = render({ categories: ["A", "B", "C"], unit: "kg", series: [{ key: "w", label: "Weight", values: [60, 90, 120] }] });
    const [a, b, c] = bars($f);
    expect(b!.height / a!.height).toBeCloseTo(90 / 60, 2);
    expect(c!.height / a!.height).toBeCloseTo(120 / 60, 2);
    expect($f("g[data-axis=value] text").first().text()).toBe("0 kg");
  });

  it("draws no bar for a null, and a bar for every other value", () => {
    expect(drawn).toHaveLength(5);
    expect(drawn.find((b) => b.series === "on" && b.category === 2)).toBeUndefined();
    expect(drawn.find((b) => b.series === "late" && b.category === 2)).toBeDefined();
  });

  it("puts a category's series side by side, in series order, inside one slot", () => {
    const [a, b] = drawn.filter((d) => d.category === 0);
    expect(a!.series).toBe("on");
    expect(b!.x).toBeGreaterThanOrEqual(a!.x + a!.width);
    const next = drawn.find((d) => d.category === 1)!;
    expect(next.x).toBeGreaterThan(b!.x + b!.width);
  });

  it("gives each bar its hover detail: category, series and the formatted value", () => {
    expect(drawn[0]!.title).toBe("Carrier X · On time: 92.5%");
    expect(drawn.map((b) => b.title)).toContain("Carrier Z · Late: 20.0%");
  });

  it("has a value axis from 0 with nice ticks and light gridlines", () => {
    const ticks = $("g[data-axis=value] text").toArray().map((t) => $(t).text());
    expect(ticks[0]).toBe("0%");
    expect(ticks.at(-1)).toBe("100%");
    expect($("g[data-axis=value] line").length).toBeGreaterThanOrEqual(ticks.length);
  });

  it("runs percent bars to 100 however small the shares, and other units to their largest value", () => {
    const top = (data: ChartData) => $top(render(data));
    const $top = (r: ReturnType<typeof load>) => r("g[data-axis=value] text").toArray().map((t) => r(t).text()).at(-1);
    expect(top({ unit: "percent", categories: ["A", "B"], series: [{ key: "s", label: "S", values: [0, 3] }] })).toBe("100%");
    expect(top({ unit: "number", categories: ["A", "B"], series: [{ key: "s", label: "S", values: [0, 3] }] })).toBe("3");
  });

  it("draws negatives below the zero line", () => {
    const $n = render({ categories: ["Credit", "Charge"], unit: "money", currency: "AUD", series: [{ key: "m", label: "Amount", values: [-50, 100] }] });
    const [credit, charge] = bars($n);
    expect(credit!.y).toBeCloseTo(zeroY($n), 1);
    expect(charge!.y + charge!.height).toBeCloseTo(zeroY($n), 1);
    expect(charge!.height / credit!.height).toBeCloseTo(2, 2);
  });

  it("keeps two categories of the same name apart", () => {
    const twice = bars(render({ categories: ["Same", "Same"], unit: "number", series: [{ key: "n", label: "N", values: [1, 2] }] }));
    expect(twice).toHaveLength(2);
    expect(twice[1]!.x).toBeGreaterThan(twice[0]!.x + twice[0]!.width);
  });
});

describe("BarChart, stacked", () => {
  const data: ChartData = {
    categories: ["Jan", "Feb"],
    unit: "money",
    currency: "AUD",
    series: [
      { key: "freight", label: "Freight", values: [100, 300] },
      { key: "fuel", label: "Fuel", values: [50, null] },
      { key: "other", label: "Surcharges", values: [25, 60] },
    ],
  };
  const $ = render(data, true);
  const drawn = bars($);
  const column = (c: number) => drawn.filter((b) => b.category === c);

  it("stacks the segments so they add up to the total, each on the one below", () => {
    const jan = column(0);
    expect(jan.map((b) => b.series)).toEqual(["freight", "fuel", "other"]);
    const total = jan.reduce((s, b) => s + b.height, 0);
    expect(total / jan[0]!.height).toBeCloseTo(175 / 100, 2);
    expect(jan[0]!.y + jan[0]!.height).toBeCloseTo(zeroY($), 1);
    expect(jan[1]!.y + jan[1]!.height).toBeCloseTo(jan[0]!.y, 1);
    expect(jan[2]!.y + jan[2]!.height).toBeCloseTo(jan[1]!.y, 1);
    // one column per category, the full slot wide
    expect(new Set(jan.map((b) => b.x)).size).toBe(1);
  });

  it("draws nothing for a null and closes the stack over it", () => {
    const feb = column(1);
    expect(feb.map((b) => b.series)).toEqual(["freight", "other"]);
    expect(feb[1]!.y + feb[1]!.height).toBeCloseTo(feb[0]!.y, 1);
    expect((feb[0]!.height + feb[1]!.height) / column(0)[0]!.height).toBeCloseTo(360 / 100, 2);
  });

  it("stacks negatives down from zero and positives up from it", () => {
    const $n = render({ categories: ["Mar"], unit: "money", currency: "AUD", series: [{ key: "charge", label: "Charges", values: [100] }, { key: "credit", label: "Credits", values: [-40] }] }, true);
    const [charge, credit] = bars($n);
    expect(charge!.y + charge!.height).toBeCloseTo(zeroY($n), 1);
    expect(credit!.y).toBeCloseTo(zeroY($n), 1);
    expect(charge!.height / credit!.height).toBeCloseTo(100 / 40, 2);
  });

  it("scales the axis to the tallest stack, not the tallest segment", () => {
    const top = $("g[data-axis=value] text").last().text();
    expect(top).toBe("$400");
    expect(drawn[0]!.title).toBe("Jan · Freight: $100.00");
  });
});

describe("BarChart category labels", () => {
  const months = Array.from({ length: 24 }, (_, i) => `${["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][i % 12]} ${2024 + Math.floor(i / 12)}`);
  const series = (n: number) => [{ key: "n", label: "Consignments", values: Array.from({ length: n }, (_, i) => i + 1) }];

  it("stay level while they fit", () => {
    const $ = render({ categories: ["A", "B", "C"], unit: "number", series: series(3) });
    expect($("g[data-axis=category] text[transform]")).toHaveLength(0);
    expect($("g[data-axis=category] text").toArray().map((t) => $(t).text())).toEqual(["A", "B", "C"]);
  });

  it("turn 45° and all 24 are drawn for two years of months", () => {
    const $ = render({ categories: months, unit: "number", series: series(24) });
    const labels = $("g[data-axis=category] text");
    expect(labels.toArray().map((t) => $(t).text())).toEqual(months);
    labels.each((_, t) => expect($(t).attr("transform")).toMatch(/rotate\(-45\)$/));
    // and every label stays inside the drawing
    const firstX = Number(/translate\(([\d.]+),/.exec(labels.first().attr("transform")!)![1]);
    expect(firstX - "Jan 2024".length * 7 * Math.SQRT1_2).toBeGreaterThan(0);
  });

  it("thin to every n-th label, from the first, when even turned labels would touch; every bar stays", () => {
    const weeks = Array.from({ length: 60 }, (_, i) => `Week ${i + 1}`);
    const $ = render({ categories: weeks, unit: "number", series: series(60) });
    const shown = $("g[data-axis=category] text").toArray().map((t) => Number($(t).attr("data-category")));
    expect(shown[0]).toBe(0);
    const every = shown[1]! - shown[0]!;
    expect(every).toBeGreaterThan(1);
    expect(shown).toEqual(Array.from({ length: Math.ceil(60 / every) }, (_, i) => i * every));
    expect(bars($)).toHaveLength(60);
  });

  it("cut a long label with … and keep the full label as its hover detail", () => {
    const $ = render({ categories: ["Toll Priority Overnight Express", "B"], unit: "number", series: series(2) });
    const label = $("g[data-axis=category] text").first();
    expect(label.children("title").text()).toBe("Toll Priority Overnight Express");
    expect(label.clone().children().remove().end().text()).toBe("Toll Priority O…");
  });
});

describe("BarChart markup", () => {
  const html = renderToStaticMarkup(<BarChart id="c" title="T" description="D" data={carriers} />);

  it("scales to its container from a fixed 640-wide view box", () => {
    expect(html).toMatch(/^<svg viewBox="0 0 640 280" width="100%"/);
  });

  it("has no script and no style attribute a strict CSP would block", () => {
    expect(html).not.toMatch(/<script|\sstyle=|\son[a-z]+=/i);
  });
});
