import { describe, expect, it } from "vitest";
import { consolidate, type ConsolidatableLine } from "./consolidate";

const line = (over: Partial<ConsolidatableLine> = {}): ConsolidatableLine => ({ quantity: "2", item_type_id: "1", reference: "", length: "40", width: "30", height: "30", weight_in_uom: "10", dangerous_goods: false, dg: [], ...over });
const same = (l: ConsolidatableLine) => l;

describe("consolidate", () => {
  it("turns the checked lines into one unit of the chosen type, with their total weight, in the first one's place", () => {
    const lines = [line({ reference: "A" }), line({ reference: "KEEP", weight_in_uom: "3" }), line({ reference: "B", weight_in_uom: "12.5" })];
    const out = consolidate(lines, [0, 2], { id: 9, length: 120, width: 100, height: 150 }, same);
    expect(out).toHaveLength(2);
    expect(out[0]).toMatchObject({ quantity: "1", item_type_id: "9", reference: "A, B", length: "120", width: "100", height: "150", weight_in_uom: "22.5", consolidated: true });
    expect(out[1]!.reference).toBe("KEEP");
  });

  it("takes the largest dimensions when the type has none, and keeps every dangerous goods line", () => {
    const dg1 = { un_number: "1203" };
    const dg2 = { un_number: "3480" };
    const out = consolidate(
      [line({ length: "50", height: "10", dangerous_goods: true, dg: [dg1] }), line({ width: "60", dangerous_goods: true, dg: [dg2] }), line({ dg: [{ un_number: "ignored" }] })],
      [0, 1, 2],
      { id: 3, length: null, width: null, height: null },
      same,
    );
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ length: "50", width: "60", height: "30", weight_in_uom: "30", dangerous_goods: true, dg: [dg1, dg2] });
  });

  it("needs at least two lines", () => {
    const lines = [line(), line()];
    expect(consolidate(lines, [1], { id: 2, length: 1, width: 1, height: 1 }, same)).toBe(lines);
  });
});
