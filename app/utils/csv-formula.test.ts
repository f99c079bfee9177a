import { describe, expect, it } from "vitest";
import { neutraliseFormula } from "./csv.server";

describe("neutraliseFormula", () => {
  it.each(["=1+1", "+1+1", "-1+1", "@SUM(A1)", "\t=1", "\r=1", "=", "-", "@"])("puts an apostrophe before %j", (text) => {
    expect(neutraliseFormula(text)).toBe(`'${text}`);
  });

  it.each(["plain", "1+1", " =1", "", "12.5", "-12.5"])("leaves %j (no formula start, or a plain number) alone", (text) => {
    expect(neutraliseFormula(text)).toBe(text);
  });
});
