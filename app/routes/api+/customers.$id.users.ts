import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { authorize, requireApiUser } from "~/modules/auth/guard.server";
import { isAdmin } from "~/modules/auth/roles";
import { userListQuery } from "~/modules/users/admin";
import { createUser, listUsers } from "~/modules/users/admin.server";
import { api, assertMethod, readBody, readQueryObject } from "~/utils/http.server";
import { idParam, parseOrThrow } from "~/utils/validation";

/** GET /api/customers/{id}/users?q: the customer's users, live and disabled (staff only). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    authorize(user, isAdmin);
    const query = parseOrThrow(userListQuery, readQueryObject(request));
    return { users: await listUsers(context.db, user, idParam(params.id, "Customer id"), query.q) };
  });
}

/** POST /api/customers/{id}/users { email, full_name, role?, site_ids?, site_id?, password, password_confirmation, flags... }: 201. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    authorize(user, isAdmin);
    return Response.json(await createUser(context.db, user, idParam(params.id, "Customer id"), await readBody(request)), { status: 201 });
  });
}
