import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { getReturn, saveReturn, superadminUpdateReturn } from "~/modules/consignments/returns.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/returns/{id}: a return or third-party pickup. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return getReturn(context.db, user, idParam(params.id, "Return id"));
  });
}

/** PUT /api/returns/{id}: update from the version read; with superadmin: true, a super admin's correction of return_info. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireApiUser(context, request);
    const id = idParam(params.id, "Return id");
    const body = await readBody(request);
    if (body.superadmin === true || body.superadmin === "true") return superadminUpdateReturn(context.db, user, id, body);
    return (await saveReturn(context.db, user, id, body)).consignment;
  });
}
