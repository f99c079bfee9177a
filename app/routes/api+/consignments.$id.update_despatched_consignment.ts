import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { updateChargeAccount } from "~/modules/consignments/operations.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** PUT /api/consignments/{id}/update_despatched_consignment: the charge account of a failed despatch (admin or super admin). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireApiUser(context, request);
    return updateChargeAccount(context.db, user, idParam(params.id, "Consignment id"), await readBody(request));
  });
}

export const loader = methodNotAllowed("PUT");
