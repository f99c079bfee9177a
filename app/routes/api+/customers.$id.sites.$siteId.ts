import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { deleteSiteForAdmin, getSiteForAdmin, updateSiteForAdmin } from "~/modules/customers/sites.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/customers/{id}/sites/{siteId}: one site with its accounts (team view). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return getSiteForAdmin(context.db, user, idParam(params.id, "Customer id"), idParam(params.siteId, "Site id"));
  });
}

/** PUT changes the site (the fields given); DELETE deletes it, or 409 with what still uses it. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT", "DELETE");
    const { user } = await requireApiUser(context, request);
    const customerId = idParam(params.id, "Customer id");
    const siteId = idParam(params.siteId, "Site id");
    if (request.method === "DELETE") return deleteSiteForAdmin(context.db, user, customerId, siteId);
    return updateSiteForAdmin(context.db, user, customerId, siteId, await readBody(request));
  });
}
