import type { ActionFunctionArgs } from "@remix-run/node";
import { authorize, requireApiUser } from "~/modules/auth/guard.server";
import { isAdmin } from "~/modules/auth/roles";
import { exportZones } from "~/modules/rating/zones.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";

/** POST /api/zones/export {carrier_code, customer_code?, site_code?, service_code?}: the zones as CSV. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    authorize(user, isAdmin);
    const body = await readBody(request);
    const csv = await exportZones(context.db, body);
    return new Response(csv, {
      headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="zones-${String(body.carrier_code ?? "")}.csv"` },
    });
  });
}

export const loader = methodNotAllowed("POST");
