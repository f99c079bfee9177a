import { describe, expect, it } from "vitest";
import { BY_REGION, MESSAGES, applyFlagRules, canSort, completeFormInput, customReferencesSchema, customerSchema, effectiveSessionTimeout, isGoingLive, moveRow } from "./admin";

const issues = (raw: unknown) => {
  const r = customerSchema.safeParse(raw);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join("."), i.message]));
};

describe("customerSchema", () => {
  it("reads a form's text and a script's JSON alike", () => {
    const fromForm = customerSchema.parse({ name: " Acme ", code: "AC-1", test_account: "on", options: { markup: "12.5", merge_limit: "4", session_timeout: "" } });
    const fromJson = customerSchema.parse({ name: "Acme", code: "AC-1", test_account: true, options: { markup: 12.5, merge_limit: 4, session_timeout: null } });
    expect(fromForm).toEqual(fromJson);
    expect(fromForm.options?.session_timeout).toBeNull();
  });

  it("gives each field its message", () => {
    expect(issues({ code: "a b", options: { merge_limit: 6, markup: "x", session_timeout: "0" }, special_instructions: "y".repeat(81) })).toEqual({
      code: MESSAGES.codeFormat,
      special_instructions: MESSAGES.specialInstructions,
      "options.merge_limit": MESSAGES.mergeLimit,
      "options.markup": MESSAGES.markup,
      "options.session_timeout": MESSAGES.sessionTimeout,
    });
    expect(issues({ options: { session_timeout: "1.5" } })).toEqual({ "options.session_timeout": MESSAGES.sessionTimeout });
    expect(issues({ options: { session_timeout: "1", merge_limit: 3 } })).toEqual({});
    expect(issues({ options: { billing_address_from: "ELSEWHERE" } })).toEqual({ "options.billing_address_from": MESSAGES.billingFrom });
  });
});

describe("completeFormInput", () => {
  it("turns every box the form left out to false and the region fields into a map", () => {
    const out = completeFormInput({ name: "A", test_account: true, options: { billing_address_from: BY_REGION }, billing_regions: { NSW: "7", VIC: "" } });
    expect(out).toMatchObject({ test_account: true, disabled: false, customer_despatch_enabled: false, delete_consignments: false });
    expect(out.options).toMatchObject({ booking_enabled: false, billing_address_from: { NSW: 7 } });
    expect(out).not.toHaveProperty("billing_regions");
  });
});

describe("rules", () => {
  it("keeps POD updates and send-all-tracking-updates off without customer despatch", () => {
    const on = { customer_despatch_enabled: true, tracking_despatch_enabled: true, options: { send_all_tracking_updates: true } };
    expect(applyFlagRules(on)).toBe(on);
    expect(applyFlagRules({ ...on, customer_despatch_enabled: false })).toEqual({ customer_despatch_enabled: false, tracking_despatch_enabled: false, options: { send_all_tracking_updates: false } });
  });

  it("calls unticking a test account going live, and nothing else", () => {
    expect(isGoingLive({ test_account: true }, { test_account: false })).toBe(true);
    expect(isGoingLive({ test_account: false }, { test_account: false })).toBe(false);
    expect(isGoingLive({ test_account: false }, { test_account: true })).toBe(false);
  });

  it("uses 720 minutes when the timeout is blank", () => {
    expect(effectiveSessionTimeout(null)).toBe(720);
    expect(effectiveSessionTimeout(15)).toBe(15);
  });
});

describe("custom references", () => {
  it("accepts strings or { reference }, up to 4000 characters, without duplicates", () => {
    expect(customReferencesSchema.parse(["a", { reference: " b " }])).toEqual(["a", "b"]);
    expect(customReferencesSchema.safeParse(["x".repeat(4001)]).error?.issues[0]?.message).toBe(MESSAGES.referenceTooLong);
    expect(customReferencesSchema.safeParse(["a", "a"]).error?.issues[0]).toMatchObject({ path: [1], message: MESSAGES.referenceDuplicate });
    expect(customReferencesSchema.safeParse({}).error?.issues[0]?.message).toBe(MESSAGES.referencesBody);
  });

  it("moves a row and sorts only what is saved", () => {
    expect(moveRow(["a", "b", "c"], 0, "down")).toEqual(["b", "a", "c"]);
    expect(moveRow(["a", "b"], 0, "up")).toEqual(["a", "b"]);
    expect(canSort(["a", "b"], ["a", "b"])).toBe(true);
    expect(canSort(["a", "b", ""], ["a", "b"])).toBe(false);
    expect(canSort(["a", "c"], ["a", "b"])).toBe(false);
  });
});
