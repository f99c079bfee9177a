import type { ActionFunctionArgs } from "@remix-run/node";
import { requireFinanceApi } from "~/modules/invoices/guard.server";
import { reconcileInput, startReconciliation } from "~/modules/reconciliation/reconcile.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";
import { parseOrThrow } from "~/utils/validation";

export const loader = methodNotAllowed("PUT");

/** PUT /api/invoices/reconcile { invoice_ids, invoice_detail_ids? }: { job_id } (invoice admins). */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireFinanceApi(context, request, { admin: true });
    const input = parseOrThrow(reconcileInput, await readBody(request));
    return startReconciliation(context.db, context.queue, user, input);
  });
}
