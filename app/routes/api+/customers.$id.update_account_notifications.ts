import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { assertNotificationsUser, updateAccountNotifications } from "~/modules/notifications/configs.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

export const loader = methodNotAllowed("PUT");

/**
 * PUT /api/customers/{id}/update_account_notifications { custom_accounts, selected_account_ids,
 * notification_type, status, consignment_state, template }: the customer's change applied to the
 * chosen accounts' own templates too; while accounts have their own, at least one must be chosen.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireApiUser(context, request);
    assertNotificationsUser(user);
    return updateAccountNotifications(context.db, user, idParam(params.id, "Customer id"), await readBody(request));
  });
}
