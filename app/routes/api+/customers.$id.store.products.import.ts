import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { importStoreProducts } from "~/modules/stores/products-import.server";
import { requireCustomerStore } from "~/modules/stores/stores.server";
import { readCsvUpload } from "~/utils/csv.server";
import { api, assertMethod, methodNotAllowed } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

export const loader = methodNotAllowed("POST");

/** POST /api/customers/{id}/store/products/import (multipart `file` or a text/csv body): { created, updated, skipped: [{ line, errors }], skipped_total }. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    const customerId = idParam(params.id, "Customer id");
    // who may import, and into which store, is decided before the body is read
    await requireCustomerStore(context.db, user, customerId);
    const { text } = await readCsvUpload(request);
    return importStoreProducts(context.db, user, customerId, text);
  });
}
