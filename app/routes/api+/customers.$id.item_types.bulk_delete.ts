import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { bulkDeleteItemTypes } from "~/modules/item-types/item-types.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

export const loader = methodNotAllowed("POST");

/** POST /api/customers/{id}/item_types/bulk_delete { bulk_item_types }: Delete Selected, all or none. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    return bulkDeleteItemTypes(context.db, user, idParam(params.id, "Customer id"), await readBody(request));
  });
}
