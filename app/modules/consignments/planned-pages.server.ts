import type { DbOrTx } from "../../../db/client.server";
import type { CurrentUser } from "../auth/current-user.server";
import { PLANNED_CONSIGNMENT_SCREENS } from "../shell/planned";
import { notFound } from "../../utils/errors";
import { MAX_ID } from "../../utils/ids";
import { getConsignment } from "./consignments.server";

/**
 * A consignment's planned screen (/consignment/{id}/tracking or /enquiries): which one and the
 * consignment it is for. Scoped as the consignment screen: one the user may not see is not found.
 */
export async function plannedConsignmentPage(db: DbOrTx, user: CurrentUser, rawId: string | undefined, screen: string | undefined) {
  const planned = Object.hasOwn(PLANNED_CONSIGNMENT_SCREENS, screen ?? "") ? PLANNED_CONSIGNMENT_SCREENS[screen!]! : null;
  if (!planned) throw notFound("Page");
  const id = /^\d{1,10}$/.test(rawId ?? "") ? Number(rawId) : 0;
  if (!id || id > MAX_ID) throw notFound("Consignment");
  const consignment = await getConsignment(db, user, id);
  return { ...planned, id: consignment.id, number: consignment.consignment_number ?? "Pending" };
}
