import { describe, expect, it } from "vitest";
import { fieldErrorsFrom } from "../../utils/validation";
import { accountSchema, accountValidationErrors, fitsDigitsMessage, passesValidation, rangesOverlap, rangeWarnings, ACCOUNT_MESSAGES, type AccountValidation } from "./accounts";

describe("passesValidation: every rule by modifier, case sensitive", () => {
  const cases: Array<[AccountValidation["rule"], AccountValidation["modifier"], string, string, boolean]> = [
    ["start_with", "equal", "AB", "AB123", true],
    ["start_with", "equal", "AB", "ab123", false],
    ["start_with", "equal", "AB", "XAB1", false],
    ["start_with", "in", "AB, CD", "CD9", true],
    ["start_with", "in", "AB,CD", "EF9", false],
    ["end_with", "equal", "99", "1299", true],
    ["end_with", "equal", "99", "9912", false],
    ["end_with", "in", "X,Y", "12Y", true],
    ["end_with", "in", "X,Y", "12y", false],
    ["be", "equal", "ACC1", "ACC1", true],
    ["be", "equal", "ACC1", "acc1", false],
    ["be", "equal", "ACC1", "ACC12", false],
    ["be", "in", "8,9,10", "9", true],
    ["be", "in", "8,9,10", "11", false],
    ["length", "equal", "6", "123456", true],
    ["length", "equal", "6", "12345", false],
    ["length", "in", "6,8", "12345678", true],
    ["length", "in", "6,8", "1234567", false],
    ["length", "equal", "3", "äöü", true],
  ];
  it.each(cases)("%s %s %s on %s is %s", (rule, modifier, validation, value, ok) => {
    expect(passesValidation(value, { rule, modifier, validation })).toBe(ok);
  });
});

describe("accountValidationErrors", () => {
  const v = (field: AccountValidation["field"], rule: AccountValidation["rule"], modifier: AccountValidation["modifier"], validation: string, message: string): AccountValidation => ({ field, rule, modifier, validation, message });
  it("puts each failing validation's message on the account field it names", () => {
    const errors = accountValidationErrors({ account_number: "X1", consignment_range_start: 5, sscc_digits: 9 }, [
      v("account_number", "start_with", "equal", "AC", "Account must start with AC"),
      v("consignment_number_range_start", "length", "equal", "3", "Start must be 3 digits"),
      v("sscc_digits", "be", "equal", "9", "SSCC digits must be 9"),
      v("account_number", "length", "equal", "2", "never shown"),
    ]);
    expect(errors).toEqual({ account_number: ["Account must start with AC"], consignment_range_start: ["Start must be 3 digits"] });
  });
  it("reads a missing value as empty", () => {
    expect(accountValidationErrors({}, [v("carrier_customer_reference", "length", "equal", "4", "Reference 4")])).toEqual({ carrier_customer_reference: ["Reference 4"] });
  });
});

describe("rangeWarnings", () => {
  it("warns at a tenth or less left, and when exhausted", () => {
    expect(rangeWarnings([{ label: "Consignment number", start: 1, end: 100, remaining: 11 }])).toEqual([]);
    expect(rangeWarnings([{ label: "Consignment number", start: 1, end: 100, remaining: 10 }])).toEqual(["Consignment number range is nearly exhausted: 10 of 100 left"]);
    expect(rangeWarnings([{ label: "SSCC", start: 1, end: 100, remaining: 0 }])).toEqual(["SSCC range is exhausted"]);
    expect(rangeWarnings([{ label: "SSCC", start: null, end: null, remaining: 0 }])).toEqual([]);
  });
  it("tells overlapping ranges", () => {
    expect(rangesOverlap({ start: 1, end: 10 }, { start: 10, end: 20 })).toBe(true);
    expect(rangesOverlap({ start: 1, end: 9 }, { start: 10, end: 20 })).toBe(false);
    expect(rangesOverlap({ start: 15, end: 16 }, { start: 10, end: 20 })).toBe(true);
  });
});

describe("accountSchema ranges", () => {
  const base = { carrier_code: "TNT", account_number: "A1", consignment_number_digits: "4", consignment_range_start: "1", consignment_range_end: "9999", manifest_number_digits: 6, manifest_range_start: 1, manifest_range_end: 10 };
  const errors = (over: Record<string, unknown>) => {
    const r = accountSchema.safeParse({ ...base, ...over });
    return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join("."), i.message]));
  };
  it("takes form strings and JSON numbers alike", () => {
    const r = accountSchema.parse({ ...base, managed_account: "on" });
    expect(r).toMatchObject({ consignment_range_end: 9999, managed_account: true, pickup_at: false, notes_attributes: [] });
  });
  it("refuses an end before the start and an end that does not fit the digits", () => {
    expect(errors({ consignment_range_start: 50, consignment_range_end: 49 })).toEqual({ consignment_range_end: ACCOUNT_MESSAGES.startAfterEnd });
    expect(errors({ consignment_range_end: 10000 })).toEqual({ consignment_range_end: fitsDigitsMessage(4) });
    expect(errors({ sscc_range_start: 5 })).toHaveProperty("sscc_range_end");
  });
  it("says a huge range start's message once (issue 31 item 8)", () => {
    const r = accountSchema.safeParse({ ...base, consignment_range_start: "99999999999999999999" });
    expect(r.success).toBe(false);
    expect(fieldErrorsFrom(r.error!)).toEqual({ consignment_range_start: ["Consignment range start must be a whole number"] });
  });
  it("limits notes to 255 characters", () => {
    expect(errors({ notes_attributes: [{ text: "x".repeat(256) }] })).toEqual({ "notes_attributes.0.text": ACCOUNT_MESSAGES.noteTooLong });
    expect(errors({ notes_attributes: [{ text: "x".repeat(255) }] })).toEqual({});
  });
});

describe("accountSchema shows every error at once", () => {
  it("checks the range even when another field failed", () => {
    const r = accountSchema.safeParse({ carrier_code: "", account_number: "A", consignment_number_digits: 8, consignment_range_start: 500, consignment_range_end: 100, manifest_number_digits: 6, manifest_range_start: 1, manifest_range_end: 2, sscc_digits: "" });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.path.join(".")).sort()).toEqual(["carrier_code", "consignment_range_end"]);
  });
});
