import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { allocateWithoutPrinting } from "~/modules/consignments/operations.server";
import { api, assertMethod, methodNotAllowed } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** PUT /api/consignments/{id}/allocate_without_printing: the consignment's number from its carrier account's range. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireApiUser(context, request);
    return allocateWithoutPrinting(context.db, user, idParam(params.id, "Consignment id"));
  });
}

export const loader = methodNotAllowed("PUT");
