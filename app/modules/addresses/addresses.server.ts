import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { addresses } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { isAdmin } from "../auth/roles";
import { forbiddenMessage } from "../auth/guard.server";
import { CHOOSE_PLACE, resolveAddressPlace } from "../localities/resolve.server";
import { addressJson, addressValues, type AddressJson } from "./address-json";
import { AppError, notFound, type FieldErrors } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { addressSchema, type AddressInput } from "../consignments/schema";
import type { Som } from "../rating/measure";

type AddressRow = typeof addresses.$inferSelect;


/**
 * Adding or editing recipients (the address book): can_edit_recipients, or every user when the
 * customer allows it, and staff.
 */
export const canEditRecipients = (user: CurrentUser) => user.canEditRecipients || Boolean(user.customer.options.all_users_can_edit_recipients) || isAdmin(user);

/**
 * What an address-book entry needs beyond the shape: a first line, and a real place for its
 * locality, resolved as the site form resolves it (a locality alone will do when it names one
 * place). The input with the place's locality, suburb, postcode and region, or the errors.
 */
export async function checkRecipient(db: DbOrTx, a: AddressInput): Promise<{ errors: FieldErrors; input: AddressInput }> {
  const errors: FieldErrors = {};
  if (!a.address_line_1) errors.address_line_1 = ["Address line 1 is required"];
  const nz = a.country === "NEW ZEALAND";
  const field = nz ? "sublocality" : "locality";
  if (nz && !a.sublocality && !a.locality) errors.sublocality = ["Suburb is required"];
  if (!nz && !a.locality) errors.locality = ["Locality is required"];
  if (errors[field]) return { errors, input: a };
  const place = await resolveAddressPlace(db, a);
  if (place.status === "found") return { errors, input: place.address };
  errors[field] = [place.status === "choose" ? CHOOSE_PLACE : `${a.postcode ?? ""} ${(nz ? a.sublocality || a.locality : a.locality) ?? ""} is not a known place`.trim()];
  return { errors, input: a };
}

/** An address-book entry of `customerId`, or 404. */
export async function recipientRow(db: DbOrTx, customerId: number, id: number): Promise<AddressRow> {
  const [row] = await db
    .select()
    .from(addresses)
    .where(and(eq(addresses.id, id), eq(addresses.customerId, customerId), eq(addresses.isRecipient, true)));
  if (!row) throw notFound("Address");
  return row;
}

/** GET /api/addresses/{id}: an address-book entry of the working customer. */
export async function getRecipient(db: DbOrTx, user: CurrentUser, id: number): Promise<AddressJson> {
  return addressJson(await recipientRow(db, user.customer.id, id))!;
}

/**
 * POST /api/addresses and PUT /api/addresses/{id}: adds or edits an address-book entry, with
 * errors per field (name, email, phone, address_line_1, sublocality, locality, special_instructions).
 */
export async function saveRecipient(db: DbOrTx, user: CurrentUser, id: number | null, raw: unknown): Promise<AddressJson> {
  if (!canEditRecipients(user)) throw new AppError("forbidden", forbiddenMessage(user));
  const siteId = typeof (raw as { site_id?: unknown })?.site_id === "number" ? (raw as { site_id: number }).site_id : null;
  const site = siteId ? user.sites.find((s) => s.id === siteId) : undefined;
  return storeRecipient(db, user.customer.id, id, raw, site);
}

/**
 * Adds (`id` null) or edits an address-book entry of `customerId`, the caller's right to do so
 * already checked; errors per field as saveRecipient's.
 */
export async function storeRecipient(db: DbOrTx, customerId: number, id: number | null, raw: unknown, site?: { id: number; som: Som }): Promise<AddressJson> {
  const { errors, input } = await checkRecipient(db, parseOrThrow(addressSchema, raw));
  if (Object.keys(errors).length) throw new AppError("invalid", Object.values(errors)[0]![0]!, errors);
  const values = { ...addressValues(customerId, site?.id ?? null, input, site?.som ?? (input.country === "UNITED STATES OF AMERICA" ? "imperial" : "metric")), isRecipient: true };
  if (id) {
    await recipientRow(db, customerId, id);
    const [row] = await db.update(addresses).set(values).where(eq(addresses.id, id)).returning();
    return addressJson(row)!;
  }
  const [row] = await db.insert(addresses).values(values).returning();
  return addressJson(row)!;
}
