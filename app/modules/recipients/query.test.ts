import { describe, expect, it } from "vitest";
import { recipientListQuery } from "./query";

describe("recipientListQuery", () => {
  it("defaults to the first 40", () => {
    expect(recipientListQuery.parse({})).toEqual({ limit: 40, offset: 0, q: null });
  });
  it("reads limit, offset and a name prefix", () => {
    expect(recipientListQuery.parse({ limit: "10", offset: "80", q: " acme " })).toEqual({ limit: 10, offset: 80, q: "acme" });
  });
  it("turns the screen's page into an offset", () => {
    expect(recipientListQuery.parse({ page: "3" })).toEqual({ limit: 40, offset: 80, q: null });
  });
  it("falls back on nonsense and caps the page size", () => {
    expect(recipientListQuery.parse({ limit: "9999", offset: "-1", page: "x" })).toEqual({ limit: 40, offset: 0, q: null });
  });
});
