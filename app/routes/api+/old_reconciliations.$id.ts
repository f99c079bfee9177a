import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireFinanceApi } from "~/modules/invoices/guard.server";
import { reportResultFile } from "~/modules/reconciliation/report.server";
import { api } from "~/utils/http.server";
import { notFound } from "~/utils/errors";

/** GET /api/old_reconciliations/{id}: a reconciliation report's result CSV (its uploader and staff). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireFinanceApi(context, request);
    const id = Number(params.id);
    if (!Number.isSafeInteger(id) || id <= 0) throw notFound("Reconciliation report");
    return reportResultFile(context.db, user, id);
  });
}
