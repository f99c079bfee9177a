import { describe, expect, it } from "vitest";
import { mapsAvailable } from "./maps";

describe("maps are offered to developers or outside production (spec 1 track and trace)", () => {
  it("a developer sees maps in every environment", () => {
    for (const env of ["development", "qa", "uat", "production"]) expect(mapsAvailable({ role: "devs" }, env)).toBe(true);
  });

  it("anyone sees maps in development, QA and UAT", () => {
    for (const env of ["development", "qa", "uat"]) expect(mapsAvailable({ role: "despatcher" }, env)).toBe(true);
  });

  it("in production only developers do, staff included", () => {
    for (const role of ["despatcher", "admin", "super_admin", "customer_service"]) expect(mapsAvailable({ role }, "production")).toBe(false);
  });

  it("an unknown environment is not a test one", () => {
    expect(mapsAvailable({ role: "admin" }, "staging")).toBe(false);
  });
});
