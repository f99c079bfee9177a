import type { ActionFunctionArgs } from "@remix-run/node";
import { requireFinanceApi } from "~/modules/invoices/guard.server";
import { bulkUpdate } from "~/modules/reconciliation/bulk.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";

export const loader = methodNotAllowed("PUT");

/** PUT /api/reconciliations/dispute { ids, note }: { action, done, refused, message, emails } (reconciliation admins). */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireFinanceApi(context, request, { admin: true });
    return bulkUpdate(context.db, user, "dispute", await readBody(request), { mailer: context.mailer });
  });
}
