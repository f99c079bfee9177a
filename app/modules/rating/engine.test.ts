import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rate, resolveZone, type Lane, type RatingInput, type RatingItem, type ServiceOption, type SurchargeSet } from "./engine";

const lane = (over: Partial<Lane> = {}): Lane => ({
  rateCode: "STD",
  fromZone: "MEL",
  toZone: "SYD",
  basic: 10,
  perKg: 0.5,
  perItem: 0,
  minimum: 15,
  transitDays: 2,
  cubicFactor: 250,
  som: "metric",
  effectiveFrom: "2026-01-01",
  ...over,
});

const option = (over: Partial<ServiceOption> = {}): ServiceOption => ({
  siteServiceId: 1,
  carrierCode: "NORTHLINE",
  carrierName: "Northline",
  serviceCode: "GEN",
  serviceName: "General Road",
  serviceType: "road",
  rateCode: "STD",
  markup: 0,
  surchargesMarkup: 0,
  fromZone: "MEL",
  toZone: "SYD",
  lane: lane(),
  fuelPercentage: 0,
  hideRates: false,
  timeslots: { pickup: false, deliver_by: false, deliver_at: false },
  ...over,
});

const item = (over: Partial<RatingItem> = {}): RatingItem => ({
  quantity: 2,
  length: 40,
  width: 30,
  height: 20,
  weight: 20,
  dangerousGoods: false,
  manualHandling: false,
  ...over,
});

const input = (over: Partial<RatingInput> = {}): RatingInput => ({
  despatchDate: "2026-11-23",
  som: "metric",
  senderCountry: "AUSTRALIA",
  siteCode: "MEL",
  items: [item()],
  receiverRemoteTier: 0,
  receiverResidential: false,
  isReturn: false,
  warranty: false,
  services: [option()],
  surchargeSets: [],
  estimateDelivery: (date, days) => `${date}+${days}`,
  ...over,
});

const set = (over: Partial<SurchargeSet> = {}): SurchargeSet => ({
  code: "STD",
  carrierCode: "NORTHLINE",
  serviceCodes: [],
  siteCodes: [],
  oversizedSurcharges: [],
  remoteSurcharges: [],
  ...over,
});

const only = (i: RatingInput) => {
  const r = rate(i).carriers[0]!;
  return { rate: r, detail: r.rating_detail!, buy: Object.fromEntries(r.rating_detail!.buy.map((l) => [l.category, l.amount])), sell: Object.fromEntries(r.rating_detail!.sell.map((l) => [l.category, l.amount])) };
};

describe("freight (worked examples)", () => {
  it("by dead weight: 2 cartons 40x30x20 cm, 20 kg: cube 12 kg < 20 kg; 10 + 0.5 x 20 = 20.00; GST 10% -> 22.00", () => {
    const { rate: r, detail } = only(input());
    expect(detail.volume).toBe(0.048);
    expect(detail.cubic_weight).toBe(12);
    expect(detail.dead_weight).toBe(20);
    expect(detail.charge_weight).toBe(20);
    expect(detail.buy).toEqual([{ category: "freight_charge", description: "Freight MEL to SYD", amount: 20 }]);
    expect(r.total_exclusive).toBe(20);
    expect(r.total).toBe(22);
    expect(r.estimated_delivery_date).toBe("2026-11-23+2");
  });

  it("by cube: 1 m3 at 250 kg/m3 beats 50 kg dead: 10 + 0.5 x 250 = 135.00", () => {
    const { detail } = only(input({ items: [item({ quantity: 1, length: 100, width: 100, height: 100, weight: 50 })] }));
    expect(detail.charge_weight).toBe(250);
    expect(detail.buy[0]!.amount).toBe(135);
  });

  it("charge weight is max(dead, cube) per line, summed: a heavy small line and a light bulky line", () => {
    const heavy = item({ quantity: 1, length: 10, width: 10, height: 10, weight: 30 }); // cube 0.25
    const bulky = item({ quantity: 1, length: 100, width: 100, height: 40, weight: 5 }); // cube 100
    const { detail } = only(input({ items: [heavy, bulky] }));
    expect(detail.charge_weight).toBe(130); // not max(35, 100.25)
  });

  it("minimum charge: 10 + 0.5 x 1 = 10.50 is below the 15.00 minimum", () => {
    const { detail } = only(input({ items: [item({ quantity: 1, length: 10, width: 10, height: 10, weight: 1 })] }));
    expect(detail.buy[0]!.amount).toBe(15);
  });

  it("per-item pallet pricing: 3 pallets at 45.00 each = 135.00", () => {
    const pallets = item({ quantity: 3, length: 120, width: 120, height: 150, weight: 900 });
    const { detail } = only(input({ items: [pallets], services: [option({ lane: lane({ basic: 0, perKg: 0, perItem: 45, minimum: 0 }) })] }));
    expect(detail.items).toBe(3);
    expect(detail.buy[0]!.amount).toBe(135);
  });

  it("imperial input on an imperial card: 24 in cube = 8 ft3 x 10 lb/ft3 = 80 lb; 5 + 0.25 x 80 = 25.00, no GST for a US sender", () => {
    const us = input({
      som: "imperial",
      senderCountry: "UNITED STATES OF AMERICA",
      items: [item({ quantity: 1, length: 24, width: 24, height: 24, weight: 30 })],
      services: [option({ lane: lane({ som: "imperial", cubicFactor: 10, basic: 5, perKg: 0.25, minimum: 0 }) })],
    });
    const { rate: r, detail } = only(us);
    expect(detail.volume).toBe(8);
    expect(detail.charge_weight).toBe(80);
    expect(r.total_exclusive).toBe(25);
    expect(r.total).toBe(25);
  });

  it("imperial input on a metric card converts: 30 lb = 13.608 kg", () => {
    const mixed = input({ som: "imperial", items: [item({ quantity: 1, length: 1, width: 1, height: 1, weight: 30 })], services: [option({ lane: lane({ basic: 0, perKg: 1, minimum: 0 }) })] });
    expect(only(mixed).detail.charge_weight).toBe(13.608);
  });
});

describe("GST by sender country", () => {
  it("AU 10 %, NZ 15 %, US none", () => {
    expect(only(input({ senderCountry: "AUSTRALIA" })).rate.total).toBe(22);
    expect(only(input({ senderCountry: "NEW ZEALAND" })).rate.total).toBe(23);
    expect(only(input({ senderCountry: "UNITED STATES OF AMERICA" })).rate.total).toBe(20);
    expect(only(input({ senderCountry: "NEW ZEALAND" })).detail.sell.at(-1)).toEqual({ category: "gst", description: "GST 15%", amount: 3 });
  });
});

describe("fuel levy", () => {
  it("applies to freight: 10 % of 20.00 = 2.00", () => {
    const { buy } = only(input({ services: [option({ fuelPercentage: 10 })] }));
    expect(buy).toEqual({ freight_charge: 20, fuel_charge: 2 });
  });
  it("applies to a surcharge only with add_fuel_levy: (20 + 25) x 10 % = 4.50, and 2.00 without", () => {
    const withLevy = only(input({ items: [item({ dangerousGoods: true })], services: [option({ fuelPercentage: 10 })], surchargeSets: [set({ dgSurcharge: { surcharge: 25, is_percentage: false, add_fuel_levy: true } })] }));
    expect(withLevy.buy).toEqual({ freight_charge: 20, fuel_charge: 4.5, dangerous_goods_surcharge: 25 });
    const without = only(input({ items: [item({ dangerousGoods: true })], services: [option({ fuelPercentage: 10 })], surchargeSets: [set({ dgSurcharge: { surcharge: 25, is_percentage: false } })] }));
    expect(without.buy.fuel_charge).toBe(2);
  });
});

describe("surcharges, fixed and percentage (of freight 20.00)", () => {
  const dg = [item({ dangerousGoods: true })];
  it("dangerous goods: fixed 25.00; 10 % = 2.00; none without dangerous goods", () => {
    expect(only(input({ items: dg, surchargeSets: [set({ dgSurcharge: { surcharge: 25, is_percentage: false } })] })).buy.dangerous_goods_surcharge).toBe(25);
    expect(only(input({ items: dg, surchargeSets: [set({ dgSurcharge: { surcharge: 10, is_percentage: true } })] })).buy.dangerous_goods_surcharge).toBe(2);
    expect(only(input({ surchargeSets: [set({ dgSurcharge: { surcharge: 25, is_percentage: false } })] })).buy.dangerous_goods_surcharge).toBeUndefined();
  });
  it("remote: the tier of the receiver locality (tier 2 fixed 12.00; 15 % = 3.00); another tier nothing", () => {
    const remote = [
      { tier: 2, surcharge: 12, is_percentage: false },
      { tier: 3, surcharge: 15, is_percentage: true },
    ];
    expect(only(input({ receiverRemoteTier: 2, surchargeSets: [set({ remoteSurcharges: remote })] })).buy.remote_surcharge).toBe(12);
    expect(only(input({ receiverRemoteTier: 3, surchargeSets: [set({ remoteSurcharges: remote })] })).buy.remote_surcharge).toBe(3);
    expect(only(input({ receiverRemoteTier: 1, surchargeSets: [set({ remoteSurcharges: remote })] })).buy.remote_surcharge).toBeUndefined();
  });
  it("oversize: the highest level any item reaches, by longest side in metres or unit weight in kg", () => {
    const levels = [
      { level: 1, from_m: 1.2, to_m: 2.4, surcharge: 30, is_percentage: false },
      { level: 2, from_m: 2.4, to_m: null, surcharge: 60, is_percentage: false },
      { level: 3, from_kg: 500, to_kg: null, surcharge: 50, is_percentage: true },
    ];
    const s = [set({ oversizedSurcharges: levels })];
    expect(only(input({ items: [item({ length: 150 })], surchargeSets: s })).buy.oversize_surcharge).toBe(30);
    expect(only(input({ items: [item({ length: 150 }), item({ length: 250 })], surchargeSets: s })).buy.oversize_surcharge).toBe(60);
    // 2 x 600 kg = 1200 kg line: 600 kg a unit reaches level 3, 50 % of freight
    const heavy = only(input({ items: [item({ quantity: 2, weight: 1200, length: 50 })], surchargeSets: s }));
    expect(heavy.buy.oversize_surcharge).toBe(cents2(heavy.buy.freight_charge! * 0.5));
    expect(only(input({ items: [item({ length: 100 })], surchargeSets: s })).buy.oversize_surcharge).toBeUndefined();
  });
  it("manual handling, residential and warranty when they apply", () => {
    const s = [set({ manualHandlingSurcharge: { surcharge: 15, is_percentage: false }, residentialSurcharge: { surcharge: 5, is_percentage: true }, warrantySurcharge: { surcharge: 3.5, is_percentage: false } })];
    expect(only(input({ surchargeSets: s })).buy).toEqual({ freight_charge: 20 });
    expect(only(input({ items: [item({ manualHandling: true })], receiverResidential: true, warranty: true, surchargeSets: s })).buy).toEqual({
      freight_charge: 20,
      manual_handling_surcharge: 15,
      residential_surcharge: 1,
      warranty_surcharge: 3.5,
    });
  });
  it("return: a fixed amount only, even if marked as a percentage", () => {
    const s = [set({ returnSurcharge: { surcharge: 7.7, is_percentage: true } })];
    expect(only(input({ isReturn: true, surchargeSets: s })).buy.return_surcharge).toBe(7.7);
    expect(only(input({ isReturn: false, surchargeSets: s })).buy.return_surcharge).toBeUndefined();
  });
  it("a set applies only to its carrier, services and sites", () => {
    const dgSet = (over: Partial<SurchargeSet>) => [set({ dgSurcharge: { surcharge: 25, is_percentage: false }, ...over })];
    expect(only(input({ items: dg, surchargeSets: dgSet({ carrierCode: "SIMEX" }) })).buy.dangerous_goods_surcharge).toBeUndefined();
    expect(only(input({ items: dg, surchargeSets: dgSet({ serviceCodes: ["RXP"] }) })).buy.dangerous_goods_surcharge).toBeUndefined();
    expect(only(input({ items: dg, surchargeSets: dgSet({ serviceCodes: ["GEN"], siteCodes: ["SYD"] }) })).buy.dangerous_goods_surcharge).toBeUndefined();
    expect(only(input({ items: dg, surchargeSets: dgSet({ serviceCodes: ["gen"], siteCodes: ["mel"] }) })).buy.dangerous_goods_surcharge).toBe(25);
  });
});

describe("markup", () => {
  it("markup on freight and fuel, surcharges markup on surcharges: 20 -> 23.00, fuel 2 -> 2.30, dg 25 -> 27.50", () => {
    const r = only(
      input({
        items: [item({ dangerousGoods: true })],
        services: [option({ markup: 15, surchargesMarkup: 10, fuelPercentage: 10 })],
        surchargeSets: [set({ dgSurcharge: { surcharge: 25, is_percentage: false } })],
      }),
    );
    expect(r.buy).toEqual({ freight_charge: 20, fuel_charge: 2, dangerous_goods_surcharge: 25 });
    expect(r.sell).toEqual({ freight_charge: 23, fuel_charge: 2.3, dangerous_goods_surcharge: 27.5, gst: 5.28 });
    expect(r.detail.total_buy).toBe(47);
    expect(r.rate.total_exclusive).toBe(52.8);
    expect(r.rate.total).toBe(58.08);
  });
});

describe("POA, NA, '-' and selection", () => {
  it("no lane or no zone: POA with no price", () => {
    const r = rate(input({ services: [option({ lane: null }), option({ siteServiceId: 2, toZone: null })] }));
    expect(r.carriers.map((c) => [c.is_poa, c.total])).toEqual([
      [true, null],
      [true, null],
    ]);
    expect(r.selected_index).toBeNull();
  });
  it("zone '-' at either end: the service is not offered", () => {
    const r = rate(input({ services: [option({ fromZone: "-" }), option({ siteServiceId: 2, toZone: "-" }), option({ siteServiceId: 3 })] }));
    expect(r.carriers.map((c) => c.site_service_id)).toEqual([3]);
  });
  it("a hidden-rate account shows NA: no totals, but it still rates", () => {
    const r = only(input({ services: [option({ hideRates: true })] }));
    expect(r.rate).toMatchObject({ is_na: true, is_poa: false, total: null, total_exclusive: null });
    expect(r.detail.total_sell).toBe(20);
  });
  const three = [
    option({ siteServiceId: 1, serviceCode: "GEN", serviceType: "road", lane: lane({ basic: 30 }) }),
    option({ siteServiceId: 2, carrierCode: "SIMEX", serviceCode: "ONT", serviceType: "overnight", lane: lane({ basic: 50 }) }),
    option({ siteServiceId: 3, carrierCode: "SIMEX", serviceCode: "SDY", serviceType: "sameday", lane: lane({ basic: 5 }) }),
    option({ siteServiceId: 4, serviceCode: "POA", lane: null }),
  ];
  it("sorts by price with POA last, and selects the cheapest", () => {
    const r = rate(input({ services: three }));
    expect(r.carriers.map((c) => c.service_code)).toEqual(["SDY", "GEN", "ONT", "POA"]);
    expect(r).toMatchObject({ selected_index: 0, rule_applied: "cheapest" });
    expect(r.carriers.every((c) => c.rule_based_selection_index === 0 && c.rule_applied === "cheapest")).toBe(true);
  });
  it("selects the preselected service (by code or carrier:code) when it rated", () => {
    expect(rate(input({ services: three, preselectedCarrierService: "ONT" }))).toMatchObject({ selected_index: 2, rule_applied: "preselected" });
    expect(rate(input({ services: three, preselectedCarrierService: "simex:ont" }))).toMatchObject({ selected_index: 2, rule_applied: "preselected" });
    // a preselected POA service cannot be chosen: the cheapest wins
    expect(rate(input({ services: three, preselectedCarrierService: "POA" }))).toMatchObject({ selected_index: 0, rule_applied: "cheapest" });
  });
  it("else the cheapest of the preselected service type", () => {
    expect(rate(input({ services: three, preselectedServiceType: "overnight" }))).toMatchObject({ selected_index: 2, rule_applied: "service_type" });
  });
});

describe("zone resolution (spec 2 Zones)", () => {
  const ctx = { customerId: 1, siteId: 10, serviceId: 100, locality: "DANDENONG SOUTH" };
  const z = (customerId: number | null, siteId: number | null, serviceId: number | null, code: string, locality: string | null = null) => ({ customerId, siteId, serviceId, locality, code });
  const all = [z(null, null, null, "DEFAULT"), z(null, null, 100, "SERVICE"), z(1, null, null, "CUSTOMER"), z(1, null, 100, "CUST+SVC"), z(1, 10, null, "CUST+SITE"), z(1, 10, 100, "CUST+SITE+SVC")];
  it("takes the most specific of the six levels", () => {
    const order = ["CUST+SITE+SVC", "CUST+SITE", "CUST+SVC", "CUSTOMER", "SERVICE", "DEFAULT"];
    for (let i = 0; i < order.length; i++) {
      const remaining = all.filter((row) => order.slice(i).includes(row.code));
      expect(resolveZone(remaining, ctx)).toBe(order[i]);
    }
  });
  it("ignores rows for another customer, site or service", () => {
    expect(resolveZone([z(2, null, null, "OTHER"), z(null, null, null, "DEFAULT")], ctx)).toBe("DEFAULT");
    expect(resolveZone([z(1, 11, null, "OTHER SITE"), z(null, null, 101, "OTHER SVC")], ctx)).toBeNull();
  });
  it("prefers a row naming the locality within a level, and ignores rows for another locality", () => {
    expect(resolveZone([z(null, null, null, "POSTCODE"), z(null, null, null, "SUBURB", "Dandenong South")], ctx)).toBe("SUBURB");
    expect(resolveZone([z(null, null, null, "OTHER", "KEYSBOROUGH")], ctx)).toBeNull();
    // but a more specific level still wins over a locality-specific default
    expect(resolveZone([z(1, null, null, "CUSTOMER"), z(null, null, null, "SUBURB", "DANDENONG SOUTH")], ctx)).toBe("CUSTOMER");
  });
  it("passes '-' through, which stops the service rating", () => {
    expect(resolveZone([z(1, null, null, "-"), z(null, null, null, "DEFAULT")], ctx)).toBe("-");
  });
});

function cents2(n: number) {
  return Math.round(n * 100) / 100;
}

describe("properties", () => {
  const arbItem = fc.record({
    quantity: fc.integer({ min: 1, max: 50 }),
    length: fc.integer({ min: 1, max: 300 }),
    width: fc.integer({ min: 1, max: 300 }),
    height: fc.integer({ min: 1, max: 300 }),
    weight: fc.integer({ min: 1, max: 5000 }),
    dangerousGoods: fc.boolean(),
    manualHandling: fc.boolean(),
  });
  const arbLane = fc.record({
    basic: fc.integer({ min: 0, max: 10000 }).map((n) => n / 100),
    perKg: fc.integer({ min: 0, max: 500 }).map((n) => n / 100),
    perItem: fc.integer({ min: 0, max: 5000 }).map((n) => n / 100),
    minimum: fc.integer({ min: 0, max: 10000 }).map((n) => n / 100),
    cubicFactor: fc.integer({ min: 100, max: 400 }),
  });
  const rich = set({
    dgSurcharge: { surcharge: 12, is_percentage: false, add_fuel_levy: true },
    manualHandlingSurcharge: { surcharge: 7.5, is_percentage: true },
    oversizedSurcharges: [{ level: 1, from_m: 1.2, to_m: null, surcharge: 20, is_percentage: false, add_fuel_levy: true }],
    remoteSurcharges: [{ tier: 2, surcharge: 9, is_percentage: true }],
  });
  const build = (items: RatingItem[], l: Partial<Lane>, markup = 0, surchargesMarkup = 0, fuel = 12.5) =>
    input({ items, receiverRemoteTier: 2, surchargeSets: [rich], services: [option({ lane: lane(l), markup, surchargesMarkup, fuelPercentage: fuel })] });

  it("the price never falls when a line's weight or a dimension grows", () => {
    fc.assert(
      fc.property(arbItem, arbLane, fc.constantFrom("weight", "length", "width", "height"), fc.integer({ min: 1, max: 500 }), (it, l, field, more) => {
        const before = only(build([it], l)).rate.total!;
        const after = only(build([{ ...it, [field]: it[field] + more }], l)).rate.total!;
        expect(after).toBeGreaterThanOrEqual(before);
      }),
      { numRuns: 300 },
    );
  });

  it("sell is never below buy for non-negative markups", () => {
    fc.assert(
      fc.property(fc.array(arbItem, { minLength: 1, maxLength: 4 }), arbLane, fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }), (items, l, m, sm) => {
        const { detail } = only(build(items, l, m, sm));
        expect(detail.total_sell).toBeGreaterThanOrEqual(detail.total_buy);
      }),
      { numRuns: 300 },
    );
  });

  it("the cost lines always add up to the totals", () => {
    fc.assert(
      fc.property(fc.array(arbItem, { minLength: 1, maxLength: 4 }), arbLane, fc.integer({ min: 0, max: 60 }), (items, l, m) => {
        const { rate: r, detail } = only(build(items, l, m, m / 2));
        const add = (lines: { amount: number }[]) => Math.round(lines.reduce((a, b) => a + b.amount * 100, 0)) / 100;
        expect(add(detail.buy)).toBe(detail.total_buy);
        expect(add(detail.sell.filter((x) => x.category !== "gst"))).toBe(detail.total_sell);
        expect(add(detail.sell)).toBe(r.total);
      }),
      { numRuns: 300 },
    );
  });
});
