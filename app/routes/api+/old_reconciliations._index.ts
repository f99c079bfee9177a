import type { ActionFunctionArgs } from "@remix-run/node";
import { requireFinanceApi } from "~/modules/invoices/guard.server";
import { runReport } from "~/modules/reconciliation/report.server";
import { readCsvUpload } from "~/utils/csv.server";
import { api, assertMethod, methodNotAllowed } from "~/utils/http.server";

export const loader = methodNotAllowed("POST");

/**
 * POST /api/old_reconciliations?threshold_amount&threshold_percentage[&rerate=true] (multipart
 * `file`, or a text/csv body): the reconciliation report (finance users; rerate admins only).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    // who may upload is decided before the body is read
    const { user } = await requireFinanceApi(context, request);
    return runReport(context.db, user, await readCsvUpload(request));
  });
}
