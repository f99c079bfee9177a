/**
 * Item types of a customer (issue 16 item 6; spec 2): list, detail, order, delete. Every function
 * takes the customer id from the path and checks it here, so the screens and /api/customers/{id}/
 * item_types share one rule: staff may work in any customer's item types; a customer's own users
 * read theirs (another customer's id is 404 to them) and super despatchers also change them.
 */
import { and, asc, eq, inArray, max, sql } from "drizzle-orm";
import { changeFeedOf, type DbOrTx } from "../../../db/client.server";
import type { FeedMark } from "../../../db/changes.server";
import { keptPer, readThrough } from "../../../db/kept.server";
import { consignmentItems, customers, itemTypes, sites } from "../../../db/schema";
import { currentUserJson, type CurrentUser } from "../auth/current-user.server";
import { forbiddenMessage } from "../auth/guard.server";
import { isAdmin, isSuperDespatcherOrAbove } from "../auth/roles";
import { AppError, notFound, type FieldErrors } from "../../utils/errors";
import { fieldErrorsFrom } from "../../utils/validation";
import { preparedFor } from "../../utils/prepared.server";
import { bulkDeleteSchema, itemTypeSchema, MESSAGES, sequenceSchema, type ItemTypeInput, type ItemTypeJson } from "./item-types";

/** Who may change a customer's item types: staff, and the customer's super despatchers. */
export const canEditItemTypes = (user: CurrentUser) => isSuperDespatcherOrAbove(user);

/**
 * The customer whose item types are asked for: staff any that exists, others only their own (any
 * other id reads as one that is not there, so it tells them nothing). `edit` also needs the right
 * to change them (403).
 */
export async function itemTypeCustomer(db: DbOrTx, user: CurrentUser, customerId: number, edit = false) {
  if (!isAdmin(user) && customerId !== user.customer.id) throw notFound("Customer");
  const [customer] = await db.select({ id: customers.id, name: customers.name }).from(customers).where(eq(customers.id, customerId));
  if (!customer) throw notFound("Customer");
  if (edit && !canEditItemTypes(user)) throw new AppError("forbidden", forbiddenMessage(user));
  return customer;
}

const columns = {
  id: itemTypes.id,
  customerId: itemTypes.customerId,
  name: itemTypes.name,
  description: itemTypes.description,
  labels: itemTypes.labels,
  palletVendor: itemTypes.palletVendor,
  som: itemTypes.som,
  siteId: itemTypes.siteId,
  siteName: sites.name,
  length: itemTypes.length,
  width: itemTypes.width,
  height: itemTypes.height,
  weight: itemTypes.weight,
  increments: itemTypes.increments,
  hasDangerousGoods: itemTypes.hasDangerousGoods,
  preselectedDgItems: itemTypes.preselectedDgItems,
  options: itemTypes.options,
  sequence: itemTypes.sequence,
};

/** numeric columns come back padded ("40.00"); shown as typed ("40") */
const num = (v: string | null) => (v == null ? null : String(Number(v)));

const select = (db: DbOrTx) => db.select(columns).from(itemTypes).leftJoin(sites, eq(sites.id, itemTypes.siteId));
type Row = Awaited<ReturnType<typeof select>>[number];

export const toJson = (r: Row): ItemTypeJson => ({
  id: r.id,
  customer_id: r.customerId,
  name: r.name,
  description: r.description,
  labels: r.labels,
  pallet_vendor: r.palletVendor,
  som: r.som,
  site_id: r.siteId,
  site_name: r.siteName,
  length: num(r.length),
  width: num(r.width),
  height: num(r.height),
  weight: num(r.weight),
  increments: num(r.increments),
  has_dangerous_goods: r.hasDangerousGoods,
  preselected_dg_items: r.preselectedDgItems as ItemTypeJson["preselected_dg_items"],
  item_type_options: { manual_handling: Boolean(r.options?.manual_handling) },
  sequence: r.sequence,
});

const ordered = [asc(itemTypes.sequence), asc(itemTypes.id)];

// prepared once per database handle: /api/users/current and the consignment screen read them on every call
const ofCustomer = preparedFor((db) =>
  select(db)
    .where(eq(itemTypes.customerId, sql.placeholder("customerId")))
    .orderBy(...ordered)
    .prepare("item_types_of_customer"),
);

// and kept per customer by each process while none of them changes (db/kept.server.ts, decision 043)
const keptTypes = keptPer<number, ItemTypeJson[]>((payload, kept) => {
  if (payload.startsWith("item_types:")) kept.delete(Number(payload.slice("item_types:".length)));
});

/** A customer's item types in their saved order (no access check: for callers that did it); each is frozen and shared. */
export async function itemTypesOf(db: DbOrTx, customerId: number, since?: FeedMark): Promise<ItemTypeJson[]> {
  // with the request's mark, the sync that authenticated it serves here too: no round trip of its own
  const types = await readThrough(keptTypes(changeFeedOf(db)), customerId, async () => (await ofCustomer(db).execute({ customerId })).map(toJson), since);
  return [...types!];
}

export async function listItemTypes(db: DbOrTx, user: CurrentUser, customerId: number): Promise<ItemTypeJson[]> {
  await itemTypeCustomer(db, user, customerId);
  return itemTypesOf(db, customerId);
}

async function findItemType(db: DbOrTx, customerId: number, id: number): Promise<ItemTypeJson> {
  const [row] = await select(db).where(and(eq(itemTypes.id, id), eq(itemTypes.customerId, customerId)));
  if (!row) throw new AppError("not_found", MESSAGES.notFound);
  return toJson(row);
}

/** One item type of the customer; 404 when it belongs to no item type of theirs. */
export async function getItemType(db: DbOrTx, user: CurrentUser, customerId: number, id: number): Promise<ItemTypeJson> {
  await itemTypeCustomer(db, user, customerId);
  return findItemType(db, customerId, id);
}

/** The customer's sites an item type may name (the detail's Site choices). */
export async function itemTypeSites(db: DbOrTx, customerId: number): Promise<Array<{ id: number; name: string }>> {
  return db.select({ id: sites.id, name: sites.name }).from(sites).where(eq(sites.customerId, customerId)).orderBy(asc(sites.name));
}

/** A body as the schema's input: a script may send the spec's item_type_options.manual_handling, the form posts manual_handling. */
function asObject(raw: unknown): Record<string, unknown> {
  const body = raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const options = body.item_type_options;
  if (options && typeof options === "object" && "manual_handling" in options && !("manual_handling" in body)) return { ...body, manual_handling: (options as Record<string, unknown>).manual_handling };
  return body;
}

/** The schema's result, or every field's message at once (422); the site must be the customer's. */
export async function checkItemType(db: DbOrTx, customerId: number, raw: Record<string, unknown>): Promise<ItemTypeInput> {
  const result = itemTypeSchema.safeParse(raw);
  const errors: FieldErrors = result.success ? {} : fieldErrorsFrom(result.error);
  if (result.success && result.data.site_id !== null) {
    const [site] = await db.select({ id: sites.id }).from(sites).where(and(eq(sites.id, result.data.site_id), eq(sites.customerId, customerId)));
    if (!site) errors.site_id = [MESSAGES.site];
  }
  const first = Object.values(errors)[0]?.[0];
  if (first || !result.success) throw new AppError("invalid", first ?? "Invalid input", errors);
  return result.data;
}

export const toColumns = (v: ItemTypeInput) => ({
  name: v.name,
  description: v.description,
  som: v.som,
  palletVendor: v.pallet_vendor,
  siteId: v.site_id,
  length: v.length,
  width: v.width,
  height: v.height,
  weight: v.weight,
  increments: v.increments,
  labels: v.labels,
  hasDangerousGoods: v.has_dangerous_goods,
  preselectedDgItems: v.preselected_dg_items,
  options: { manual_handling: v.manual_handling },
});

/** The sequence after the customer's last item type: a new one goes to the end of the list. */
export async function nextSequence(db: DbOrTx, customerId: number): Promise<number> {
  const [row] = await db.select({ last: max(itemTypes.sequence) }).from(itemTypes).where(eq(itemTypes.customerId, customerId));
  return (row?.last ?? 0) + 1;
}

export async function createItemType(db: DbOrTx, user: CurrentUser, customerId: number, raw: unknown): Promise<ItemTypeJson> {
  await itemTypeCustomer(db, user, customerId, true);
  const input = await checkItemType(db, customerId, asObject(raw));
  const [row] = await db
    .insert(itemTypes)
    .values({ customerId, ...toColumns(input), sequence: await nextSequence(db, customerId) })
    .returning({ id: itemTypes.id });
  return findItemType(db, customerId, row!.id);
}

/** The item type as it is, as the schema's input: a PUT's fields replace these. */
const asInput = (t: ItemTypeJson): Record<string, unknown> => ({
  ...t,
  manual_handling: t.item_type_options.manual_handling,
  site_id: t.site_id ?? "",
});

export async function updateItemType(db: DbOrTx, user: CurrentUser, customerId: number, id: number, raw: unknown): Promise<ItemTypeJson> {
  await itemTypeCustomer(db, user, customerId, true);
  const current = await findItemType(db, customerId, id);
  const input = await checkItemType(db, customerId, { ...asInput(current), ...asObject(raw) });
  await db
    .update(itemTypes)
    .set(toColumns(input))
    .where(and(eq(itemTypes.id, id), eq(itemTypes.customerId, customerId)));
  return findItemType(db, customerId, id);
}

/**
 * Deletes item types of the customer. Consignment lines that used one keep their own copy of the
 * description, dimensions and weight and lose only the link (the foreign key has no ON DELETE).
 */
async function deleteIds(db: DbOrTx, customerId: number, ids: number[]): Promise<number[]> {
  // one transaction: a consignment saved with the type between the unlink and the delete would
  // otherwise make the delete fail on the foreign key; the rows are locked first
  return db.transaction(async (tx) => {
    const mine = (await tx.select({ id: itemTypes.id }).from(itemTypes).where(and(inArray(itemTypes.id, ids), eq(itemTypes.customerId, customerId))).for("update")).map((r) => r.id);
    if (mine.length !== new Set(ids).size) return [];
    await tx.update(consignmentItems).set({ itemTypeId: null }).where(inArray(consignmentItems.itemTypeId, mine));
    await tx.delete(itemTypes).where(inArray(itemTypes.id, mine));
    return mine;
  });
}

export async function deleteItemType(db: DbOrTx, user: CurrentUser, customerId: number, id: number): Promise<{ id: number; deleted: true }> {
  await itemTypeCustomer(db, user, customerId, true);
  if (!(await deleteIds(db, customerId, [id])).length) throw new AppError("not_found", MESSAGES.notFound);
  return { id, deleted: true };
}

/** Delete Selected: all of them or none (an id that is not the customer's: 404, nothing deleted). */
export async function bulkDeleteItemTypes(db: DbOrTx, user: CurrentUser, customerId: number, raw: unknown): Promise<{ deleted: number[] }> {
  await itemTypeCustomer(db, user, customerId, true);
  const parsed = bulkDeleteSchema.safeParse(raw);
  if (!parsed.success) throw new AppError("invalid", MESSAGES.bulk, { bulk_item_types: [MESSAGES.bulk] });
  const deleted = await deleteIds(db, customerId, [...new Set(parsed.data.bulk_item_types)]);
  if (!deleted.length) throw new AppError("not_found", MESSAGES.notFound);
  return { deleted };
}

/**
 * Drag to sort (or Move up / Move down): `ids` in their new order take sequences 1..n; item types
 * not listed keep their order after them. Ids not of this customer: 422, nothing moved.
 */
export async function updateSequenceOrder(db: DbOrTx, user: CurrentUser, customerId: number, raw: unknown): Promise<ItemTypeJson[]> {
  await itemTypeCustomer(db, user, customerId, true);
  const parsed = sequenceSchema.safeParse(raw);
  if (!parsed.success) throw new AppError("invalid", MESSAGES.ids, { ids: [MESSAGES.ids] });
  const wanted = [...new Set(parsed.data.ids)];
  // one transaction over the customer's locked rows: two reorders at once cannot interleave and
  // leave two item types with one sequence number
  await db.transaction(async (tx) => {
    const current = (await tx.select({ id: itemTypes.id }).from(itemTypes).where(eq(itemTypes.customerId, customerId)).orderBy(...ordered).for("update")).map((r) => r.id);
    const known = new Set(current);
    if (wanted.some((id) => !known.has(id))) throw new AppError("invalid", MESSAGES.ids, { ids: [MESSAGES.ids] });
    await writeOrder(tx, [...wanted, ...current.filter((id) => !wanted.includes(id))]);
  });
  return itemTypesOf(db, customerId);
}

/** Sort Alphabetically: by description (then type), case-insensitive, saved as the new order. */
export async function sortAlphabetically(db: DbOrTx, user: CurrentUser, customerId: number): Promise<ItemTypeJson[]> {
  await itemTypeCustomer(db, user, customerId, true);
  // one transaction over the locked rows, as updateSequenceOrder
  await db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: itemTypes.id })
      .from(itemTypes)
      .where(eq(itemTypes.customerId, customerId))
      .orderBy(sql`lower(${itemTypes.description})`, asc(itemTypes.name), asc(itemTypes.id))
      .for("update");
    await writeOrder(tx, rows.map((r) => r.id));
  });
  return itemTypesOf(db, customerId);
}

/** Sequences 1..n in the order given, in one statement. */
async function writeOrder(tx: DbOrTx, ids: number[]): Promise<void> {
  if (!ids.length) return;
  const cases = sql.join(
    ids.map((id, i) => sql`when ${id}::integer then ${i + 1}::integer`),
    sql` `,
  );
  await tx
    .update(itemTypes)
    .set({ sequence: sql`case ${itemTypes.id} ${cases} end` })
    .where(inArray(itemTypes.id, ids));
}

/**
 * GET /api/users/current (spec 1 section 3): the user, whose customer carries its item types in
 * their order, the fields the consignment screen reads.
 */
export async function currentUserWithItemTypes(db: DbOrTx, user: CurrentUser, since?: FeedMark) {
  const json = currentUserJson(user);
  const types = await itemTypesOf(db, user.customer.id, since);
  const item_types = types.map((t) => ({
    id: t.id,
    name: t.name,
    description: t.description,
    item_type_options: t.item_type_options,
    width: t.width,
    length: t.length,
    height: t.height,
    weight: t.weight,
    increments: t.increments,
    som: t.som,
    labels: t.labels,
    preselected_dg_items: t.preselected_dg_items,
  }));
  return { ...json, customer: { ...json.customer, item_types } };
}
