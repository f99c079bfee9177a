import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { getAccountForAdmin, updateAccountForAdmin } from "~/modules/customers/accounts.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

const ids = (params: LoaderFunctionArgs["params"]) => [idParam(params.id, "Customer id"), idParam(params.siteId, "Site id"), idParam(params.accountId, "Account id")] as const;

/** GET /api/customers/{id}/sites/{siteId}/accounts/{accountId}: one account with remaining, notes and warnings. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return getAccountForAdmin(context.db, user, ...ids(params));
  });
}

/** PUT changes the account (the fields given); `notes_attributes: [{ text }]` adds notes. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireApiUser(context, request);
    return updateAccountForAdmin(context.db, user, ...ids(params), await readBody(request));
  });
}
