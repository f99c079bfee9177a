import { describe, expect, it } from "vitest";
import { resolveClock } from "./user-clock";

const none = { timezone: null, dateFormat: null };
const la = { timezone: "America/Los_Angeles", country: "UNITED STATES OF AMERICA" };

describe("a user's clock (time zone and date format)", () => {
  it("the user's own setting wins over their site, customer and the provider", () => {
    const c = resolveClock({ own: { timezone: "Pacific/Auckland", dateFormat: "MM/DD/YYYY" }, site: la, customerCountry: "AUSTRALIA" });
    expect(c).toMatchObject({ timeZone: "Pacific/Auckland", dateFormat: "MM/DD/YYYY", from: { timeZone: "user", dateFormat: "user" } });
  });

  it("each half inherits on its own: an own zone keeps the site's format", () => {
    const c = resolveClock({ own: { timezone: "Australia/Perth", dateFormat: null }, site: la, customerCountry: null });
    expect(c).toMatchObject({ timeZone: "Australia/Perth", dateFormat: "MM/DD/YYYY" });
  });

  it("without an own setting, the default site's zone and its country's format", () => {
    expect(resolveClock({ own: none, site: la, customerCountry: "AUSTRALIA" })).toMatchObject({ timeZone: "America/Los_Angeles", dateFormat: "MM/DD/YYYY", from: { timeZone: "site" } });
  });

  it("a site without a zone gives its country's zone", () => {
    expect(resolveClock({ own: none, site: { timezone: null, country: "NEW ZEALAND" }, customerCountry: null })).toMatchObject({ timeZone: "Pacific/Auckland", dateFormat: "DD/MM/YYYY" });
  });

  it("without a site, the customer's country", () => {
    const c = resolveClock({ own: none, site: null, customerCountry: "UNITED STATES OF AMERICA" });
    expect(c).toMatchObject({ timeZone: "America/New_York", dateFormat: "MM/DD/YYYY", from: { timeZone: "customer", dateFormat: "customer" } });
  });

  it("a staff user with nothing to go on reads the provider's Melbourne in DD/MM/YYYY", () => {
    const c = resolveClock({ own: none, site: null, customerCountry: null });
    expect(c).toEqual({ timeZone: "Australia/Melbourne", dateFormat: "DD/MM/YYYY", from: { timeZone: "provider", dateFormat: "provider" } });
  });

  it("an unknown stored zone or format falls through to the next answer, not to UTC", () => {
    const c = resolveClock({ own: { timezone: "Mars/Olympus", dateFormat: "YYYY/DD/MM" }, site: null, customerCountry: "NEW ZEALAND" });
    expect(c).toMatchObject({ timeZone: "Pacific/Auckland", dateFormat: "DD/MM/YYYY" });
    expect(resolveClock({ own: none, site: { timezone: "Nowhere/Atall", country: "ATLANTIS" }, customerCountry: null })).toMatchObject({ timeZone: "Australia/Melbourne" });
  });
});
