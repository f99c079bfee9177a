import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { assertNotificationsUser } from "~/modules/notifications/configs.server";
import { storeMedia } from "~/modules/notifications/media.server";
import { api, assertMethod, linkBase, methodNotAllowed } from "~/utils/http.server";

export const loader = methodNotAllowed("POST");

/**
 * POST /api/notifications_media_upload (multipart, field `file`): an image for notification
 * templates (PNG, JPEG, GIF or WebP by its bytes, at most 2 MB), 201 { url } where it is served
 * to anyone. Devs, super admins and admins, checked before the body is read.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    assertNotificationsUser(user);
    return Response.json(await storeMedia(context.db, user, request, linkBase(request)), { status: 201 });
  });
}
