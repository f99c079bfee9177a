import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { createItemType, listItemTypes } from "~/modules/item-types/item-types.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/customers/{id}/item_types: the customer's item types in their order (staff any customer; others their own). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return { item_types: await listItemTypes(context.db, user, idParam(params.id, "Customer id")) };
  });
}

/** POST /api/customers/{id}/item_types: a new item type at the end of the list, 201; 422 per field. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    const created = await createItemType(context.db, user, idParam(params.id, "Customer id"), await readBody(request));
    return Response.json(created, { status: 201 });
  });
}
