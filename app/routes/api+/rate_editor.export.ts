import type { ActionFunctionArgs } from "@remix-run/node";
import { authorize, requireApiUser } from "~/modules/auth/guard.server";
import { isAdmin } from "~/modules/auth/roles";
import { exportRateCards } from "~/modules/rating/rate-cards.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";

/** POST /api/rate_editor/export {carrier_code?, service_code?, rate_code?}: lanes as CSV in the import template. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    authorize(user, isAdmin);
    const csv = await exportRateCards(context.db, await readBody(request));
    return new Response(csv, { headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": 'attachment; filename="rates.csv"' } });
  });
}

export const loader = methodNotAllowed("POST");
