import { describe, expect, it } from "vitest";
import { SITE_MESSAGES, siteSchema, timeZones } from "./sites";

const errorsOf = (raw: Record<string, unknown>) => {
  const r = siteSchema.safeParse({ code: "MEL", name: "Melbourne", ...raw });
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join("."), i.message]));
};

describe("siteSchema", () => {
  it("takes a form's strings: ticked boxes, blank optional fields, defaults", () => {
    const site = siteSchema.parse({ code: " MEL ", name: "Melbourne", despatch_enabled: "on", opening_time: "", site_options: { different_billing_address: "on", placeholder_texts: { reference: "PO", custom_reference: "" } } });
    expect(site).toMatchObject({ code: "MEL", som: "metric", despatch_enabled: true, address: { country: "AUSTRALIA", address_type: "business" }, site_options: { different_billing_address: true, placeholder_texts: { reference: "PO" } } });
    expect(site.opening_time).toBeUndefined();
    expect(site.site_options.placeholder_texts.custom_reference).toBeUndefined();
  });
  it("refuses a closing time not after the opening time, beside the other fields' errors", () => {
    expect(errorsOf({ opening_time: "09:00", closing_time: "09:00" })).toEqual({ closing_time: SITE_MESSAGES.closingBeforeOpening });
    expect(errorsOf({ opening_time: "09:00", closing_time: "17:00" })).toEqual({});
    expect(errorsOf({ code: "", opening_time: "18:00", closing_time: "08:00" })).toEqual({ code: SITE_MESSAGES.codeRequired, closing_time: SITE_MESSAGES.closingBeforeOpening });
    expect(errorsOf({ opening_time: "25:00" })).toEqual({ opening_time: SITE_MESSAGES.time });
  });
  it("knows IANA time zones and refuses others", () => {
    expect(timeZones()).toEqual(expect.arrayContaining(["Australia/Melbourne", "Pacific/Auckland", "America/Los_Angeles", "UTC"]));
    expect(errorsOf({ timezone: "Australia/Melbourne" })).toEqual({});
    expect(errorsOf({ timezone: "Mars/Olympus" })).toEqual({ timezone: SITE_MESSAGES.timezone });
  });
  it("takes a postcode of 4 or 5 digits and a supported country only", () => {
    expect(errorsOf({ address: { postcode: "123" } })).toEqual({ "address.postcode": "Postcode must be 4 or 5 digits" });
    expect(Object.keys(errorsOf({ address: { country: "FRANCE" } }))).toEqual(["address.country"]);
  });
});
