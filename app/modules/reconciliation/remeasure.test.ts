import { describe, expect, it } from "vitest";
import { chargeWeight } from "../rating/engine";
import { remeasure, type MeasuredLine } from "./remeasure";

const lane = { cubicFactor: 250, som: "metric" as const };
/** two pallets, 120 x 100 x 100 cm, 400 kg in all: 2.4 m3, cubic 600 kg, charge 600 kg */
const pallets: MeasuredLine[] = [{ quantity: 2, length: 120, width: 100, height: 100, weight: 400 }];
const weights = (lines: MeasuredLine[]) => chargeWeight(lines.map((l) => ({ ...l, dangerousGoods: false, manualHandling: false })), "metric", lane);

describe("remeasure", () => {
  it("a charge weight above the dead weight grows the goods, never their weight", () => {
    const out = remeasure(pallets, "metric", lane, { dead_weight: null, charge_weight: 1171.875, volume: null });
    // 1171.875 / 600 = 125/64: each side x 5/4
    expect(out.lines).toEqual([{ quantity: 2, length: 150, width: 125, height: 125, weight: 400 }]);
    expect(weights(out.lines)).toMatchObject({ dead: 400, charge: 1171.875 });
  });

  it("an invoice dead weight scales the weights; the volume stays when the cubic is below it", () => {
    const out = remeasure(pallets, "metric", lane, { dead_weight: 1100, charge_weight: 1100, volume: null });
    expect(out.lines).toEqual([{ quantity: 2, length: 120, width: 100, height: 100, weight: 1100 }]);
    expect(weights(out.lines)).toMatchObject({ dead: 1100, cubic: 600, charge: 1100 });
  });

  it("an invoice volume scales the sides by its cube root", () => {
    const out = remeasure(pallets, "metric", lane, { dead_weight: null, charge_weight: null, volume: 2.4 * 8 });
    expect(out.lines[0]).toMatchObject({ length: 240, width: 200, height: 200, weight: 400 });
  });

  it("per line: only the lines whose cubic governs count toward the charge weight", () => {
    const lines: MeasuredLine[] = [
      { quantity: 1, length: 100, width: 100, height: 100, weight: 500 }, // cubic 250: dead governs
      { quantity: 1, length: 100, width: 100, height: 100, weight: 50 }, // cubic 250 governs
    ];
    // 500 + 250 s = 1000 -> s = 2 (the first line's cubic, 500, still does not exceed its dead weight)
    const out = remeasure(lines, "metric", lane, { dead_weight: null, charge_weight: 1000, volume: null });
    expect(out.volume_factor).toBeCloseTo(2, 9);
    expect(weights(out.lines).charge).toBeCloseTo(1000, 0);
    expect(out.lines.map((l) => l.weight)).toEqual([500, 50]);
  });

  it("a charge weight below the dead weight: weighed lighter, and no line's cubic above its dead weight", () => {
    const heavy: MeasuredLine[] = [{ quantity: 1, length: 100, width: 100, height: 100, weight: 800 }];
    const out = remeasure(heavy, "metric", lane, { dead_weight: null, charge_weight: 200, volume: null });
    expect(out.lines[0]!.weight).toBe(200);
    // within the engine's volume step (0.0001 m3) of cubic
    expect(Math.abs(weights(out.lines).charge - 200)).toBeLessThanOrEqual(0.0001 * lane.cubicFactor + 1e-9);
  });

  it("without a lane (never rated) or a volume, the charge weight is all dead weight; a charge of 0 weighs nothing", () => {
    expect(remeasure(pallets, "metric", null, { dead_weight: null, charge_weight: 900, volume: null }).lines[0]).toMatchObject({ length: 120, weight: 900 });
    const flat: MeasuredLine[] = [{ quantity: 1, length: 0, width: 0, height: 0, weight: 10 }];
    expect(remeasure(flat, "metric", lane, { dead_weight: null, charge_weight: 30, volume: null }).lines[0]!.weight).toBe(30);
    expect(remeasure(pallets, "metric", lane, { dead_weight: null, charge_weight: 0, volume: null }).lines[0]!.weight).toBe(0);
  });
});
