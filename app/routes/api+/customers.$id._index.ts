import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { assertCustomerAdmin, getCustomerForAdmin, updateCustomerForAdmin } from "~/modules/customers/admin.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/customers/{id}: the customer with options, billing address, manifests count and sites. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    assertCustomerAdmin(user);
    return getCustomerForAdmin(context.db, user, idParam(params.id, "Customer id"));
  });
}

/** PUT /api/customers/{id}: the fields given replace the stored ones; going live (test_account false) is for super admins. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireApiUser(context, request);
    assertCustomerAdmin(user);
    const saved = await updateCustomerForAdmin(context.db, user, idParam(params.id, "Customer id"), await readBody(request));
    return { ...saved.customer, ...(saved.deleted ? { deleted: saved.deleted } : {}) };
  });
}
