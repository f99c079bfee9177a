/**
 * Enquiry types (ticket categories): a staff-kept list per customer, in order. Everyone reads
 * their working customer's list (the enquiry form, the header's enquiries menu,
 * /api/tickets/categories.json); staff add, rename, remove and order them.
 */
import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { customers, ticketCategories } from "../../../db/schema";
import { authorize } from "../auth/guard.server";
import type { CurrentUser } from "../auth/current-user.server";
import { isAdmin } from "../auth/roles";
import { AppError, notFound } from "../../utils/errors";
import { sqlState } from "../../utils/http.server";
import { parseOrThrow } from "../../utils/validation";
import { MESSAGES, typeNameSchema, type CategoryJson } from "./types";

const columns = { id: ticketCategories.id, name: ticketCategories.name, position: ticketCategories.position };

/** A customer's enquiry types in their order. */
export function listCategories(db: DbOrTx, customerId: number): Promise<CategoryJson[]> {
  return db.select(columns).from(ticketCategories).where(eq(ticketCategories.customerId, customerId)).orderBy(asc(ticketCategories.position), asc(ticketCategories.id));
}

/** GET /api/tickets/categories.json: the working customer's types (customer service: the customer they work in). */
export const categoriesFor = (db: DbOrTx, user: CurrentUser) => listCategories(db, user.customer.id);

/** One of the customer's types by id, or by name (case aside); null when the customer has none such. */
export async function findCategory(db: DbOrTx, customerId: number, by: { id?: number; name?: string }): Promise<CategoryJson | null> {
  const which = by.id ? eq(ticketCategories.id, by.id) : by.name ? sql`lower(${ticketCategories.name}) = lower(${by.name})` : null;
  if (!which) return null;
  const [row] = await db.select(columns).from(ticketCategories).where(and(eq(ticketCategories.customerId, customerId), which));
  return row ?? null;
}

/** Staff only: the customer's list is theirs to keep. */
export function assertTypeKeeper(user: CurrentUser): void {
  authorize(user, isAdmin);
}

async function assertCustomer(db: DbOrTx, customerId: number): Promise<{ id: number; name: string }> {
  const [row] = await db.select({ id: customers.id, name: customers.name }).from(customers).where(eq(customers.id, customerId));
  if (!row) throw notFound("Customer");
  return row;
}

/** The customer and its list, for the staff screen. */
export async function categoriesScreen(db: DbOrTx, user: CurrentUser, customerId: number) {
  assertTypeKeeper(user);
  const customer = await assertCustomer(db, customerId);
  return { customer, categories: await listCategories(db, customerId) };
}

const nameTaken = () => new AppError("invalid", MESSAGES.typeNameTaken, { name: [MESSAGES.typeNameTaken] });

async function checkName(db: DbOrTx, customerId: number, raw: unknown, exceptId: number | null): Promise<string> {
  const { name } = parseOrThrow(typeNameSchema, { name: raw });
  const same = and(eq(ticketCategories.customerId, customerId), sql`lower(${ticketCategories.name}) = lower(${name})`);
  const [clash] = await db.select({ id: ticketCategories.id }).from(ticketCategories).where(exceptId ? and(same, ne(ticketCategories.id, exceptId)) : same).limit(1);
  if (clash) throw nameTaken();
  return name;
}

/** A write that lost a race for its name (the unique index on customer and lower(name) decides) is the same field error. */
async function writing<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (sqlState(error) === "23505") throw nameTaken();
    throw error;
  }
}

/** Adds a type at the end of the customer's list. */
export async function addCategory(db: DbOrTx, user: CurrentUser, customerId: number, rawName: unknown): Promise<CategoryJson> {
  assertTypeKeeper(user);
  await assertCustomer(db, customerId);
  const name = await checkName(db, customerId, rawName, null);
  const last = sql<number>`(select coalesce(max(position), 0) + 1 from ticket_categories where customer_id = ${customerId})`;
  const [row] = await writing(() => db.insert(ticketCategories).values({ customerId, name, position: last }).returning(columns));
  return row!;
}

export async function renameCategory(db: DbOrTx, user: CurrentUser, customerId: number, id: number, rawName: unknown): Promise<CategoryJson> {
  assertTypeKeeper(user);
  const name = await checkName(db, customerId, rawName, id);
  const [row] = await writing(() =>
    db
      .update(ticketCategories)
      .set({ name })
      .where(and(eq(ticketCategories.id, id), eq(ticketCategories.customerId, customerId)))
      .returning(columns),
  );
  if (!row) throw notFound("Enquiry type");
  return row;
}

/** Removes a type; enquiries raised with it keep its name (support_request) and lose the link. */
export async function removeCategory(db: DbOrTx, user: CurrentUser, customerId: number, id: number): Promise<void> {
  assertTypeKeeper(user);
  const gone = await db
    .delete(ticketCategories)
    .where(and(eq(ticketCategories.id, id), eq(ticketCategories.customerId, customerId)))
    .returning({ id: ticketCategories.id });
  if (!gone.length) throw notFound("Enquiry type");
}

/** Moves a type one place up or down the customer's list. */
export async function moveCategory(db: DbOrTx, user: CurrentUser, customerId: number, id: number, direction: "up" | "down"): Promise<void> {
  assertTypeKeeper(user);
  // the list is locked and renumbered in one go: two moves at once would otherwise each swap
  // from positions the other has changed, leaving two types at one place
  await db.transaction(async (tx) => {
    const rows = await tx
      .select(columns)
      .from(ticketCategories)
      .where(eq(ticketCategories.customerId, customerId))
      .orderBy(asc(ticketCategories.position), asc(ticketCategories.id))
      .for("update");
    const at = rows.findIndex((r) => r.id === id);
    if (at < 0) throw notFound("Enquiry type");
    const to = direction === "up" ? at - 1 : at + 1;
    if (to < 0 || to >= rows.length) return;
    [rows[at], rows[to]] = [rows[to]!, rows[at]!];
    for (const [i, r] of rows.entries()) if (r.position !== i + 1) await tx.update(ticketCategories).set({ position: i + 1 }).where(eq(ticketCategories.id, r.id));
  });
}
