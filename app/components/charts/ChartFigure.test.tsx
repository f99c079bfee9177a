import { load } from "cheerio";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ChartFigure, type ChartData, type ChartFigureProps } from "./index";

const data: ChartData = {
  categories: ["Carrier X", "Carrier Y", "Carrier Z"],
  unit: "money",
  currency: "AUD",
  series: [
    { key: "buy", label: "Buy", values: [1234.5, null, 99] },
    { key: "sell", label: "Sell", values: [1500, 80, 120.25] },
  ],
};
const props: ChartFigureProps = { id: "cost", title: "Freight cost by carrier", description: "Buy and sell cost of freight per carrier.", data, kind: "bar" };
const render = (over: Partial<ChartFigureProps> = {}) => load(renderToStaticMarkup(<ChartFigure {...props} {...over} />));

describe("ChartFigure accessibility wiring", () => {
  const $ = render();

  it("is a figure captioned by its title", () => {
    expect($("figure#cost > figcaption").text()).toBe("Freight cost by carrier");
  });

  it("names the image by its <title> and <desc>, whose ids exist and start with the figure's id", () => {
    const svg = $("figure svg[role=img]");
    expect(svg).toHaveLength(1);
    const ids = svg.attr("aria-labelledby")!.split(" ");
    expect(ids).toEqual(["cost-title", "cost-desc"]);
    expect(svg.children("title").attr("id")).toBe("cost-title");
    expect(svg.children("title").text()).toBe("Freight cost by carrier");
    expect(svg.children("desc").attr("id")).toBe("cost-desc");
    expect(svg.children("desc").text()).toBe("Buy and sell cost of freight per carrier.");
  });

  it("gives two figures on one page ids that do not clash", () => {
    const page = load(renderToStaticMarkup(<>{[<ChartFigure key="a" {...props} />, <ChartFigure key="b" {...props} id="cost-line" kind="line" />]}</>));
    const ids = page("[id]").toArray().map((e) => page(e).attr("id"));
    expect(new Set(ids).size).toBe(ids.length);
    for (const svg of page("svg[role=img]").toArray())
      for (const ref of page(svg).attr("aria-labelledby")!.split(" ")) expect(page(`#${ref}`)).toHaveLength(1);
  });

  it("hides the legend swatches from assistive technology", () => {
    $("[data-testid=chart-legend] svg").each((_, s) => expect($(s).attr("aria-hidden")).toBe("true"));
  });
});

describe("ChartFigure table", () => {
  const $ = render();
  const table = $("details table");

  it("is in the HTML under the chart, with a caption", () => {
    expect($("details > summary").text()).toBe("Show the data");
    expect(table.children("caption").text()).toBe("Freight cost by carrier");
    // after the chart in the document
    expect($.html().indexOf("<table")).toBeGreaterThan($.html().indexOf("</svg>"));
  });

  it("has a header row: the category column, then one column per series", () => {
    expect(table.find("thead th").toArray().map((th) => $(th).text())).toEqual(["Category", "Buy", "Sell"]);
    expect(render({ categoryLabel: "Carrier" })("thead th").first().text()).toBe("Carrier");
  });

  it("has one row per category with the figures formatted by unit, a dash for a null", () => {
    const rows = table.find("tbody tr").toArray().map((tr) => $(tr).children().toArray().map((c) => $(c).text()));
    expect(rows).toEqual([
      ["Carrier X", "$1,234.50", "$1,500.00"],
      ["Carrier Y", "–no data", "$80.00"],
      ["Carrier Z", "$99.00", "$120.25"],
    ]);
    // the dash is for the eye; a screen reader hears "no data"
    expect(table.find("tbody tr").eq(1).find("[aria-hidden=true]").text()).toBe("–");
  });
});

describe("ChartFigure parts that depend on the props", () => {
  it("shows a legend only with more than one series", () => {
    const two = render();
    expect(two("[data-testid=chart-legend] li").toArray().map((li) => two(li).text())).toEqual(["Buy", "Sell"]);
    const one = render({ data: { ...data, series: [data.series[0]!] } });
    expect(one("[data-testid=chart-legend]")).toHaveLength(0);
  });

  it("links the CSV only when given, as a download", () => {
    const withCsv = render({ csvHref: "/insight/cost.csv?from=2026-01-01" });
    const a = withCsv("a[data-testid=chart-csv]");
    expect(a.attr("href")).toBe("/insight/cost.csv?from=2026-01-01");
    expect(a.is("[download]")).toBe(true);
    expect(a.text()).toBe("Download CSV of Freight cost by carrier");
    expect(render()("a")).toHaveLength(0);
  });

  it("draws the kind asked for", () => {
    expect(render()("svg[data-chart]").attr("data-chart")).toBe("bar");
    expect(render({ kind: "stacked" })("svg[data-chart]").attr("data-chart")).toBe("stacked");
    expect(render({ kind: "line" })("svg[data-chart]").attr("data-chart")).toBe("line");
  });

  it("has no script and no style attribute a strict CSP would block", () => {
    for (const kind of ["bar", "stacked", "line"] as const) expect(render({ kind, csvHref: "/x.csv" }).html()).not.toMatch(/<script|\sstyle=|\son[a-z]+=/i);
  });
});

describe("ChartFigure with nothing to draw", () => {
  const cases: [string, ChartData][] = [
    ["no categories", { ...data, categories: [], series: data.series.map((s) => ({ ...s, values: [] })) }],
    ["every value null", { ...data, series: data.series.map((s) => ({ ...s, values: [null, null, null] })) }],
    ["no series", { ...data, series: [] }],
  ];

  it.each(cases)("with %s shows the empty message instead of chart, table and CSV link", (_, empty) => {
    const $ = render({ data: empty, csvHref: "/x.csv" });
    expect($("[data-testid=chart-empty]").text()).toBe("No data for these filters.");
    expect($("figcaption").text()).toBe("Freight cost by carrier");
    expect($("svg")).toHaveLength(0);
    expect($("table")).toHaveLength(0);
    expect($("a")).toHaveLength(0);
  });

  it("shows the page's own message when given", () => {
    expect(render({ data: cases[1]![1], empty: "No consignments were delivered in March." })("[data-testid=chart-empty]").text()).toBe("No consignments were delivered in March.");
  });

  it("still draws a chart when the only values are zeros: a zero is a figure", () => {
    const zeros = render({ data: { ...data, series: data.series.map((s) => ({ ...s, values: [0, null, 0] })) } });
    expect(zeros("svg[role=img]")).toHaveLength(1);
    expect(zeros("[data-testid=chart-empty]")).toHaveLength(0);
  });
});
