import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { assertCarrierAdmin } from "~/modules/carriers/access.server";
import { deleteCarrier, getCarrier, updateCarrier } from "~/modules/carriers/admin.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/carriers/{id}: one carrier (staff). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return getCarrier(context.db, user, idParam(params.id, "Carrier id"));
  });
}

/**
 * PUT /api/carriers/{id}: fields given replace the carrier's own (a new code is renamed everywhere,
 * in one transaction); 400 per field. DELETE: 409 while carrier accounts or consignments use it.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT", "DELETE");
    const { user } = await requireApiUser(context, request);
    assertCarrierAdmin(user);
    const id = idParam(params.id, "Carrier id");
    if (request.method === "DELETE") return deleteCarrier(context.db, user, id);
    return updateCarrier(context.db, user, id, await readBody(request));
  });
}
