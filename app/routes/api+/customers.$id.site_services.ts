import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requireApiUser } from "~/modules/auth/guard.server";
import { saveSiteServices, searchSiteServices } from "~/modules/rating/site-services.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { parseOrThrow } from "~/utils/validation";

const params = z.object({ id: z.coerce.number().int().positive("Customer id must be a positive number") });

/** GET /api/customers/{id}/site_services?site_codes&service_codes: the customer's site services (staff). */
export async function loader({ request, context, params: raw }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    const { id } = parseOrThrow(params, raw);
    return searchSiteServices(context.db, user, id, Object.fromEntries(new URL(request.url).searchParams));
  });
}

/** POST /api/customers/{id}/site_services {site_services: [...]}: assign services to sites (admin). */
export async function action({ request, context, params: raw }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    const { id } = parseOrThrow(params, raw);
    return saveSiteServices(context.db, user, id, await readBody(request));
  });
}
