import { describe, expect, it } from "vitest";
import { rate, type Lane, type RatingInput, type ServiceOption } from "../rating/engine";
import { compare, readRating, thresholdsOf, withinThresholds, type ConsignmentFacts, type InvoiceLineFacts } from "./compare";

/** A stored rating: freight 80.00 + fuel 10.00 + remote 10.00 = 100.00 buy; sell 120.00 (+ GST line). */
const ratingDetail = (over: Record<string, unknown> = {}) => ({
  from_zone: "MEL",
  to_zone: "SYD",
  charge_weight: 12.5,
  buy: [
    { category: "freight_charge", description: "Freight MEL to SYD", amount: 80 },
    { category: "fuel_charge", description: "Fuel levy 12.5%", amount: 10 },
    { category: "remote_surcharge", description: "Remote area tier 1", amount: 10 },
  ],
  sell: [
    { category: "freight_charge", description: "Freight MEL to SYD", amount: 96 },
    { category: "fuel_charge", description: "Fuel levy 12.5%", amount: 12 },
    { category: "remote_surcharge", description: "Remote area tier 1", amount: 12 },
    { category: "gst", description: "GST 10%", amount: 12 },
  ],
  ...over,
});

const consignment = (over: Partial<ConsignmentFacts> = {}): ConsignmentFacts => ({ rating_detail: ratingDetail(), service_id: 7, ...over });

/** The invoice line that matches the rating exactly; amounts as the database gives them (strings). */
const line = (over: Partial<InvoiceLineFacts> = {}): InvoiceLineFacts => ({
  costs: [
    { category: "freight_charge", amount: "80.00" },
    { category: "fuel_charge", amount: "10.00" },
    { category: "remote_surcharge", amount: "10.00" },
    { category: "gst", amount: "10.00" },
  ],
  charge_weight: "12.500",
  from_zone: "MEL",
  to_zone: "SYD",
  service_id: 7,
  ...over,
});

/** The matching line with its freight moved by `cents`. */
const freightOff = (cents: number, over: Partial<InvoiceLineFacts> = {}) =>
  line({ costs: [{ category: "freight_charge", amount: ((8000 + cents) / 100).toFixed(2) }, { category: "fuel_charge", amount: "10.00" }, { category: "remote_surcharge", amount: "10.00" }], ...over });

const none = { flat: 0, percentage: 0 };

describe("compare: amounts", () => {
  it("compares buy against buy by category, the carrier's GST kept apart", () => {
    const c = compare(line(), consignment(), none);
    expect(c.categories).toEqual([
      { category: "freight_charge", rated: 8000, invoiced: 8000, difference: 0 },
      { category: "fuel_charge", rated: 1000, invoiced: 1000, difference: 0 },
      { category: "remote_surcharge", rated: 1000, invoiced: 1000, difference: 0 },
    ]);
    expect(c).toMatchObject({ rated_buy: 10000, invoiced: 10000, invoiced_gst: 1000, discrepancy: 0, state: "reconciled", reasons: [] });
  });

  it("discrepancy is invoiced minus rated buy; margin is sell (without GST) minus the invoiced buy", () => {
    const c = compare(freightOff(550), consignment(), { flat: 10, percentage: 0 });
    expect(c.discrepancy).toBe(550);
    expect(c.rated_sell).toBe(12000);
    expect(c.margin).toBe(12000 - 10550);
    expect(c.margin_percent).toBe(12.08); // 1450 / 12000 = 12.0833 %
  });

  it("adds cents as integers: 0.10 + 0.20 invoiced equals 0.30 rated exactly", () => {
    const rated = ratingDetail({ buy: [{ category: "freight_charge", description: "", amount: 0.3 }], sell: [] });
    const c = compare(line({ costs: [{ category: "freight_charge", amount: "0.10" }, { category: "freight_charge", amount: "0.20" }] }), consignment({ rating_detail: rated }), none);
    expect(c.discrepancy).toBe(0);
    expect(c.state).toBe("reconciled");
  });

  it("a line with no cost lines counts its total_cost (less any tax line) as freight", () => {
    const c = compare(line({ costs: [], total_cost: "100.00" }), consignment(), none);
    expect(c.invoiced).toBe(10000);
    expect(c.categories.find((x) => x.category === "freight_charge")).toEqual({ category: "freight_charge", rated: 8000, invoiced: 10000, difference: 2000 });
  });

  it("without a sell the margin percentage is null", () => {
    const c = compare(line(), consignment({ rating_detail: ratingDetail({ sell: [] }) }), none);
    expect(c.margin).toBe(-10000);
    expect(c.margin_percent).toBeNull();
  });

  it("a credit line's margin is on the credit the customer is billed (in proportion to the buy), never the consignment's whole sell again", () => {
    // -20.00 credited on a consignment rated 100.00 buy, 120.00 sell: billed -24.00, so the margin is -4.00, 16.67 % of the charge
    const credit = compare(line({ costs: [{ category: "freight_charge", amount: "-20.00" }] }), consignment(), none);
    expect(credit).toMatchObject({ invoiced: -2000, rated_sell: 12000, margin: -400, margin_percent: 16.67 });
    // a credit_adjustment line alone is a credit whatever its sign; with no rated buy it is passed on at cost
    expect(compare(line({ costs: [{ category: "credit_adjustment", amount: "-5.00" }] }), consignment(), none).margin).toBe(-100);
    const unrated = ratingDetail({ buy: [{ category: "freight_charge", description: "", amount: 0 }] });
    expect(compare(line({ costs: [{ category: "freight_charge", amount: "-20.00" }] }), consignment({ rating_detail: unrated }), none).margin).toBe(0);
  });

  it("reads the rating_detail the engine stores", () => {
    const lane: Lane = { rateCode: "STD", fromZone: "MEL", toZone: "SYD", basic: 10, perKg: 0.5, perItem: 0, minimum: 15, transitDays: 2, cubicFactor: 250, som: "metric", effectiveFrom: "2026-01-01" };
    const option: ServiceOption = {
      siteServiceId: 1, carrierCode: "NL", carrierName: "Northline", serviceCode: "GEN", serviceName: "General", serviceType: "road", rateCode: "STD",
      markup: 20, surchargesMarkup: 0, fromZone: "MEL", toZone: "SYD", lane, fuelPercentage: 10, hideRates: false, timeslots: { pickup: false, deliver_by: false, deliver_at: false },
    };
    const input: RatingInput = {
      despatchDate: "2026-03-02", som: "metric", senderCountry: "AUSTRALIA", siteCode: "S1",
      items: [{ quantity: 1, length: 10, width: 10, height: 10, weight: 40, dangerousGoods: false, manualHandling: false }],
      receiverRemoteTier: 0, receiverResidential: false, isReturn: false, warranty: false, services: [option], surchargeSets: [], estimateDelivery: (d) => d,
    };
    const stored = { ...rate(input).carriers[0]?.rating_detail, hidden: false };
    // freight 10 + 0.5 x 40 = 30.00, fuel 3.00; sell 36.00 + 3.60 (GST not counted)
    expect(readRating(stored)).toEqual({ buy: new Map([["freight_charge", 3000], ["fuel_charge", 300]]), sell: 3960, charge_weight: 40000, from_zone: "MEL", to_zone: "SYD" });
  });
});

describe("compare: thresholds (the edge is within)", () => {
  it("flat 0.20 on a 100.00 buy: at, just under and just over, both directions", () => {
    const t = { flat: 0.2, percentage: 0 };
    expect(compare(freightOff(20), consignment(), t).state).toBe("reconciled");
    expect(compare(freightOff(19), consignment(), t).state).toBe("reconciled");
    expect(compare(freightOff(21), consignment(), t).state).toBe("reconciling");
    expect(compare(freightOff(-20), consignment(), t).state).toBe("reconciled");
    expect(compare(freightOff(-21), consignment(), t).state).toBe("reconciling");
  });

  it("percentage 2 on a 100.00 buy: 2.00 within, 1.99 within, 2.01 not", () => {
    const t = { flat: 0, percentage: 2 };
    expect(compare(freightOff(200), consignment(), t).state).toBe("reconciled");
    expect(compare(freightOff(199), consignment(), t).state).toBe("reconciled");
    expect(compare(freightOff(201), consignment(), t).state).toBe("reconciling");
    expect(compare(freightOff(-201), consignment(), t).state).toBe("reconciling");
  });

  it("percentages with decimals stay exact: 2.5 % of 123.45 is 3.08625, so 3.08 is within and 3.09 is not", () => {
    expect(withinThresholds(308, 12345, { percentage: 2.5 })).toBe(true);
    expect(withinThresholds(309, 12345, { percentage: 2.5 })).toBe(false);
    // 0.57 % of 100.00 = 0.57 exactly, which 0.57 x 100 in floats (56.99999...) would miss
    expect(withinThresholds(57, 10000, { percentage: 0.57 })).toBe(true);
    expect(withinThresholds(58, 10000, { percentage: 0.57 })).toBe(false);
  });

  it("either threshold is enough: flat 0.20 or 2 % of a 5.00 buy (0.10)", () => {
    const t = { flat: 0.2, percentage: 2 };
    expect(withinThresholds(20, 500, t)).toBe(true);
    expect(withinThresholds(21, 500, t)).toBe(false);
    // and on 100.00 the percentage (2.00) carries past the flat amount
    expect(withinThresholds(200, 10000, t)).toBe(true);
    expect(withinThresholds(201, 10000, t)).toBe(false);
  });

  it("no thresholds set: only an exact match reconciles", () => {
    expect(thresholdsOf({})).toEqual({ flat: 0, percentage: 0 });
    expect(compare(freightOff(0), consignment(), thresholdsOf(null)).state).toBe("reconciled");
    expect(compare(freightOff(1), consignment(), thresholdsOf(null)).state).toBe("reconciling");
    expect(thresholdsOf({ reconciliation_threshold_flat: 0.5, reconciliation_threshold_percentage: 3 })).toEqual({ flat: 0.5, percentage: 3 });
  });
});

describe("compare: reasons, one per cause", () => {
  const t = { flat: 0.2, percentage: 0 };

  it("failed_to_rate: no rating_detail, or no consignment; never reconciled by the thresholds", () => {
    expect(compare(line(), consignment({ rating_detail: null }), { flat: 1000, percentage: 100 })).toMatchObject({ state: "reconciling", reasons: ["failed_to_rate"], rated_buy: 0, discrepancy: 10000 });
    expect(compare(line(), null, t)).toMatchObject({ state: "reconciling", reasons: ["failed_to_rate"] });
  });

  it("buy_rate_missing: a rating without buy lines (or only zero ones)", () => {
    expect(compare(line(), consignment({ rating_detail: ratingDetail({ buy: [] }) }), { flat: 1000, percentage: 0 })).toMatchObject({ state: "reconciling", reasons: ["buy_rate_missing"] });
    const zero = ratingDetail({ buy: [{ category: "freight_charge", description: "", amount: 0 }] });
    expect(compare(line(), consignment({ rating_detail: zero }), t).reasons).toEqual(["buy_rate_missing"]);
  });

  it("zone: the invoice's to zone (or from zone) differs from the rated one, case and spaces aside", () => {
    expect(compare(freightOff(500, { to_zone: "BNE" }), consignment(), t).reasons).toEqual(["zone"]);
    expect(compare(freightOff(500, { from_zone: "GEE" }), consignment(), t).reasons).toEqual(["zone"]);
    // the same zone written otherwise is no cause: the freight difference is then a wrong rate
    expect(compare(freightOff(500, { to_zone: " syd " }), consignment(), t).reasons).toEqual(["incorrect_rate"]);
    // a blank zone on the invoice says nothing
    expect(compare(freightOff(500, { to_zone: null, from_zone: "" }), consignment(), t).reasons).toEqual(["incorrect_rate"]);
  });

  it("check_wt_vol: the invoiced charge weight differs from the rated one", () => {
    expect(compare(freightOff(500, { charge_weight: "15.000" }), consignment(), t).reasons).toEqual(["check_wt_vol"]);
    expect(compare(freightOff(500, { charge_weight: "12.499" }), consignment(), t).reasons).toEqual(["check_wt_vol"]);
    expect(compare(freightOff(500, { charge_weight: "12.5" }), consignment(), t).reasons).toEqual(["incorrect_rate"]);
  });

  it("service: the line's service is not the consignment's, or is Unquoted", () => {
    expect(compare(freightOff(500, { service_id: 8 }), consignment(), t).reasons).toEqual(["service"]);
    expect(compare(freightOff(500, { unquoted: true, service_id: null }), consignment(), t).reasons).toEqual(["service"]);
    expect(compare(freightOff(500, { service_id: null }), consignment(), t).reasons).toEqual(["incorrect_rate"]);
  });

  it("surcharge: a surcharge invoiced but not rated, or rated but not invoiced", () => {
    const extra = line({ costs: [...line().costs, { category: "residential_surcharge", amount: "6.50" }] });
    expect(compare(extra, consignment(), t)).toMatchObject({ discrepancy: 650, reasons: ["surcharge"] });
    const missing = line({ costs: [{ category: "freight_charge", amount: "80.00" }, { category: "fuel_charge", amount: "10.00" }] });
    expect(compare(missing, consignment(), t)).toMatchObject({ discrepancy: -1000, reasons: ["surcharge"] });
  });

  it("incorrect_rate: same weight, zones and service, yet a charge on both sides differs", () => {
    expect(compare(freightOff(500), consignment(), t).reasons).toEqual(["incorrect_rate"]);
    const fuel = line({ costs: [{ category: "freight_charge", amount: "80.00" }, { category: "fuel_charge", amount: "12.00" }, { category: "remote_surcharge", amount: "10.00" }] });
    expect(compare(fuel, consignment(), t).reasons).toEqual(["incorrect_rate"]);
  });

  it("several causes give several reasons, in the spec's order, and no incorrect_rate beside a weight, zone or service cause", () => {
    const many = line({
      costs: [{ category: "freight_charge", amount: "95.00" }, { category: "fuel_charge", amount: "10.00" }, { category: "remote_surcharge", amount: "10.00" }, { category: "oversize_surcharge", amount: "20.00" }],
      to_zone: "PER",
      charge_weight: "30",
      service_id: 9,
    });
    expect(compare(many, consignment(), t).reasons).toEqual(["zone", "service", "surcharge", "check_wt_vol"]);
  });

  it("outside the thresholds with no cause found (a carrier credit): the default reason check_wt_vol", () => {
    const credit = line({ costs: [...line().costs, { category: "credit_adjustment", amount: "-5.00" }] });
    expect(compare(credit, consignment(), t)).toMatchObject({ discrepancy: -500, reasons: ["check_wt_vol"] });
  });

  it("within the thresholds the causes are not reasons: the line is reconciled", () => {
    expect(compare(freightOff(10, { to_zone: "BNE", service_id: 8 }), consignment(), t)).toMatchObject({ state: "reconciled", reasons: [] });
  });
});
