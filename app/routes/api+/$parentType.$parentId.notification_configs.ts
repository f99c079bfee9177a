import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { apiParentRef, assertNotificationsUser, listConfigs, saveConfig } from "~/modules/notifications/configs.server";
import { api, assertMethod, readBody } from "~/utils/http.server";

/** GET /api/{customers|sites|accounts}/{parentId}/notification_configs: the level's own templates (devs, super admins, admins). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    assertNotificationsUser(user);
    return listConfigs(context.db, user, apiParentRef(params));
  });
}

/**
 * POST /api/{customers|sites|accounts}/{parentId}/notification_configs { notification_type,
 * consignment_state, status, template, selected_account_ids? }: a new template for the level, 201
 * (409 when it has one for the type and state: change that one with PUT).
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    // who may ask comes before what they asked
    assertNotificationsUser(user);
    const ref = apiParentRef(params);
    const saved = await saveConfig(context.db, user, ref, await readBody(request), "create");
    return Response.json({ ...saved.config, applied_to_accounts: saved.applied_to_accounts }, { status: 201 });
  });
}
