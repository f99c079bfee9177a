import { describe, expect, it } from "vitest";
import { REFERENCE_TYPE_LABELS, REFERENCE_TYPES } from "./customers/admin";
import { SCHEDULE_PERIOD_LABELS, SCHEDULE_PERIODS } from "./invoicing/schedule";

/** Codes the screens used to show as they are stored (issue 31 #6): each has a label in words. */
describe("labels of codes shown on screens", () => {
  it.each(REFERENCE_TYPES)("custom reference type %s has a label", (t) => {
    expect(REFERENCE_TYPE_LABELS[t]).toMatch(/^[A-Z][a-z ]+$/);
  });
  it.each(SCHEDULE_PERIODS)("schedule period %s has a label", (p) => {
    expect(SCHEDULE_PERIOD_LABELS[p]).toMatch(/^[A-Z][a-z]+$/);
  });
  it("says dropdown_generic and WEEKLY in words", () => {
    expect(REFERENCE_TYPE_LABELS.dropdown_generic).toBe("A list of references");
    expect(SCHEDULE_PERIOD_LABELS.WEEKLY).toBe("Weekly");
  });
});
