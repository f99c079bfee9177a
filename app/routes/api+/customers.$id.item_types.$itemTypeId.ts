import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { deleteItemType, getItemType, updateItemType } from "~/modules/item-types/item-types.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/customers/{id}/item_types/{itemTypeId}: one item type of the customer. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return getItemType(context.db, user, idParam(params.id, "Customer id"), idParam(params.itemTypeId, "Item type id"));
  });
}

/** PUT changes it (the fields given replace its own); DELETE deletes it. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT", "DELETE");
    const { user } = await requireApiUser(context, request);
    const customerId = idParam(params.id, "Customer id");
    const id = idParam(params.itemTypeId, "Item type id");
    if (request.method === "DELETE") return deleteItemType(context.db, user, customerId, id);
    return updateItemType(context.db, user, customerId, id, await readBody(request));
  });
}
