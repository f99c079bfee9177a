import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { deleteSurcharges } from "~/modules/rating/surcharges.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** POST /api/customers/{id}/surcharges/delete: delete surcharge sets {ids}. Staff only. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    const id = idParam(params.id, "Customer id");
    return deleteSurcharges(context.db, user, id, await readBody(request));
  });
}

export const loader = methodNotAllowed("POST");
