/**
 * How invoiceable lines become customer invoices (spec 3 section 9 "Invoice allocation by";
 * decision 020-invoicing): grouping by the customer's invoice_allocate_by and the billing address
 * by its billing_address_from. Pure, so the rules are tested without a database.
 */
import type { CustomerOptions, PostalAddress } from "../../../db/schema/tenancy";

export type AllocateBy = NonNullable<CustomerOptions["invoice_allocate_by"]>;

export interface GroupableLine {
  customerId: number;
  siteId: number | null;
  receiverRegion: string | null;
}

/**
 * The invoice a line goes on, within its customer: CUSTOMER (the default) one invoice,
 * SITE one per consignor site, REGION one per receiver region (trimmed, upper case; blank is its
 * own group). The key is stored on the invoice as group_key.
 */
export function groupKeyOf(allocateBy: AllocateBy | undefined, line: GroupableLine): string {
  if (allocateBy === "SITE") return `SITE:${line.siteId ?? "none"}`;
  if (allocateBy === "REGION") return `REGION:${(line.receiverRegion ?? "").trim().toUpperCase()}`;
  return "CUSTOMER";
}

export interface BillingSite {
  id: number;
  name: string;
  addressLine1: string | null;
  addressLine2: string | null;
  addressLine3: string | null;
  addressLine4: string | null;
  sublocality: string | null;
  locality: string | null;
  region: string | null;
  postcode: string | null;
  country: string;
  billingAddress: PostalAddress | null;
}

/** A site's billing address: its own billing_address when it has one, else its address. */
export function siteBillingAddress(site: BillingSite): PostalAddress {
  if (site.billingAddress && Object.values(site.billingAddress).some((v) => v)) return site.billingAddress;
  const a: PostalAddress = {
    name: site.name,
    address_line_1: site.addressLine1 ?? undefined,
    address_line_2: site.addressLine2 ?? undefined,
    address_line_3: site.addressLine3 ?? undefined,
    address_line_4: site.addressLine4 ?? undefined,
    sublocality: site.sublocality ?? undefined,
    locality: site.locality ?? undefined,
    region: site.region ?? undefined,
    postcode: site.postcode ?? undefined,
    country: site.country,
  };
  return Object.fromEntries(Object.entries(a).filter(([, v]) => v != null && v !== "")) as PostalAddress;
}

/**
 * The billing address of one invoice, by the customer's billing_address_from (spec 2):
 * - ENTERED (or unset): the customer's own billing_address;
 * - SITE: the consignor site's (the invoice's first line's site);
 * - a site id: that site's;
 * - { region: site id }: the site mapped to the invoice's region (its receiver region when grouped
 *   by REGION, else the consignor site's region).
 * Whatever cannot be found (no such site, region not mapped) falls back to the customer's entered
 * address, and to the customer's name alone when it has none.
 */
export function billingAddressOf(input: {
  from: CustomerOptions["billing_address_from"] | number | null | undefined;
  customer: { name: string; billingAddress: PostalAddress | null };
  consignorSite: BillingSite | null;
  region: string | null;
  siteById: (id: number) => BillingSite | null;
}): PostalAddress {
  const entered = input.customer.billingAddress && Object.values(input.customer.billingAddress).some((v) => v) ? input.customer.billingAddress : { name: input.customer.name };
  const from = input.from;
  let site: BillingSite | null = null;
  if (from === "SITE") site = input.consignorSite;
  else if (typeof from === "number" || (typeof from === "string" && /^\d+$/.test(from))) site = input.siteById(Number(from));
  else if (from && typeof from === "object") {
    const region = (input.region ?? "").trim().toUpperCase();
    const id = Object.entries(from).find(([r]) => r.toUpperCase() === region)?.[1];
    site = id != null ? input.siteById(Number(id)) : null;
  }
  return site ? siteBillingAddress(site) : entered;
}
