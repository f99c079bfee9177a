import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { assertTypeAdmin, deleteNotificationType, getNotificationType, updateNotificationType } from "~/modules/notifications/types.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/notification_types/{id}: one notification type (super admins). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    assertTypeAdmin(user);
    return getNotificationType(context.db, user, idParam(params.id, "Notification type id"));
  });
}

/** PUT /api/notification_types/{id} { name?, max_length?, field_name? } changes it; DELETE deletes it unless preferences use it (409). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT", "DELETE");
    const { user } = await requireApiUser(context, request);
    // who may ask comes before what they asked: a despatcher learns nothing from a bad id
    assertTypeAdmin(user);
    const id = idParam(params.id, "Notification type id");
    if (request.method === "DELETE") return deleteNotificationType(context.db, user, id);
    return updateNotificationType(context.db, user, id, await readBody(request));
  });
}
