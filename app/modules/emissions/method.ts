/**
 * The emissions method of docs/decisions/041 (ISO 14083 / GLEC Framework, well-to-wheel), pure so
 * unit tests check it against hand-computed figures and the browser may read its constants:
 *
 *   kg CO2e = tonnes × km × factor (g CO2e per tonne-km) / 1000
 *
 * where km is the great-circle distance between the sender's and the receiver's localities, times
 * a circuity factor by road and rail, plus a fixed uplift by air. A consignment without what the
 * method needs has no figure and a reason: never a guess.
 */
import type { TransportMode, CarrierEmissionFactors } from "../../../db/schema/carriers";

export type { TransportMode } from "../../../db/schema/carriers";

/** Stored with each figure: a change of method or defaults is a new version, and old rows say which they used. */
export const METHOD_VERSION = "glec3-2026.1";

/** Mean Earth radius (IUGG), km: the haversine's sphere. */
export const EARTH_RADIUS_KM = 6371.0088;

/** Road and rail: the road network's detour over the great circle (Ballou, Rahardja & Sakai 2002, ~1.2). */
export const ROAD_CIRCUITY = 1.2;
/** Air: the GLEC Framework's (after EN 16258) great-circle distance + 95 km for take-off, landing and routing. */
export const AIR_UPLIFT_KM = 95;

export interface Factor {
  g_per_tkm: number;
  source: string;
}

/**
 * The default intensities per mode, g CO2e per tonne-km well-to-wheel. See docs/decisions/041 for
 * their provenance: the record states which were not verified against the GLEC tables' text.
 */
export const DEFAULT_FACTORS: Record<TransportMode, Factor> = {
  road: { g_per_tkm: 100, source: "GLEC Framework v3 default, road freight (general, diesel, average load)" },
  air: { g_per_tkm: 1000, source: "GLEC Framework v3 default, air freight (short haul)" },
  rail: { g_per_tkm: 25, source: "GLEC Framework v3 default, rail freight (diesel)" },
};

export interface Coordinates {
  latitude: number | null;
  longitude: number | null;
}

export interface EmissionsInput {
  mode: TransportMode | null;
  /** kilograms: the rating's charge weight when rated, else the items' dead weight */
  kg: number | null;
  weightBasis: "charge" | "dead";
  from: Coordinates | null;
  to: Coordinates | null;
  /** the carrier's own factors, each replacing the default of its mode */
  carrierFactors?: CarrierEmissionFactors | null;
}

export interface EmissionsFigure {
  kg_co2e: number;
  tonnes: number;
  weight_basis: "charge" | "dead";
  km: number;
  great_circle_km: number;
  mode: TransportMode;
  factor: number;
  source: string;
  circuity: number | null;
  method_version: string;
}

/** A consignment saved before emissions were stored, not yet reached by a recomputation. */
export const NOT_COMPUTED = "Not computed yet: saving the consignment computes it";

export type EmissionsResult = { ok: true; figure: EmissionsFigure } | { ok: false; reason: string };

export const NO_FIGURE = {
  noService: "No carrier service chosen yet",
  noWeight: "No weight to carry",
  noSender: "The sender's locality has no coordinates",
  noReceiver: "The receiver's locality has no coordinates",
} as const;

const round = (v: number, places: number) => {
  const f = 10 ** places;
  return Math.round((v + Number.EPSILON * Math.sign(v)) * f) / f;
};

const located = (c: Coordinates | null): c is { latitude: number; longitude: number } =>
  c != null && c.latitude != null && c.longitude != null && Number.isFinite(c.latitude) && Number.isFinite(c.longitude);

/** Great-circle distance in km (haversine on the mean Earth sphere). */
export function haversineKm(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The distance the factor applies to, by mode, and the circuity used (null by air). */
export function transportKm(mode: TransportMode, greatCircleKm: number): { km: number; circuity: number | null } {
  if (mode === "air") return { km: greatCircleKm + AIR_UPLIFT_KM, circuity: null };
  return { km: greatCircleKm * ROAD_CIRCUITY, circuity: ROAD_CIRCUITY };
}

/** The factor in force for a mode: the carrier's own when it has one, else the default. */
export function factorFor(mode: TransportMode, carrierFactors?: CarrierEmissionFactors | null): Factor {
  const own = carrierFactors?.[mode];
  return own && Number.isFinite(own.g_per_tkm) && own.g_per_tkm >= 0 ? own : DEFAULT_FACTORS[mode];
}

/** The figure, or why there is none. */
export function computeEmissions(input: EmissionsInput): EmissionsResult {
  if (!input.mode) return { ok: false, reason: NO_FIGURE.noService };
  if (input.kg == null || !(input.kg > 0)) return { ok: false, reason: NO_FIGURE.noWeight };
  if (!located(input.from)) return { ok: false, reason: NO_FIGURE.noSender };
  if (!located(input.to)) return { ok: false, reason: NO_FIGURE.noReceiver };
  const greatCircle = haversineKm(input.from, input.to);
  const { km, circuity } = transportKm(input.mode, greatCircle);
  const factor = factorFor(input.mode, input.carrierFactors);
  const tonnes = input.kg / 1000;
  return {
    ok: true,
    figure: {
      kg_co2e: round((tonnes * km * factor.g_per_tkm) / 1000, 3),
      tonnes: round(tonnes, 6),
      weight_basis: input.weightBasis,
      km: round(km, 1),
      great_circle_km: round(greatCircle, 1),
      mode: input.mode,
      factor: factor.g_per_tkm,
      source: factor.source,
      circuity,
      method_version: METHOD_VERSION,
    },
  };
}

/** The figure as /api answers and screens show it: tonne-km is the transport work the factor multiplied. */
export interface EmissionsJson {
  kg_co2e: number;
  tonne_km: number;
  mode: TransportMode;
  factor: number;
  source: string;
  km: number;
  tonnes: number;
}

/** `emissions` of the consignment and tracking JSON: the figure, or null with the reason beside it. */
export type EmissionsField = { emissions: EmissionsJson; emissions_reason: null } | { emissions: null; emissions_reason: string };

export const tonneKm = (tonnes: number, km: number) => round(tonnes * km, 3);

/** kg CO2e as people read it: one decimal place below 100 kg, whole kilograms above. */
export const formatKgCo2e = (kg: number) => (kg < 100 ? kg.toFixed(1) : Math.round(kg).toLocaleString("en-AU"));

/** One line for the information view: the figure and how it was reached, or why there is none. */
export function describeEmissions(f: EmissionsField): string {
  if (!f.emissions) return `No figure: ${f.emissions_reason}`;
  const e = f.emissions;
  return `${formatKgCo2e(e.kg_co2e)} kg CO2e well-to-wheel (${e.mode}: ${e.tonnes} t × ${e.km} km = ${e.tonne_km} t-km × ${e.factor} g/t-km; ${e.source})`;
}
