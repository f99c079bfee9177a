import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { noticePutSchema } from "~/modules/notices/admin";
import { assertNoticeAdmin, setNoticePublished } from "~/modules/notices/admin.server";
import { deleteNoticeFor, markNoticeSeen } from "~/modules/notices/notices.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";
import { idParam, parseOrThrow } from "~/utils/validation";

/**
 * DELETE /api/notices/{id} removes it from the user's list; PUT {seen: true} marks it seen for the
 * user; PUT {published: true|false} publishes it to its customer's users or withdraws it (staff
 * other than customer service).
 */
export async function action({ request, context, params: raw }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "DELETE", "PUT");
    const { user } = await requireApiUser(context, request);
    const id = idParam(raw.id, "Notice id");
    if (request.method === "DELETE") {
      await deleteNoticeFor(context.db, user, id);
      return { deleted: true };
    }
    const body = parseOrThrow(noticePutSchema, await readBody(request));
    if ("published" in body) {
      assertNoticeAdmin(user);
      return setNoticePublished(context.db, user, id, body.published);
    }
    await markNoticeSeen(context.db, user, id);
    return { id, seen: true };
  });
}

export const loader = methodNotAllowed("DELETE", "PUT");
