import { describe, expect, it } from "vitest";
import { cleanWeight, itemQualifies, itemVolume, itemWeight, typeDefaultsIn } from "./measure";

describe("item volume (spec 1 section 5)", () => {
  it("metric divides each dimension by 100: 2 x 40 x 30 x 20 cm = 0.048 m3", () => {
    expect(itemVolume({ quantity: 2, length: 40, width: 30, height: 20 }, "metric")).toBe(0.048);
  });
  it("imperial divides by 12: 24 x 24 x 24 in = 8 ft3", () => {
    expect(itemVolume({ quantity: 1, length: 24, width: 24, height: 24 }, "imperial")).toBe(8);
  });
  it("rounds up to 4 decimals: 1 x 11 x 11 x 11 cm = 0.001331 -> 0.0014", () => {
    expect(itemVolume({ quantity: 1, length: 11, width: 11, height: 11 }, "metric")).toBe(0.0014);
  });
  it("is blank below 0.0001 and when any of quantity or dimensions is not above 0", () => {
    expect(itemVolume({ quantity: 1, length: 1, width: 1, height: 1 }, "metric")).toBe(0.0001); // 0.000001 rounds up
    expect(itemVolume({ quantity: 0, length: 10, width: 10, height: 10 }, "metric")).toBeNull();
    expect(itemVolume({ quantity: 1, length: 0, width: 10, height: 10 }, "metric")).toBeNull();
    expect(itemVolume({ quantity: 1, length: 10, width: -1, height: 10 }, "metric")).toBeNull();
  });
});

describe("item weight", () => {
  it("is quantity times the type weight, blank if either is not positive", () => {
    expect(itemWeight(3, 5)).toBe(15);
    expect(itemWeight(0, 5)).toBeNull();
    expect(itemWeight(2, 0)).toBeNull();
    expect(itemWeight(2, null)).toBeNull();
  });
  it("input is cleaned to digits and one dot, then rounded up to the increment (whole number without one)", () => {
    expect(cleanWeight("12.3kg")).toBe(13);
    expect(cleanWeight("1.2.5")).toBe(2); // 1.25 -> whole number
    expect(cleanWeight("7.2", 0.5)).toBe(7.5);
    expect(cleanWeight("7.5", 0.5)).toBe(7.5);
    expect(cleanWeight("301", 10)).toBe(310);
    expect(cleanWeight("300", 10)).toBe(300);
    expect(cleanWeight("abc")).toBeNull();
    expect(cleanWeight("0.2", 0.1)).toBe(0.2);
  });
});

describe("item qualification for rating", () => {
  const ok = { quantity: 1, itemType: 1, length: 1, width: 1, height: 1, weight: 1 };
  it("needs quantity, type, length, width, height and weight all above 0", () => {
    expect(itemQualifies(ok)).toBe(true);
    for (const field of ["quantity", "length", "width", "height", "weight"] as const) {
      expect(itemQualifies({ ...ok, [field]: 0 })).toBe(false);
    }
    expect(itemQualifies({ ...ok, itemType: null })).toBe(false);
  });
});

describe("item type defaults in the site's units", () => {
  it("converts a metric type for an imperial site (whole inches rounded up, pounds) and back", () => {
    expect(typeDefaultsIn({ length: 40, width: 30, height: 30, weight: 5, som: "metric" }, "imperial")).toEqual({ length: 16, width: 12, height: 12, weight: 11.023 });
    expect(typeDefaultsIn({ length: 12, width: 10, height: null, weight: 1, som: "imperial" }, "metric")).toEqual({ length: 31, width: 26, height: null, weight: 0.454 });
    expect(typeDefaultsIn({ length: 40, width: 30, height: 30, weight: 5, som: "metric" }, "metric")).toEqual({ length: 40, width: 30, height: 30, weight: 5 });
  });
});
