import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { listUnpublishedNotices } from "~/modules/notices/admin.server";
import { api } from "~/utils/http.server";

/** GET /api/unpublished_notices: every customer's notices not yet published (staff other than customer service). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return { notices: await listUnpublishedNotices(context.db, user) };
  });
}
