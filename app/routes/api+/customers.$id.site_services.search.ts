import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requireApiUser } from "~/modules/auth/guard.server";
import { searchSiteServices } from "~/modules/rating/site-services.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";
import { parseOrThrow } from "~/utils/validation";

/** POST /api/customers/{id}/site_services/search: search site services {site_codes, group_by}. Staff only. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    const { id } = parseOrThrow(z.object({ id: z.coerce.number().int().positive("Customer id must be a positive number") }), params);
    return searchSiteServices(context.db, user, id, await readBody(request));
  });
}

export const loader = methodNotAllowed("POST");
