/**
 * Item measures of spec 1 section 5, shared by the item grid, the rating engine and the labels.
 * Metric: cm, kg, m3 (divisor 100). Imperial (US senders): in, lb, ft3 (divisor 12).
 */
export type Som = "metric" | "imperial";

const up = (value: number, places: number) => {
  const f = 10 ** places;
  // the small epsilon keeps 0.1 + 0.2 style noise from rounding a whole value up
  return Math.ceil(value * f - 1e-9) / f;
};

/** Volume of an item line: only when quantity and every dimension are above 0; rounded up to 4 decimals; null below 0.0001. */
export function itemVolume(line: { quantity: number; length: number; width: number; height: number }, som: Som): number | null {
  const { quantity, length, width, height } = line;
  if (!(quantity > 0 && length > 0 && width > 0 && height > 0)) return null;
  const divisor = som === "imperial" ? 12 : 100;
  const volume = up(quantity * (length / divisor) * (width / divisor) * (height / divisor), 4);
  return volume < 0.0001 ? null : volume;
}

/** Weight of an item line from its type: quantity x type weight; null if either is not positive. */
export function itemWeight(quantity: number, typeWeight: number | null | undefined): number | null {
  if (!(quantity > 0) || !(typeWeight != null && typeWeight > 0)) return null;
  return quantity * typeWeight;
}

/** Weight input cleaned to digits and one dot, then rounded up to the item type's increment (whole number when none). */
export function cleanWeight(input: string, increment?: number | null): number | null {
  const digits = input.replace(/[^\d.]/g, "");
  const [whole = "", ...rest] = digits.split(".");
  const cleaned = rest.length ? `${whole}.${rest.join("")}` : whole;
  if (cleaned === "" || cleaned === ".") return null;
  const value = Number(cleaned);
  if (!Number.isFinite(value)) return null;
  const step = increment && increment > 0 ? increment : 1;
  // work in thousandths so 0.5 steps and the like stay exact
  const rounded = Math.ceil(Math.round(value * 1000) / Math.round(step * 1000) - 1e-9) * step;
  return Number(rounded.toFixed(3));
}

/** An item counts for rating only when quantity, type, length, width, height and weight are all above 0. */
export function itemQualifies(line: {
  quantity: number;
  itemType?: unknown;
  length: number;
  width: number;
  height: number;
  weight: number;
}): boolean {
  return line.quantity > 0 && Boolean(line.itemType) && line.length > 0 && line.width > 0 && line.height > 0 && line.weight > 0;
}

export const KG_PER_LB = 0.45359237;
export const M3_PER_FT3 = 0.028316846592;

export const CM_PER_IN = 2.54;

/**
 * An item type's default dimensions and weight in the sending site's units: a metric carton
 * offered at a US site becomes inches and pounds (whole inches, pounds to 3 decimals).
 */
export function typeDefaultsIn(
  t: { length: number | null; width: number | null; height: number | null; weight: number | null; som?: Som },
  som: Som,
): { length: number | null; width: number | null; height: number | null; weight: number | null } {
  if (!t.som || t.som === som) return { length: t.length, width: t.width, height: t.height, weight: t.weight };
  const toImperial = som === "imperial";
  const dim = (v: number | null) => (v == null ? null : Math.ceil(toImperial ? v / CM_PER_IN : v * CM_PER_IN));
  const mass = (v: number | null) => (v == null ? null : Math.round((toImperial ? v / KG_PER_LB : v * KG_PER_LB) * 1000) / 1000);
  return { length: dim(t.length), width: dim(t.width), height: dim(t.height), weight: mass(t.weight) };
}
