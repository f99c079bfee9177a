import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { assertCustomerAdmin, setSitesDespatchEnabled } from "~/modules/customers/admin.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** PUT /api/customers/{id}/update_sites_customer_despatch_enabled { despatch_enabled }: every site of the customer. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireApiUser(context, request);
    assertCustomerAdmin(user);
    return setSitesDespatchEnabled(context.db, user, idParam(params.id, "Customer id"), await readBody(request));
  });
}
