import { asc, eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { customers, users } from "../../../db/schema";
import { customerStatus, loadCurrentUser, type CurrentUser } from "../auth/current-user.server";
import { forbiddenMessage } from "../auth/guard.server";
import { canSwitchCustomer, isAdmin } from "../auth/roles";
import { AppError, notFound } from "../../utils/errors";

export interface CustomerListItem {
  id: number;
  code: string;
  name: string;
  status: "LIVE" | "TEST" | "DISABLED";
}

/** Customers a staff user may switch to, with their LIVE / TEST / DISABLED status. */
export async function listCustomers(db: DbOrTx, user: CurrentUser): Promise<CustomerListItem[]> {
  if (!canSwitchCustomer(user)) throw new AppError("forbidden", forbiddenMessage(user));
  const rows = await db
    .select({ id: customers.id, code: customers.code, name: customers.name, disabled: customers.disabled, testAccount: customers.testAccount })
    .from(customers)
    .orderBy(asc(customers.name));
  return rows.map((r) => ({ id: r.id, code: r.code, name: r.name, status: customerStatus(r) }));
}

/** Staff work in another customer's data; every tenant query then scopes to that customer. */
export async function switchCustomer(db: DbOrTx, user: CurrentUser, customerId: number): Promise<CurrentUser> {
  if (!canSwitchCustomer(user)) throw new AppError("forbidden", forbiddenMessage(user));
  const [target] = await db.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId));
  if (!target) throw notFound("Customer");
  await db
    .update(users)
    .set({ currentCustomerId: target.id === user.homeCustomerId ? null : target.id, updatedAt: new Date() })
    .where(eq(users.id, user.id));
  const reloaded = await loadCurrentUser(db, user.id);
  if (!reloaded) throw notFound("User");
  return reloaded;
}

/** A customer's administration (surcharges, site services, ...): staff only, and the customer must exist. */
export async function customerForStaff(db: DbOrTx, user: CurrentUser, customerId: number) {
  if (!isAdmin(user)) throw new AppError("forbidden", forbiddenMessage(user));
  const [customer] = await db.select().from(customers).where(eq(customers.id, customerId));
  if (!customer) throw notFound("Customer");
  return customer;
}
