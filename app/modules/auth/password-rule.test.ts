import { describe, expect, it } from "vitest";
import { isValidPassword, passwordProblems } from "./password-rule";

describe("password rule: 10+ characters, a lower case, an upper case, 2 digits", () => {
  it("accepts a password meeting every part", () => {
    expect(isValidPassword("Demo-password-12")).toBe(true);
    expect(isValidPassword("abcdefgH12")).toBe(true); // exactly 10
  });
  it.each([
    ["abcdefH12", "at least 10 characters"],
    ["ABCDEFGH12", "a lower case letter"],
    ["abcdefgh12", "an upper case letter"],
    ["abcdefgHij1", "2 digits"],
  ])("refuses %s (%s)", (password, problem) => {
    expect(isValidPassword(password)).toBe(false);
    expect(passwordProblems(password)).toEqual([problem]);
  });
  it("counts digits anywhere", () => {
    expect(isValidPassword("1abcdefgH2")).toBe(true);
  });
});
