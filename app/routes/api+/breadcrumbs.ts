import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { breadcrumbTrail } from "~/modules/shell/breadcrumbs.server";
import { api, readQueryObject } from "~/utils/http.server";

/** GET /api/breadcrumbs?model&id&parent&parent_id: the trail of { label, url } to that record or screen. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return { breadcrumbs: await breadcrumbTrail(context.db, user, readQueryObject(request)) };
  });
}
