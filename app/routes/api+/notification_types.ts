import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { assertTypeAdmin, createNotificationType, listNotificationTypes } from "~/modules/notifications/types.server";
import { api, assertMethod, readBody } from "~/utils/http.server";

/** GET /api/notification_types: every notification type, by name (super admins). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return { notification_types: await listNotificationTypes(context.db, user) };
  });
}

/** POST /api/notification_types { name, max_length?, field_name }: a new notification type (super admins), 201. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    // refused before the body is read: who may ask comes before what they asked
    assertTypeAdmin(user);
    return Response.json(await createNotificationType(context.db, user, await readBody(request)), { status: 201 });
  });
}
