import type { ActionFunctionArgs } from "@remix-run/node";
import { requireFinanceApi } from "~/modules/invoices/guard.server";
import { rerunReconciliation } from "~/modules/reconciliation/rerate.server";
import { api, assertMethod, methodNotAllowed } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

export const loader = methodNotAllowed("POST");

/** POST /api/reconciliations/{id}/reconcile (Re Run, invoice admins): compared again and re-rated; 409 when reconciled. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireFinanceApi(context, request, { admin: true });
    return rerunReconciliation(context.db, user, idParam(params.id, "Reconciliation id"));
  });
}
