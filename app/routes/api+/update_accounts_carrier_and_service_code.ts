import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { assertCarrierAdmin } from "~/modules/carriers/access.server";
import { renameCarrierAndServiceCode } from "~/modules/carriers/rename.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";

export const loader = methodNotAllowed("PUT");

/**
 * PUT /api/update_accounts_carrier_and_service_code/ (the spec's trailing slash, or none)
 * { carrier_code, new_carrier_code?, service_code?, new_service_code? }: renamed everywhere in one transaction.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireApiUser(context, request);
    assertCarrierAdmin(user);
    return renameCarrierAndServiceCode(context.db, user, await readBody(request));
  });
}
