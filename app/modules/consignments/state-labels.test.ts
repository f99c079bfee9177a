import { describe, expect, it } from "vitest";
import { CONSIGNMENT_STATES } from "../../../db/schema/consignments";
import { CONSIGNMENT_STATE_LABELS, consignmentStateLabel } from "./state-labels";

describe("consignment state labels", () => {
  it.each(CONSIGNMENT_STATES)("%s has a label that is not its code", (state) => {
    expect(CONSIGNMENT_STATE_LABELS[state]).toMatch(/^[A-Z][A-Za-z ]+$/);
    expect(consignmentStateLabel(state)).not.toContain("_");
  });

  it("says proof of delivery as the trade does", () => {
    expect(consignmentStateLabel("delivered_with_pod")).toBe("Delivered with POD");
  });
});
