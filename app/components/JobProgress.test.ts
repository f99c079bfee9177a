import { describe, expect, it } from "vitest";
import { jobLabel } from "./JobProgress";

describe("job progress labels (spec 3 section 4)", () => {
  const base = { pct_complete: 0, message: null, errors: [] as string[] };
  it("queued shows Please wait...", () => expect(jobLabel({ ...base, status: "queued" })).toBe("Please wait..."));
  it("working shows the message or Working...", () => {
    expect(jobLabel({ ...base, status: "working" })).toBe("Working...");
    expect(jobLabel({ ...base, status: "working", message: "Despatched 2 of 5 Consignments" })).toBe("Despatched 2 of 5 Consignments");
  });
  it("failed shows the joined errors, else its message", () => {
    expect(jobLabel({ ...base, status: "failed", errors: ["A failed.", "B failed."] })).toBe("A failed. B failed.");
    expect(jobLabel({ ...base, status: "failed", message: "Boom" })).toBe("Boom");
  });
});
