import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { noticeListQuery } from "~/modules/notices/admin";
import { assertNoticeAdmin, createNoticeForAdmin, listNoticesForAdmin } from "~/modules/notices/admin.server";
import { api, assertMethod, readBody, readQueryObject } from "~/utils/http.server";
import { parseOrThrow } from "~/utils/validation";

/**
 * The notices screens' calls (staff other than customer service). GET /api/notices stays the
 * reader's own list, so administration has a path of its own.
 * GET /api/admin_notices?customer_id&page: every notice, 20 a page.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    assertNoticeAdmin(user);
    const query = parseOrThrow(noticeListQuery, readQueryObject(request));
    return listNoticesForAdmin(context.db, user, { customerId: query.customer_id, page: query.page });
  });
}

/** POST /api/admin_notices { header, customer_id, publish_at?, content }: a new unpublished notice, 201. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    assertNoticeAdmin(user);
    return Response.json(await createNoticeForAdmin(context.db, user, await readBody(request)), { status: 201 });
  });
}
