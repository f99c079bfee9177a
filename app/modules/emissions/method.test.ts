import { AIR_UPLIFT_KM, computeEmissions, DEFAULT_FACTORS, haversineKm, METHOD_VERSION, NO_FIGURE, ROAD_CIRCUITY } from "./method";

// city centres (GPO coordinates); great-circle figures worked by hand with R = 6371.0088 km
const SYDNEY = { latitude: -33.8688, longitude: 151.2093 };
const MELBOURNE = { latitude: -37.8136, longitude: 144.9631 };
const PERTH = { latitude: -31.9523, longitude: 115.8613 };

describe("emissions method (docs/decisions/041)", () => {
  it("measures the great circle by haversine", () => {
    expect(haversineKm(SYDNEY, MELBOURNE)).toBeCloseTo(713.43, 1);
    expect(haversineKm(SYDNEY, PERTH)).toBeCloseTo(3290.46, 1);
    expect(haversineKm(SYDNEY, SYDNEY)).toBe(0);
  });

  it("road Sydney to Melbourne: 500 kg × 713.43 km × 1.2 × 100 g/tkm = 42.806 kg CO2e", () => {
    const r = computeEmissions({ mode: "road", kg: 500, weightBasis: "charge", from: SYDNEY, to: MELBOURNE });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(ROAD_CIRCUITY).toBe(1.2);
    expect(DEFAULT_FACTORS.road.g_per_tkm).toBe(100);
    expect(r.figure).toMatchObject({ mode: "road", tonnes: 0.5, great_circle_km: 713.4, km: 856.1, circuity: 1.2, factor: 100, weight_basis: "charge", method_version: METHOD_VERSION });
    expect(r.figure.kg_co2e).toBe(42.806);
    expect(r.figure.source).toBe(DEFAULT_FACTORS.road.source);
  });

  it("air Sydney to Perth: great circle + 95 km, no circuity: 250 kg × 3385.46 km × 1000 g/tkm = 846.365 kg", () => {
    const r = computeEmissions({ mode: "air", kg: 250, weightBasis: "charge", from: SYDNEY, to: PERTH });
    if (!r.ok) throw new Error(r.reason);
    expect(AIR_UPLIFT_KM).toBe(95);
    expect(r.figure).toMatchObject({ mode: "air", km: 3385.5, circuity: null, factor: 1000 });
    expect(r.figure.kg_co2e).toBe(846.365);
  });

  it("a carrier's own factor replaces the default of its mode only", () => {
    const own = { road: { g_per_tkm: 62, source: "Carrier's 2025 fuel records" } };
    const road = computeEmissions({ mode: "road", kg: 500, weightBasis: "charge", from: SYDNEY, to: MELBOURNE, carrierFactors: own });
    if (!road.ok) throw new Error(road.reason);
    // 0.5 t × 856.114 km × 62 g / 1000 = 26.540 kg
    expect(road.figure).toMatchObject({ factor: 62, source: "Carrier's 2025 fuel records", kg_co2e: 26.54 });
    const air = computeEmissions({ mode: "air", kg: 250, weightBasis: "charge", from: SYDNEY, to: PERTH, carrierFactors: own });
    if (!air.ok) throw new Error(air.reason);
    expect(air.figure.factor).toBe(DEFAULT_FACTORS.air.g_per_tkm);
  });

  it("has no figure, and says why, without coordinates, weight or service", () => {
    const base = { mode: "road" as const, kg: 500, weightBasis: "charge" as const, from: SYDNEY, to: MELBOURNE };
    expect(computeEmissions({ ...base, from: { latitude: null, longitude: null } })).toEqual({ ok: false, reason: NO_FIGURE.noSender });
    expect(computeEmissions({ ...base, to: { latitude: -37.8, longitude: null } })).toEqual({ ok: false, reason: NO_FIGURE.noReceiver });
    expect(computeEmissions({ ...base, to: null })).toEqual({ ok: false, reason: NO_FIGURE.noReceiver });
    expect(computeEmissions({ ...base, kg: 0 })).toEqual({ ok: false, reason: NO_FIGURE.noWeight });
    expect(computeEmissions({ ...base, mode: null })).toEqual({ ok: false, reason: NO_FIGURE.noService });
  });
});
