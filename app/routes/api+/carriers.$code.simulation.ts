import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { setSimulation } from "~/modules/carriers/simulation.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";

/** PUT /api/carriers/{code}/simulation { fail_despatch?, delay_ms?, cancel_result?, reject_message?, journey_minutes?, fail_delivery?, fail_booking?, fail_booking_permanently? }: super admins steer the simulated carrier. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireApiUser(context, request);
    return setSimulation(context.db, user, params.code ?? "", await readBody(request));
  });
}

export const loader = methodNotAllowed("PUT");
