import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { getConsignment, saveConsignment } from "~/modules/consignments/consignments.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/consignments/{id}: the consignment object, if it is the user's customer's and at one of the user's sites. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return getConsignment(context.db, user, idParam(params.id, "Consignment id"));
  });
}

/** PUT /api/consignments/{id}: updates it from the version the caller read (a stale version answers 409, error_code stale). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireApiUser(context, request);
    const { consignment } = await saveConsignment(context.db, user, idParam(params.id, "Consignment id"), await readBody(request));
    return consignment;
  });
}
