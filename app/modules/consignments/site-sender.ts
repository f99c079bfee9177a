/**
 * A site's address as a consignment's sender: the screen's default and the bulk upload's sender.
 * Pure, apart from the screen's module, so the bulk upload does not load the screen to use it.
 */
import type { sites } from "../../../db/schema";

type SiteAddressFields = Pick<typeof sites.$inferSelect, "name" | "addressLine1" | "addressLine2" | "locality" | "sublocality" | "postcode" | "region" | "country" | "phone" | "email" | "addressType">;

/** A site's address as a consignment's sender (the screen's default; the bulk upload's sender). */
export function siteSenderAddress(s: SiteAddressFields) {
  return {
    name: s.name,
    address_line_1: s.addressLine1,
    address_line_2: s.addressLine2,
    locality: s.locality,
    sublocality: s.sublocality,
    postcode: s.postcode,
    region: s.region,
    country: s.country,
    phone: s.phone,
    email: s.email,
    address_type: s.addressType,
  };
}
