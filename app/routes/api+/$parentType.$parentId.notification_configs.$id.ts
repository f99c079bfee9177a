import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { apiParentRef, assertNotificationsUser, deleteConfig, getConfig, updateConfig } from "~/modules/notifications/configs.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/{customers|sites|accounts}/{parentId}/notification_configs/{id}: one of the level's own templates. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    assertNotificationsUser(user);
    return getConfig(context.db, user, apiParentRef(params), idParam(params.id, "Notification config id"));
  });
}

/**
 * PUT (or POST) .../notification_configs/{id} { notification_type?, consignment_state?, status?,
 * template?, selected_account_ids? }: changes it (what is left out stays); DELETE removes it, and the
 * level above applies again.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT", "POST", "DELETE");
    const { user } = await requireApiUser(context, request);
    assertNotificationsUser(user);
    const ref = apiParentRef(params);
    const id = idParam(params.id, "Notification config id");
    if (request.method === "DELETE") return deleteConfig(context.db, user, ref, id);
    const saved = await updateConfig(context.db, user, ref, id, await readBody(request));
    return { ...saved.config, applied_to_accounts: saved.applied_to_accounts };
  });
}
