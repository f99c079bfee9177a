import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { importItemTypes } from "~/modules/item-types/import-export.server";
import { itemTypeCustomer } from "~/modules/item-types/item-types.server";
import { readCsvUpload } from "~/utils/csv.server";
import { api, assertMethod, methodNotAllowed } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

export const loader = methodNotAllowed("POST");

/** POST /api/customers/{id}/item_types/import (text/csv body, or a multipart file): { errors: [{ line, errors }], successes }. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    const customerId = idParam(params.id, "Customer id");
    // who may import is decided before the body is read
    await itemTypeCustomer(context.db, user, customerId, true);
    const { text } = await readCsvUpload(request);
    return importItemTypes(context.db, user, customerId, text);
  });
}
