import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { saveSiteServices, searchSiteServices } from "~/modules/rating/site-services.server";
import { api, assertMethod, readBody, readQueryObject } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/customers/{id}/site_services?site_codes&service_codes: the customer's site services (staff). */
export async function loader({ request, context, params: raw }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    const id = idParam(raw.id, "Customer id");
    return searchSiteServices(context.db, user, id, readQueryObject(request));
  });
}

/** POST /api/customers/{id}/site_services {site_services: [...]}: assign services to sites (admin). */
export async function action({ request, context, params: raw }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    const id = idParam(raw.id, "Customer id");
    return saveSiteServices(context.db, user, id, await readBody(request));
  });
}
