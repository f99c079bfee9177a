import { describe, expect, it } from "vitest";
import { filterParams, monthEnd, monthsOf, parseInsightFilters, periodDays, wholeMonths } from "./filters";

const parse = (q: string, today = "2026-11-28") => parseInsightFilters(new URLSearchParams(q), today);

describe("the insight filters", () => {
  it("default to the twelve months to today, the performance section, every customer, site and carrier", () => {
    const r = parse("");
    expect(r).toEqual({
      ok: true,
      filters: { from: "2025-12-01", to: "2026-11-28", customerId: null, siteId: null, carrierId: null, serviceId: null, lane: null, currency: null, section: "performance" },
    });
  });

  it("read ids, a lane (case aside) and a currency; empty fields count as absent", () => {
    const r = parse("from=2026-01-01&to=2026-03-31&customer_id=4&site_id=&carrier_id=7&lane=vic-nsw&currency=NZD&section=emissions");
    expect(r.ok && r.filters).toMatchObject({ customerId: 4, siteId: null, carrierId: 7, lane: { from: "VIC", to: "NSW" }, currency: "NZD", section: "emissions" });
  });

  it("refuse unknown filters by name, a period over two years, a period that ends before it starts and a malformed lane", () => {
    expect(parse("colour=red")).toMatchObject({ ok: false, errors: { filters: ["Unknown filter: colour"] } });
    expect(parse("from=2024-11-27&to=2026-11-28")).toMatchObject({ ok: false, errors: { from: ["The period can be at most two years"] } });
    expect(parse("from=2024-11-28&to=2026-11-28").ok).toBe(true); // 731 days, both ends counted
    expect(parse("from=2026-02-01&to=2026-01-31")).toMatchObject({ ok: false, errors: { to: ["The period must end on or after its start"] } });
    expect(parse("lane=VIC")).toMatchObject({ ok: false, errors: { lane: ["Lane must be two states, from-to (for example VIC-NSW)"] } });
    expect(parse("carrier_id=abc")).toMatchObject({ ok: false, errors: { carrier_id: ["Carrier must be a number"] } });
    expect(parse("currency=EUR")).toMatchObject({ ok: false, errors: { currency: ["Currency must be one of AUD, NZD, USD"] } });
    expect(parse("section=gossip").ok).toBe(false);
  });

  it("count a period's days and months, and go back into the URL as they came", () => {
    expect(periodDays("2026-01-01", "2026-01-01")).toBe(1);
    expect(periodDays("2026-01-01", "2026-12-31")).toBe(365);
    expect(monthsOf("2025-11-15", "2026-02-01")).toEqual(["2025-11", "2025-12", "2026-01", "2026-02"]);
    const r = parse("from=2026-01-01&to=2026-03-31&carrier_id=7&lane=VIC-NSW&section=spend");
    if (!r.ok) throw new Error(r.message);
    expect(parse(filterParams(r.filters).toString())).toEqual(r);
    expect(filterParams(r.filters, { chart: "spend-month" }).get("chart")).toBe("spend-month");
  });

  it("find the whole months inside a period, which the monthly rollup answers (the days outside them come from the daily one)", () => {
    expect([monthEnd("2026-02-10"), monthEnd("2024-02-01"), monthEnd("2026-12-31")]).toEqual(["2026-02-28", "2024-02-29", "2026-12-31"]);
    expect(wholeMonths("2025-12-01", "2026-11-28")).toEqual({ first: "2025-12-01", lastStart: "2026-10-01", lastEnd: "2026-10-31" });
    expect(wholeMonths("2025-12-15", "2026-11-30")).toEqual({ first: "2026-01-01", lastStart: "2026-11-01", lastEnd: "2026-11-30" });
    expect(wholeMonths("2026-02-01", "2026-02-28")).toEqual({ first: "2026-02-01", lastStart: "2026-02-01", lastEnd: "2026-02-28" });
    expect(wholeMonths("2026-02-02", "2026-03-30")).toBeNull();
    expect(wholeMonths("2026-02-10", "2026-02-20")).toBeNull();
  });
});
