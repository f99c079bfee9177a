/**
 * The consignment as the carrier measured it (issue 29 finding 3, decision 027): a re-rate prices
 * the consignment's OWN item lines, scaled so their weights come to what the invoice billed, and
 * the rating engine then applies every dimension- and weight-based surcharge as it would to goods
 * of those measures. Dead weight and cubic are kept apart:
 *
 * - the weights are scaled by the invoice's dead weight over the rated one when the invoice gives
 *   a dead weight; else by the charge weight over the rated dead weight only when the carrier
 *   charged for less than the rated dead weight (it weighed the goods lighter); else kept;
 * - the volume is scaled by the invoice's volume over the rated one when it gives a volume; else,
 *   when it gives a charge weight, by the factor at which the charge weight (max of dead and cubic
 *   per line, summed, as the engine works it) comes to the billed one. So a charge weight above
 *   the dead weight grows the goods, never their weight. Each side is scaled by the cube root of
 *   the volume factor: the invoice gives no sides, so the goods keep their shape.
 *
 * Without the cubic factor (the consignment never rated) or any volume, a charge weight alone
 * cannot be split into dead and cubic: the weights are scaled to it. Pure.
 */
import { chargeWeight, type Lane, type RatingItem } from "../rating/engine";
import type { Som } from "../rating/measure";

export interface MeasuredLine {
  quantity: number;
  length: number;
  width: number;
  height: number;
  /** dead weight of the whole line, in the site's unit */
  weight: number;
}

/** What the invoice line says of the goods, in the lane's units as the invoice's columns hold them (null: not given). */
export interface BilledMeasures {
  dead_weight: number | null;
  charge_weight: number | null;
  volume: number | null;
}

export interface Remeasured {
  lines: MeasuredLine[];
  /** the factors applied: weight to each line's weight, volume to each line's volume */
  weight_factor: number;
  volume_factor: number;
}

const positive = (v: number | null | undefined): v is number => v != null && Number.isFinite(v) && v > 0;
const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;

/**
 * The volume factor s at which sum(max(dead_i, s * cubic_i)) comes to `target`. The sum grows
 * with s (piecewise linear), so bisection finds it; when even s = 0 leaves the dead weights above
 * the target, the largest s at which no line's cubic governs (the volume cannot lower the charge).
 */
function volumeFactorFor(dead: number[], cubic: number[], target: number): number {
  const at = (s: number) => dead.reduce((a, d, i) => a + Math.max(d, s * cubic[i]!), 0);
  if (at(0) >= target) {
    const ceilings = dead.flatMap((d, i) => (cubic[i]! > 0 ? [d / cubic[i]!] : []));
    return Math.min(1, ...ceilings);
  }
  let hi = 1;
  while (at(hi) < target && hi < 1e9) hi *= 2;
  let lo = 0;
  for (let n = 0; n < 200 && hi - lo > 1e-12 * hi; n++) {
    const mid = (lo + hi) / 2;
    if (at(mid) < target) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * The consignment's lines re-measured to the invoice's billed measures. `lane` is the stored
 * rating's (its cubic factor and unit); null when the consignment never rated.
 */
export function remeasure(lines: MeasuredLine[], som: Som, lane: Pick<Lane, "cubicFactor" | "som"> | null, billed: BilledMeasures): Remeasured {
  const asItem = (l: MeasuredLine): RatingItem => ({ ...l, dangerousGoods: false, manualHandling: false });
  const perLine = lines.map((l) => (lane ? chargeWeight([asItem(l)], som, lane) : { dead: l.weight, cubic: 0, charge: l.weight, volume: 0 }));
  const dead = perLine.map((p) => p.dead);
  const totalDead = dead.reduce((a, b) => a + b, 0);
  const totalVolume = perLine.reduce((a, p) => a + p.volume, 0);

  // no cubic factor or no volume: a charge weight cannot be split, it is all dead weight
  const cannotSplit = !lane || totalVolume === 0;
  let weightFactor = 1;
  // billed for nothing: nothing weighs (the engine then says 'Must have weight')
  if (billed.charge_weight === 0) weightFactor = 0;
  else if (positive(billed.dead_weight) && totalDead > 0) weightFactor = billed.dead_weight / totalDead;
  else if (positive(billed.charge_weight) && totalDead > 0 && (billed.charge_weight < totalDead || cannotSplit)) weightFactor = billed.charge_weight / totalDead;

  let volumeFactor = 1;
  if (!cannotSplit && positive(billed.volume)) volumeFactor = billed.volume / totalVolume;
  else if (!cannotSplit && positive(billed.charge_weight)) {
    volumeFactor = volumeFactorFor(
      dead.map((d) => d * weightFactor),
      perLine.map((p) => p.cubic),
      billed.charge_weight,
    );
  }

  const side = Math.cbrt(volumeFactor);
  return {
    lines: lines.map((l) => ({
      quantity: l.quantity,
      // sides to 4 decimals so the volume lands within the engine's own step (0.0001 m3)
      length: round(l.length * side, 4),
      width: round(l.width * side, 4),
      height: round(l.height * side, 4),
      weight: round(l.weight * weightFactor, 3),
    })),
    weight_factor: weightFactor,
    volume_factor: volumeFactor,
  };
}

/** The stored rating's lane (cubic factor and unit), null when the consignment never rated. */
export function laneOf(rating: unknown): { cubicFactor: number; som: Som } | null {
  const lane = (rating as { lane?: { cubicFactor?: unknown; som?: unknown } } | null)?.lane;
  if (!lane || typeof lane.cubicFactor !== "number" || !(lane.cubicFactor > 0)) return null;
  return { cubicFactor: lane.cubicFactor, som: lane.som === "imperial" ? "imperial" : "metric" };
}
