import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { assertCarrierAdmin } from "~/modules/carriers/access.server";
import { updateServicesPayOnArrival } from "~/modules/carriers/admin.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

export const loader = methodNotAllowed("PUT");

/** PUT /api/carriers/{id}/update_services { pay_on_arrival }: every service of the carrier "No Rates Provided", or none. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireApiUser(context, request);
    assertCarrierAdmin(user);
    return updateServicesPayOnArrival(context.db, user, idParam(params.id, "Carrier id"), await readBody(request));
  });
}
