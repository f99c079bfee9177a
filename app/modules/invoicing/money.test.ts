import { describe, expect, it } from "vitest";
import { centsToAmount, divideRounded, toCents } from "./money";

describe("toCents", () => {
  it("reads numeric strings exactly and rounds past 2 decimals half away from zero", () => {
    expect(toCents("12.34")).toBe(1234);
    expect(toCents("12.3")).toBe(1230);
    expect(toCents("12")).toBe(1200);
    expect(toCents(".5")).toBe(50);
    expect(toCents("-3.20")).toBe(-320);
    expect(toCents("1.005")).toBe(101);
    expect(toCents("1.004")).toBe(100);
    expect(toCents("-1.005")).toBe(-101);
    expect(toCents(" 7.10 ")).toBe(710);
  });

  it("reads numbers without float drift", () => {
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents(1.005)).toBe(101);
    expect(toCents(-2.675)).toBe(-268);
    expect(toCents(19.99)).toBe(1999);
  });

  it("blank or unreadable is 0", () => {
    for (const v of [null, undefined, "", "abc", "1.2.3", Number.NaN, Infinity]) expect(toCents(v)).toBe(0);
  });
});

describe("centsToAmount and divideRounded", () => {
  it("writes 2 decimals", () => {
    expect(centsToAmount(1234)).toBe("12.34");
    expect(centsToAmount(5)).toBe("0.05");
    expect(centsToAmount(-320)).toBe("-3.20");
  });

  it("divides rounding half away from zero", () => {
    expect(divideRounded(15, 10)).toBe(2);
    expect(divideRounded(14, 10)).toBe(1);
    expect(divideRounded(-15, 10)).toBe(-2);
    expect(divideRounded(-14, 10)).toBe(-1);
  });
});
