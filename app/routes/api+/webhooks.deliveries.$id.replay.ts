import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { replayDelivery } from "~/modules/webhooks/deliveries.server";
import { api, assertMethod, methodNotAllowed } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

export const loader = methodNotAllowed("POST");

/** POST /api/webhooks/deliveries/{id}/replay: sends the delivery's event again (a new delivery, due now), 202. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    return Response.json(await replayDelivery(context.db, user, idParam(params.id, "Delivery id")), { status: 202 });
  });
}
