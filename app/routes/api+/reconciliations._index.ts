import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireFinanceApi } from "~/modules/invoices/guard.server";
import { listMeta, listQueryOf, listReconciliations } from "~/modules/reconciliation/list.server";
import { api } from "~/utils/http.server";

/**
 * GET /api/reconciliations: state (tab), per_page, page, invoice_id, reasons, carrier_code,
 * customer_id, the column filters, order_by, order_direction (scoped to the caller's customer for
 * a customer's finance user). meta_data=true answers the tabs' counts and the tab's totals.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireFinanceApi(context, request);
    const q = listQueryOf(new URL(request.url).searchParams);
    if (q.meta_data === "true") return listMeta(context.db, user, q);
    return listReconciliations(context.db, user, q);
  });
}
