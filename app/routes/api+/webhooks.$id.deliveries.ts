import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { listDeliveries } from "~/modules/webhooks/deliveries.server";
import { api, methodNotAllowed, readQueryObject } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/webhooks/{id}/deliveries?page: the endpoint's deliveries, newest first, each with its attempts. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return listDeliveries(context.db, user, idParam(params.id, "Webhook id"), readQueryObject(request));
  });
}

/** The log is read only: replay is POST /api/webhooks/deliveries/{id}/replay. */
export const action = methodNotAllowed("GET");
