import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireFinanceApi } from "~/modules/invoices/guard.server";
import { reportTemplate } from "~/modules/reconciliation/report.server";
import { api } from "~/utils/http.server";

/** GET /api/reconciliations_template: the reconciliation report's CSV header and an example row (finance users). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    await requireFinanceApi(context, request);
    return reportTemplate();
  });
}
