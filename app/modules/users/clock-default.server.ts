/**
 * The clock a user of this customer would inherit without their own setting (decision 032), for
 * the admin user form's "Default (…)": their default site's, else a despatcher's first site's,
 * else the customer's billing country's, else the provider's. Staff never inherit a site they
 * were not given.
 */
import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { customers, sites } from "../../../db/schema";
import { inheritedClock, type UserClock } from "../calendar/user-clock";
import { roleHasSites, type UserAdminJson } from "./admin";

export async function inheritedClockOf(db: DbOrTx, customerId: number, user: Pick<UserAdminJson, "role" | "site_id" | "site_ids"> | null): Promise<UserClock> {
  const siteId = user?.site_id ?? (user && roleHasSites(user.role) ? user.site_ids[0] : undefined);
  const [site] = siteId ? await db.select({ timezone: sites.timezone, country: sites.country }).from(sites).where(eq(sites.id, siteId)) : [];
  const [customer] = await db.select({ billingAddress: customers.billingAddress }).from(customers).where(eq(customers.id, customerId));
  return inheritedClock({ own: { timezone: null, dateFormat: null }, site: site ?? null, customerCountry: customer?.billingAddress?.country ?? null });
}
