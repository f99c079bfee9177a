import type { LoaderFunctionArgs } from "@remix-run/node";
import { searchLines } from "~/modules/invoices/details.server";
import { requireFinanceApi } from "~/modules/invoices/guard.server";
import { api } from "~/utils/http.server";

/**
 * GET /api/invoice_details: invoice detail search by invoice_id, state, accounting_type, page,
 * per_page, order_by, order_direction (scoped). meta_data=true answers only the counters.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireFinanceApi(context, request);
    const q = Object.fromEntries(new URL(request.url).searchParams);
    const found = await searchLines(context.db, user, q);
    if (q.meta_data === "true") return { meta: found.meta, pagination: found.pagination };
    return found;
  });
}
