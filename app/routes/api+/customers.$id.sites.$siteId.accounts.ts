import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { createAccountForAdmin, listAccountsForAdmin } from "~/modules/customers/accounts.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/customers/{id}/sites/{siteId}/accounts: the site's carrier accounts (team view). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return listAccountsForAdmin(context.db, user, idParam(params.id, "Customer id"), idParam(params.siteId, "Site id"));
  });
}

/** POST a new carrier account, 201; 422 "There was an error saving the Account." with field errors. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    const account = await createAccountForAdmin(context.db, user, idParam(params.id, "Customer id"), idParam(params.siteId, "Site id"), await readBody(request));
    return Response.json(account, { status: 201 });
  });
}
