import { describe, expect, it } from "vitest";
import { recipientListQuery } from "./query";

describe("recipientListQuery", () => {
  it("defaults to the first 40", () => {
    expect(recipientListQuery.parse({})).toEqual({ limit: 40, offset: 0, q: null, after: null });
  });
  it("reads limit, offset and a name prefix", () => {
    expect(recipientListQuery.parse({ limit: "10", offset: "80", q: " acme " })).toEqual({ limit: 10, offset: 80, q: "acme", after: null });
  });
  it("turns the screen's page into an offset", () => {
    expect(recipientListQuery.parse({ page: "3" })).toEqual({ limit: 40, offset: 80, q: null, after: null });
  });
  it("reads where the previous page ended, and ignores a cursor that is not one", () => {
    const next = Buffer.from(JSON.stringify(["acme pty", 42])).toString("base64url");
    expect(recipientListQuery.parse({ after: next })).toMatchObject({ after: { name: "acme pty", id: 42 } });
    for (const bad of ["x", Buffer.from("[1,2]").toString("base64url"), Buffer.from('["a",-1]').toString("base64url")]) {
      expect(recipientListQuery.parse({ after: bad }).after).toBeNull();
    }
  });
  it("falls back on nonsense and caps the page size", () => {
    expect(recipientListQuery.parse({ limit: "9999", offset: "-1", page: "x" })).toEqual({ limit: 40, offset: 0, q: null, after: null });
  });
});
