import { describe, expect, it } from "vitest";
import { advancedQuerySchema } from "./advanced-schema.server";
import { RANGE_REVERSED, RANGE_TOO_WIDE, moveDates, nextSort } from "./search";
import { likeContains, likePrefix } from "./search.server";

describe("search terms as LIKE patterns", () => {
  it("keeps %, _ and the escape character literal", () => {
    expect(likePrefix("AB%_c\\")).toBe("ab\\%\\_c\\\\%");
    expect(likeContains("50%")).toBe("%50\\%%");
  });
});

describe("moving one date past the other", () => {
  it("moves the other date to the one just chosen, and leaves an ordered range alone", () => {
    expect(moveDates({ from: "2026-03-01", to: "2026-03-05" }, "from", "2026-03-09")).toEqual({ from: "2026-03-09", to: "2026-03-09" });
    expect(moveDates({ from: "2026-03-05", to: "2026-03-09" }, "to", "2026-03-01")).toEqual({ from: "2026-03-01", to: "2026-03-01" });
    expect(moveDates({ from: "2026-03-01", to: "2026-03-05" }, "from", "2026-03-03")).toEqual({ from: "2026-03-03", to: "2026-03-05" });
  });
});

describe("sorting by a header", () => {
  it("flips the same column and starts another ascending", () => {
    expect(nextSort({ sort: "reference", dir: "asc" }, "reference")).toEqual({ sort: "reference", dir: "desc" });
    expect(nextSort({ sort: "reference", dir: "desc" }, "reference")).toEqual({ sort: "reference", dir: "asc" });
    expect(nextSort({ sort: "reference", dir: "desc" }, "state")).toEqual({ sort: "state", dir: "asc" });
  });
});

describe("the advanced criteria", () => {
  const parse = (q: object) => advancedQuerySchema.safeParse(q);
  it("defaults to normal, active, newest first", () => {
    expect(parse({ from_date: "2026-03-01", to_date: "2026-03-01" }).data).toMatchObject({ despatch_type: "normal", active: true, admin: false, sort: "despatch_date", dir: "desc" });
  });
  it("takes a range under 2 calendar months and refuses 2 months or more, and a reversed one", () => {
    const message = (q: object) => parse(q).error?.issues[0]?.message;
    expect(parse({ from_date: "2026-01-31", to_date: "2026-03-30" }).success).toBe(true);
    // 31 January + 2 months is 31 March
    expect(message({ from_date: "2026-01-31", to_date: "2026-03-31" })).toBe(RANGE_TOO_WIDE);
    expect(parse({ from_date: "2024-12-31", to_date: "2025-02-27" }).success).toBe(true);
    expect(message({ from_date: "2024-12-31", to_date: "2025-02-28" })).toBe(RANGE_TOO_WIDE);
    expect(message({ from_date: "2026-03-02", to_date: "2026-03-01" })).toBe(RANGE_REVERSED);
  });
});
