import { describe, expect, it } from "vitest";
import { despatchRunning } from "./progress";

describe("despatch progress (spec 3: 'Despatching...', progress label 'Despatched {n} of {total} Consignments')", () => {
  const job = { pct_complete: 0, message: null as string | null, total: 5 };
  it("queued or just started: Despatching... and none of the total yet", () => {
    expect(despatchRunning({ ...job, status: "queued" })).toEqual({ title: "Despatching...", label: "Despatched 0 of 5 Consignments" });
    expect(despatchRunning({ ...job, status: "working", message: "Despatching..." })).toEqual({ title: "Despatching...", label: "Despatched 0 of 5 Consignments" });
  });
  it("working: the job's own (exact) count once it has one, not one worked back from the rounded percentage", () => {
    const big = { ...job, total: 5000, status: "working", pct_complete: 60 };
    expect(despatchRunning({ ...big, message: "Despatched 2999 of 5000 Consignments" })?.label).toBe("Despatched 2999 of 5000 Consignments");
  });
  it("ended: nothing (the job's closing message shows instead)", () => {
    expect(despatchRunning({ ...job, status: "complete", message: "Your consignments have been despatched." })).toBeNull();
    expect(despatchRunning({ ...job, status: "failed" })).toBeNull();
  });
});
