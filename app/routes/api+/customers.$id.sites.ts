import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { siteListQuery } from "~/modules/customers/sites";
import { createSiteForAdmin, listSitesForAdmin } from "~/modules/customers/sites.server";
import { api, assertMethod, readBody, readQueryObject } from "~/utils/http.server";
import { idParam, parseOrThrow } from "~/utils/validation";

/** GET /api/customers/{id}/sites?filter: the customer's sites by code (team view). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    const query = parseOrThrow(siteListQuery, readQueryObject(request));
    return listSitesForAdmin(context.db, user, idParam(params.id, "Customer id"), query.filter);
  });
}

/** POST /api/customers/{id}/sites { code, name, address, ... }: a new site, 201; 422 per field. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    const site = await createSiteForAdmin(context.db, user, idParam(params.id, "Customer id"), await readBody(request));
    return Response.json(site, { status: 201 });
  });
}
