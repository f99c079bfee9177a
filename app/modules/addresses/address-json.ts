import type { addresses } from "../../../db/schema";
import type { AddressInput } from "../consignments/schema";
import type { Som } from "../rating/measure";

type AddressRow = typeof addresses.$inferSelect;

/** The address object of spec 1 section 3. */
export interface AddressJson {
  id: number | null;
  name: string;
  code: string | null;
  address_line_1: string | null;
  address_line_2: string | null;
  address_line_3: string | null;
  address_line_4: string | null;
  sublocality: string | null;
  locality: string | null;
  region: string | null;
  postcode: string | null;
  country: string;
  phone: string | null;
  email: string | null;
  timezone: string | null;
  address_type: string;
  special_instructions: string | null;
  site_id: number | null;
  som: Som;
}

export function addressJson(a: AddressRow | null | undefined): AddressJson | null {
  if (!a) return null;
  return {
    id: a.id,
    name: a.name,
    code: a.code,
    address_line_1: a.addressLine1,
    address_line_2: a.addressLine2,
    address_line_3: a.addressLine3,
    address_line_4: a.addressLine4,
    sublocality: a.sublocality,
    locality: a.locality,
    region: a.region,
    postcode: a.postcode,
    country: a.country,
    phone: a.phone,
    email: a.email,
    timezone: a.timezone,
    address_type: a.addressType,
    special_instructions: a.specialInstructions,
    site_id: a.siteId,
    som: a.som,
  };
}

export function addressValues(customerId: number, siteId: number | null, a: AddressInput, som: Som) {
  return {
    customerId,
    siteId,
    isRecipient: false,
    name: a.name,
    code: a.code,
    addressLine1: a.address_line_1,
    addressLine2: a.address_line_2,
    addressLine3: a.address_line_3,
    addressLine4: a.address_line_4,
    sublocality: a.sublocality,
    locality: a.locality,
    region: a.region,
    postcode: a.postcode,
    country: a.country,
    phone: a.phone,
    email: a.email,
    addressType: a.address_type,
    specialInstructions: a.special_instructions,
    som,
    updatedAt: new Date(),
  };
}

