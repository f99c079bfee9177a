import { describe, expect, it } from "vitest";
import { excelSerialToIso, parseAmount, parseCount, parseDate, parseFlag, weekToDate } from "./values";

describe("parseAmount", () => {
  it("reads currency signs, thousands separators and accounting negatives", () => {
    expect(parseAmount("$1,234.50")).toBe(1234.5);
    expect(parseAmount(" AUD 12.00 ")).toBe(12);
    expect(parseAmount("(3.20)")).toBe(-3.2);
    expect(parseAmount("-$4")).toBe(-4);
    expect(parseAmount("4.00-")).toBe(-4);
    expect(parseAmount("1234567.891")).toBe(1234567.891);
    for (const bad of ["", "abc", "12,34", "1.2.3", "$", "=SUM(A1:A2)", "1,2345"]) expect(parseAmount(bad), bad).toBeNull();
  });
});

describe("parseDate", () => {
  it("reads DD/MM/YYYY, YYYY-MM-DD, D-Mon-YYYY and Excel serials, and refuses impossible dates", () => {
    expect(parseDate("03/02/2026")).toBe("2026-02-03");
    expect(parseDate("3.2.26")).toBe("2026-02-03");
    expect(parseDate("2026-02-03")).toBe("2026-02-03");
    expect(parseDate("2026-02-03T00:00:00Z")).toBe("2026-02-03");
    expect(parseDate("3-Feb-2026")).toBe("2026-02-03");
    expect(parseDate("3 February 2026")).toBe("2026-02-03");
    expect(parseDate("46056")).toBe("2026-02-03");
    expect(excelSerialToIso(61)).toBe("1900-03-01");
    for (const bad of ["31/02/2026", "2026-13-01", "3-Foo-2026", "12345", "", "yesterday", "29/02/2027"]) expect(parseDate(bad), bad).toBeNull();
  });
});

describe("weekToDate", () => {
  it("gives the Monday of an ISO week in each written form", () => {
    expect(weekToDate("2026-W07")).toBe("2026-02-09");
    expect(weekToDate("2026W07")).toBe("2026-02-09");
    expect(weekToDate("202607")).toBe("2026-02-09");
    expect(weekToDate("07/2026")).toBe("2026-02-09");
    expect(weekToDate("2026-W01")).toBe("2025-12-29");
    expect(weekToDate("2026-W53")).toBe("2026-12-28");
    for (const bad of ["2025-W53", "2026-W00", "2026", "abc", "2026-02-09"]) expect(weekToDate(bad), bad).toBeNull();
  });
});

describe("parseFlag and parseCount", () => {
  it("reads yes/no words and whole counts", () => {
    expect(parseFlag("Y")).toBe(true);
    expect(parseFlag("")).toBe(false);
    expect(parseFlag("maybe")).toBeNull();
    expect(parseCount("1,200")).toBe(1200);
    expect(parseCount("2.5")).toBeNull();
  });
});
