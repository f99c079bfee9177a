import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { assertNoticeAdmin, deleteNoticeForAdmin, getNoticeForAdmin, updateNoticeForAdmin } from "~/modules/notices/admin.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/admin_notices/{id}: one notice (staff other than customer service). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    assertNoticeAdmin(user);
    return getNoticeForAdmin(context.db, user, idParam(params.id, "Notice id"));
  });
}

/** PUT /api/admin_notices/{id} { header?, customer_id?, publish_at?, content? } changes it; DELETE deletes it for everyone. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT", "DELETE");
    const { user } = await requireApiUser(context, request);
    // who may ask comes before what they asked
    assertNoticeAdmin(user);
    const id = idParam(params.id, "Notice id");
    if (request.method === "DELETE") return deleteNoticeForAdmin(context.db, user, id);
    return updateNoticeForAdmin(context.db, user, id, await readBody(request));
  });
}
