import { describe, expect, it } from "vitest";
import { billingAddressOf, groupKeyOf, siteBillingAddress, type BillingSite } from "./grouping";

const site = (id: number, over: Partial<BillingSite> = {}): BillingSite => ({
  id,
  name: `Site ${id}`,
  addressLine1: "1 Main St",
  addressLine2: null,
  addressLine3: null,
  addressLine4: null,
  sublocality: null,
  locality: "MELBOURNE",
  region: "VIC",
  postcode: "3000",
  country: "AUSTRALIA",
  billingAddress: null,
  ...over,
});
const customer = { name: "Acme", billingAddress: { name: "Acme Accounts", country: "NEW ZEALAND" } };

describe("groupKeyOf", () => {
  it("CUSTOMER (and unset) one group; SITE by consignor site; REGION by receiver region, trimmed and upper case", () => {
    const line = { customerId: 1, siteId: 7, receiverRegion: " nsw " };
    expect(groupKeyOf(undefined, line)).toBe("CUSTOMER");
    expect(groupKeyOf("CUSTOMER", line)).toBe("CUSTOMER");
    expect(groupKeyOf("SITE", line)).toBe("SITE:7");
    expect(groupKeyOf("SITE", { ...line, siteId: null })).toBe("SITE:none");
    expect(groupKeyOf("REGION", line)).toBe("REGION:NSW");
    expect(groupKeyOf("REGION", { ...line, receiverRegion: null })).toBe("REGION:");
  });
});

describe("billingAddressOf", () => {
  const sites = new Map([
    [7, site(7, { billingAddress: { name: "Site 7 billing", country: "AUSTRALIA" } })],
    [8, site(8)],
  ]);
  const of = (from: unknown, region: string | null = "VIC", consignor: BillingSite | null = sites.get(7)!) =>
    billingAddressOf({ from: from as never, customer, consignorSite: consignor, region, siteById: (id) => sites.get(id) ?? null });

  it("ENTERED or unset: the customer's; the customer's name alone when it has none", () => {
    expect(of(undefined)).toEqual(customer.billingAddress);
    expect(of("ENTERED")).toEqual(customer.billingAddress);
    expect(billingAddressOf({ from: undefined, customer: { name: "Bare", billingAddress: null }, consignorSite: null, region: null, siteById: () => null })).toEqual({ name: "Bare" });
  });

  it("SITE: the consignor site's billing address, else its address", () => {
    expect(of("SITE")).toEqual({ name: "Site 7 billing", country: "AUSTRALIA" });
    expect(of("SITE", "VIC", sites.get(8)!)).toEqual({ name: "Site 8", address_line_1: "1 Main St", locality: "MELBOURNE", region: "VIC", postcode: "3000", country: "AUSTRALIA" });
    // no consignor site: the entered one
    expect(of("SITE", "VIC", null)).toEqual(customer.billingAddress);
  });

  it("a site id (number or digits); a site not found falls back to the entered address", () => {
    expect(of(8)).toMatchObject({ name: "Site 8" });
    expect(of("8")).toMatchObject({ name: "Site 8" });
    expect(of("99")).toEqual(customer.billingAddress);
  });

  it("a region map: the site of the invoice's region (case aside); a region not mapped falls back", () => {
    expect(of({ vic: 8 }, "VIC")).toMatchObject({ name: "Site 8" });
    expect(of({ NSW: 8 }, "VIC")).toEqual(customer.billingAddress);
    expect(of({ NSW: 8 }, null)).toEqual(customer.billingAddress);
  });

  it("a site's blank billing address counts as none", () => {
    expect(siteBillingAddress(site(9, { billingAddress: { name: "" } }))).toMatchObject({ name: "Site 9" });
  });
});
