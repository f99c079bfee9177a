import { describe, expect, it } from "vitest";
import { formatTicks, formatValue, NO_VALUE } from "./format";

describe("formatValue in tables and hover details", () => {
  it("writes percentage points with one decimal and no space", () => {
    expect(formatValue(92.5, "percent")).toBe("92.5%");
    expect(formatValue(100, "percent")).toBe("100.0%");
    expect(formatValue(0.04, "percent")).toBe("0.0%");
  });

  it("writes money with two decimals in the currency passed in", () => {
    expect(formatValue(1234.5, "money", { currency: "AUD" })).toBe("$1,234.50");
    expect(formatValue(1234.5, "money", { currency: "NZD" })).toBe("NZD\u00a01,234.50"); // Intl puts a no-break space after a code
    expect(formatValue(-3, "money", { currency: "AUD" })).toBe("-$3.00");
  });

  it("writes money without a currency as a plain figure, never with a guessed symbol", () => {
    expect(formatValue(1234.5, "money")).toBe("1,234.50");
    // a malformed code from the data: still the figure, not an exception
    expect(formatValue(2, "money", { currency: "dollars" })).toBe("2.00");
  });

  it("writes numbers, kg and days in their units", () => {
    expect(formatValue(1234567.891, "number")).toBe("1,234,567.89");
    expect(formatValue(1234.56, "kg")).toBe("1,234.6 kg");
    expect(formatValue(1, "days")).toBe("1 day");
    expect(formatValue(2.25, "days")).toBe("2.3 days");
  });

  it("writes null, NaN and Infinity as an en dash", () => {
    expect(NO_VALUE).toBe("–");
    for (const unit of ["percent", "money", "number", "kg", "days"] as const) {
      expect(formatValue(null, unit, { currency: "AUD" })).toBe("–");
      expect(formatValue(Number.NaN, unit)).toBe("–");
      expect(formatValue(Number.POSITIVE_INFINITY, unit)).toBe("–");
    }
  });

  it("never writes a negative zero", () => {
    expect(formatValue(-0, "number")).toBe("0");
    expect(formatValue(-0, "percent")).toBe("0.0%");
  });
});

describe("formatValue on axes", () => {
  it("is compact, so the value axis stays narrow", () => {
    expect(formatValue(12000, "money", { currency: "AUD", style: "axis" })).toBe("$12K");
    expect(formatValue(1_500_000, "number", { style: "axis", digits: 1 })).toBe("1.5M");
    expect(formatValue(12000, "kg", { style: "axis" })).toBe("12K kg");
    expect(formatValue(40, "percent", { style: "axis" })).toBe("40%");
  });

  it("formatTicks adds decimals only until the ticks differ", () => {
    expect(formatTicks([0, 20, 40], "percent")).toEqual(["0%", "20%", "40%"]);
    expect(formatTicks([0, 0.5, 1, 1.5], "days")).toEqual(["0 days", "0.5 days", "1 day", "1.5 days"]);
    expect(formatTicks([1_000_000, 1_050_000, 1_100_000], "money", "AUD")).toEqual(["$1M", "$1.05M", "$1.1M"]);
  });
});
