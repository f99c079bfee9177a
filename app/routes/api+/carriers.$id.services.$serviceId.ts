import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { assertCarrierAdmin } from "~/modules/carriers/access.server";
import { deleteService, getService, updateService } from "~/modules/carriers/services.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/carriers/{id}/services/{serviceId}: one service of the carrier (another carrier's: 404). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return getService(context.db, user, idParam(params.id, "Carrier id"), idParam(params.serviceId, "Service id"));
  });
}

/** PUT: fields given replace the service's own (a new code renamed everywhere); DELETE: 409 while consignments or accounts use it. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT", "DELETE");
    const { user } = await requireApiUser(context, request);
    assertCarrierAdmin(user);
    const carrierId = idParam(params.id, "Carrier id");
    const id = idParam(params.serviceId, "Service id");
    if (request.method === "DELETE") return deleteService(context.db, user, carrierId, id);
    return updateService(context.db, user, carrierId, id, await readBody(request));
  });
}
