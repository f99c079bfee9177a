import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { promoteQuote } from "~/modules/consignments/operations.server";
import { api, assertMethod, methodNotAllowed } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** PUT /api/promote_quote_to_consignment/{id}: a valid quote becomes a consignment (or return); answers it. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireApiUser(context, request);
    return promoteQuote(context.db, user, idParam(params.id, "Quote id"));
  });
}

export const loader = methodNotAllowed("PUT");
