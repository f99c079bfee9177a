import type { DbOrTx } from "../../../db/client.server";
import type { CurrentUser } from "../auth/current-user.server";
import { firstSegment, isAdmin } from "../auth/roles";
import { listCategories } from "./categories.server";

/** Pages where a despatched consignment is at hand: the consignment and its enquiries, its tracking, the enquiries list. */
const WITH_A_CONSIGNMENT = new Set(["consignment", "return", "thirdparty", "tracking", "enquiries"]);

/**
 * The enquiry types the header's enquiries menu lists (spec 1 section 4): for customer service
 * (staff) on every page; for others where a despatched consignment or its tracking is loaded.
 */
export async function enquiryTypesForMenu(db: DbOrTx, user: CurrentUser, pathname: string): Promise<string[]> {
  // a client navigation's loader call is the page's path with ".data" (single fetch)
  if (!isAdmin(user) && !WITH_A_CONSIGNMENT.has(firstSegment(pathname.replace(/\.data$/, "")))) return [];
  return (await listCategories(db, user.customer.id)).map((c) => c.name);
}
