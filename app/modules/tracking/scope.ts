import { and, eq, inArray, sql } from "drizzle-orm";
import { consignments } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";

/**
 * Consignments whose tracking a signed-in user may read: the working customer's, at one of the
 * user's sites (the consignment screen's rule). Anything else answers 404, never another
 * customer's events.
 */
export function trackingScope(user: Pick<CurrentUser, "customer" | "siteIds">) {
  return and(eq(consignments.customerId, user.customer.id), user.siteIds.length ? inArray(consignments.siteId, user.siteIds) : sql`false`);
}
