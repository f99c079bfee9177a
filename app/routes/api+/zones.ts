import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { authorize, requireApiUser } from "~/modules/auth/guard.server";
import { isAdmin } from "~/modules/auth/roles";
import { listZones, saveZones } from "~/modules/rating/zones.server";
import { api, assertMethod, readBody, readQueryObject } from "~/utils/http.server";

/** GET /api/zones?carrier_code&customer_code&site_code&service_code&q&page: a page of a scope's zones (staff). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    authorize(user, isAdmin);
    return listZones(context.db, readQueryObject(request));
  });
}

/** POST /api/zones {carrier_code, ..., zones: [{id?, postcode, locality?, code, _destroy?}]}: saves edits (admin, super_admin, devs). */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    return saveZones(context.db, user, await readBody(request));
  });
}
