import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { initiateCancel } from "~/modules/despatch/cancel.server";
import { api, assertMethod, methodNotAllowed } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** PUT /api/consignments/{id}/initiate_cancel: asks the carrier to cancel; answers { result, message, state }. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireApiUser(context, request);
    return initiateCancel(context.db, context.mailer, user, idParam(params.id, "Consignment id"));
  });
}

export const loader = methodNotAllowed("PUT");
