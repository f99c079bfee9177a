import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { customerListQuery } from "~/modules/customers/admin";
import { assertCustomerAdmin, createCustomerForAdmin } from "~/modules/customers/admin.server";
import { listCustomersForAdmin } from "~/modules/customers/list.server";
import { api, assertMethod, readBody, readQueryObject } from "~/utils/http.server";
import { parseOrThrow } from "~/utils/validation";

/** GET /api/customers?q&status: every matching customer with its status (team view). GET /api/customers/list stays the switcher's. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    assertCustomerAdmin(user);
    const query = parseOrThrow(customerListQuery, readQueryObject(request));
    return listCustomersForAdmin(context.db, user, query);
  });
}

/** POST /api/customers: a new customer (customer service too), 201; 422 per field. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    assertCustomerAdmin(user);
    return Response.json(await createCustomerForAdmin(context.db, user, await readBody(request)), { status: 201 });
  });
}
