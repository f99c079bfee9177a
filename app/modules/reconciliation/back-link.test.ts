import { describe, expect, it } from "vitest";
import { backPath, listFromReferer } from "./back-link";

describe("the detail's Back", () => {
  it("keeps the list's filters and refuses other paths", () => {
    expect(backPath("/reconciliations?state=disputed&page=2")).toBe("/reconciliations?state=disputed&page=2");
    expect(backPath("/invoices/12/reconciliations?reasons=zone")).toBe("/invoices/12/reconciliations?reasons=zone");
    for (const bad of [null, "", "https://evil.example/reconciliations", "//evil.example/reconciliations", "/consignments", "/reconciliations/../admin"]) expect(backPath(bad)).toBe("/reconciliations");
  });
  it("reads a same-origin Referer that is one of the lists", () => {
    expect(listFromReferer("http://app.local/reconciliations?state=reconciled", "http://app.local")).toBe("/reconciliations?state=reconciled");
    expect(listFromReferer("http://other.local/reconciliations", "http://app.local")).toBeNull();
    expect(listFromReferer("http://app.local/reconciliation/4", "http://app.local")).toBeNull();
    expect(listFromReferer("not a url", "http://app.local")).toBeNull();
  });
});
