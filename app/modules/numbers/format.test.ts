import { describe, expect, it } from "vitest";
import { formatNumber, formatSscc, gs1CheckDigit, isValidSscc, labelCount } from "./format";

describe("GS1 check digit", () => {
  // examples from the GS1 General Specifications (check digit calculation) and the SSCC example (00) 1 0614141 123456789 7
  it("matches published GS1 examples", () => {
    expect(gs1CheckDigit("10614141123456789")).toBe(7);
    expect(gs1CheckDigit("629104150021")).toBe(3); // GTIN-13 6291041500213
    expect(gs1CheckDigit("03600029145")).toBe(2); // UPC-A 036000291452
    expect(gs1CheckDigit("950110153000")).toBe(3); // GTIN-13 9501101530003
  });

  it("validates an SSCC", () => {
    expect(isValidSscc("106141411234567897")).toBe(true);
    expect(isValidSscc("106141411234567898")).toBe(false);
    expect(isValidSscc("10614141123456789")).toBe(false);
  });
});

describe("SSCC-18", () => {
  it("is the prefix, the serial padded to 17 digits, and the check digit", () => {
    expect(formatSscc("10614141", 123456789)).toBe("106141411234567897");
    const s = formatSscc("93012345", 1);
    expect(s).toHaveLength(18);
    expect(s.startsWith("93012345000000001")).toBe(true);
    expect(isValidSscc(s)).toBe(true);
  });

  it("refuses a serial that does not fit", () => {
    expect(() => formatSscc("93012345", 1_000_000_000)).toThrow(RangeError);
  });
});

describe("consignment and manifest numbers", () => {
  it("are the prefix and the number padded to its digits", () => {
    expect(formatNumber("CN", 8, 42)).toBe("CN00000042");
    expect(formatNumber("", 6, 123456)).toBe("123456");
    expect(() => formatNumber("M", 3, 1000)).toThrow(RangeError);
  });
});

describe("labels per item line", () => {
  it("are quantity times the item type's label count", () => {
    expect(labelCount(3, 2)).toBe(6);
    expect(labelCount(3, null)).toBe(3);
    expect(labelCount(0, 2)).toBe(0);
  });
});
