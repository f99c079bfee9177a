import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { authorize, requireApiUser } from "~/modules/auth/guard.server";
import { isAdmin } from "~/modules/auth/roles";
import { getUser, updateUser } from "~/modules/users/admin.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/customers/{id}/users/{userId}: one user of the customer; another customer's answers 404. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    authorize(user, isAdmin);
    return getUser(context.db, user, idParam(params.id, "Customer id"), idParam(params.userId, "User id"));
  });
}

/** PUT /api/customers/{id}/users/{userId}: the fields given replace the user's; disabled: true ends their sessions. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireApiUser(context, request);
    authorize(user, isAdmin);
    return updateUser(context.db, user, idParam(params.id, "Customer id"), idParam(params.userId, "User id"), await readBody(request));
  });
}
