import { and, asc, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { addresses, consignments, customers, sites } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { forbiddenMessage } from "../auth/guard.server";
import { isAdmin } from "../auth/roles";
import { canEditRecipients, recipientRow, storeRecipient } from "../addresses/addresses.server";
import { addressJson, type AddressJson } from "../addresses/address-json";
import { likePrefix } from "../search/search.server";
import { AppError, notFound } from "../../utils/errors";
import { encodeCursor, type RecipientListQuery } from "./query";

export type RecipientsCustomer = { id: number; name: string; globalRecipients: boolean; canEdit: boolean };

/**
 * The customer whose address book the caller opens: staff any customer, everyone else only their
 * own (another customer's id answers 404, as an id that names nothing of theirs). `canEdit`:
 * staff, can_edit_recipients, or the customer's all_users_can_edit_recipients.
 */
export async function recipientsCustomer(db: DbOrTx, user: CurrentUser, customerId: number): Promise<RecipientsCustomer> {
  if (!isAdmin(user) && customerId !== user.customer.id) throw notFound("Customer");
  const [row] = await db.select({ id: customers.id, name: customers.name, options: customers.options }).from(customers).where(eq(customers.id, customerId));
  if (!row) throw notFound("Customer");
  return { id: row.id, name: row.name, globalRecipients: Boolean(row.options.global_recipients), canEdit: canEditRecipients(user) };
}

/** As recipientsCustomer, refusing (403) a caller who may only read the address book. */
export async function recipientsCustomerToEdit(db: DbOrTx, user: CurrentUser, customerId: number): Promise<RecipientsCustomer> {
  const customer = await recipientsCustomer(db, user, customerId);
  if (!customer.canEdit) throw new AppError("forbidden", forbiddenMessage(user));
  return customer;
}

const ofCustomer = (customerId: number) => and(eq(addresses.customerId, customerId), eq(addresses.isRecipient, true));

/**
 * One page of the address book by name (the index on customer_id, is_recipient, lower(name)),
 * one row more than asked telling whether another page follows; no count, which would read the
 * whole book on every scroll.
 */
export async function listRecipients(db: DbOrTx, customerId: number, q: RecipientListQuery) {
  const after = q.after ? sql`(lower(${addresses.name}), ${addresses.id}) > (${q.after.name}, ${q.after.id})` : undefined;
  // the sort key as PostgreSQL lower-cases it, for the cursor (JavaScript's toLowerCase may differ)
  const rows = await db
    .select({ ...getTableColumns(addresses), sortName: sql<string>`lower(${addresses.name})` })
    .from(addresses)
    .where(and(ofCustomer(customerId), q.q ? sql`lower(${addresses.name}) like ${likePrefix(q.q)}` : undefined, after))
    .orderBy(sql`lower(${addresses.name})`, asc(addresses.id))
    .limit(q.limit + 1)
    .offset(q.after ? 0 : q.offset);
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return {
    recipients: page.map((r) => addressJson(r)!),
    limit: q.limit,
    offset: q.after ? null : q.offset,
    has_more: rows.length > q.limit,
    next: rows.length > q.limit && last ? encodeCursor({ name: last.sortName, id: last.id }) : null,
  };
}

export async function getRecipientOf(db: DbOrTx, customerId: number, id: number): Promise<AddressJson> {
  return addressJson(await recipientRow(db, customerId, id))!;
}

/** Adds (`id` null) or edits one entry of an address book the caller may edit. */
export async function saveRecipientOf(db: DbOrTx, user: CurrentUser, customerId: number, id: number | null, raw: unknown): Promise<AddressJson> {
  const customer = await recipientsCustomerToEdit(db, user, customerId);
  return storeRecipient(db, customer.id, id, raw);
}

/**
 * Takes entries out of the address book: deleted, or, where a consignment still points at one
 * (older data; the consignment screen keeps its own copies), left to that consignment and no
 * longer a recipient.
 */
export async function removeFromBook(db: DbOrTx, ids: number[]): Promise<void> {
  await db.delete(addresses).where(
    and(
      inArray(addresses.id, ids),
      sql`not exists (select 1 from ${consignments} c where c.receiver_address_id = ${addresses.id})`,
      sql`not exists (select 1 from ${consignments} c where c.sender_address_id = ${addresses.id})`,
    ),
  );
  await db.update(addresses).set({ isRecipient: false, updatedAt: new Date() }).where(inArray(addresses.id, ids));
}

export async function deleteRecipientOf(db: DbOrTx, user: CurrentUser, customerId: number, id: number): Promise<{ id: number }> {
  const customer = await recipientsCustomerToEdit(db, user, customerId);
  await recipientRow(db, customer.id, id);
  await removeFromBook(db, [id]);
  return { id };
}

export const NO_GLOBAL_RECIPIENTS = "This customer does not use global recipients.";

/**
 * POST .../recipients/import_sites: each active site of the customer becomes a recipient, unless
 * one of the same name and code is there already (so a second press adds nothing). Only for
 * customers with global recipients (spec 2 section 5).
 */
export async function importSitesAsRecipients(db: DbOrTx, user: CurrentUser, customerId: number): Promise<{ created: number }> {
  const customer = await recipientsCustomerToEdit(db, user, customerId);
  if (!customer.globalRecipients) throw new AppError("invalid", NO_GLOBAL_RECIPIENTS);
  // one statement: two presses at once cannot both see a site as missing and add it twice
  const result = (await db.execute(sql`
    insert into addresses (customer_id, site_id, is_recipient, name, code, address_line_1, address_line_2, address_line_3, address_line_4,
      sublocality, locality, region, postcode, country, phone, email, timezone, address_type, som)
    select s.customer_id, null, true, s.name, s.code, s.address_line_1, s.address_line_2, s.address_line_3, s.address_line_4,
      s.sublocality, s.locality, s.region, s.postcode, s.country, s.phone, s.email, s.timezone, s.address_type, s.som
    from ${sites} s
    where s.customer_id = ${customer.id} and s.active
      and not exists (select 1 from addresses a where a.customer_id = s.customer_id and a.is_recipient
        and lower(a.name) = lower(s.name) and coalesce(a.code, '') = s.code)
    returning id`)) as unknown as { rows?: unknown[] } | unknown[];
  return { created: (Array.isArray(result) ? result : (result.rows ?? [])).length };
}
