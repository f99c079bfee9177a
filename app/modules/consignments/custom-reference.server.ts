import { and, asc, eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { sites } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";

/**
 * The choices of the custom reference when the customer's type is a dropdown: its list of
 * custom references (dropdown_generic) or its sites to charge (dropdown_charge_site); null for text.
 */
export async function customReferenceChoices(db: DbOrTx, user: CurrentUser): Promise<{ value: string; label: string }[] | null> {
  const type = user.customer.customConsignmentReferenceType;
  if (type === "dropdown_generic") return (user.customer.options.custom_references ?? []).map((r) => ({ value: r, label: r }));
  if (type === "dropdown_charge_site") {
    const rows = await db
      .select({ code: sites.code, name: sites.name })
      .from(sites)
      .where(and(eq(sites.customerId, user.customer.id), eq(sites.active, true)))
      .orderBy(asc(sites.name));
    return rows.map((r) => ({ value: r.code, label: `${r.name} (${r.code})` }));
  }
  return null;
}
