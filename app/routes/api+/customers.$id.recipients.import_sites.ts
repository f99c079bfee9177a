import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { importSitesAsRecipients } from "~/modules/recipients/recipients.server";
import { api, assertMethod, methodNotAllowed } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** POST /api/customers/{id}/recipients/import_sites: the customer's sites copied as recipients (global recipients only). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    return importSitesAsRecipients(context.db, user, idParam(params.id, "Customer id"));
  });
}

export const loader = methodNotAllowed("POST");
