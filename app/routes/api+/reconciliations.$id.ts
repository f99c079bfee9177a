import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireFinanceApi } from "~/modules/invoices/guard.server";
import { saveCosts } from "~/modules/reconciliation/costs.server";
import { getReconciliation, saveReconciliation } from "~/modules/reconciliation/detail.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/reconciliations/{id}: the reconciliation with its line, consignment, notes and re-rate (finance users, scoped). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireFinanceApi(context, request);
    return getReconciliation(context.db, user, idParam(params.id, "Reconciliation id"));
  });
}

/**
 * PUT /api/reconciliations/{id} (invoice admins): { version, note?, state?, charge_from_consignment? }
 * saves, accepts or previews; { version, costs, cost_note } saves the line's costs (the Invoice
 * Detail modal's reconciliation variant).
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireFinanceApi(context, request, { admin: true });
    const id = idParam(params.id, "Reconciliation id");
    const body = await readBody(request);
    if ("costs" in body) return saveCosts(context.db, user, id, body);
    return saveReconciliation(context.db, user, id, body);
  });
}
