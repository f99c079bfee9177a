import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireFinanceApi } from "~/modules/invoices/guard.server";
import { listPayable } from "~/modules/invoices/list.server";
import { startInvoicing } from "~/modules/invoicing/invoice.server";
import { api, assertMethod, readBody } from "~/utils/http.server";

/**
 * GET /api/invoices: payable invoices by carrier_id, customer_id, date (this_week, last_week,
 * fortnight, this_month, last_month, custom with from/to), state; with the state counters, totals
 * and per carrier the audit figures over every invoice the filters pick (decision 029).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireFinanceApi(context, request);
    const list = await listPayable(context.db, user, Object.fromEntries(new URL(request.url).searchParams));
    return { invoices: list.invoices, meta: { counts: list.counts, totals: list.totals, filters: list.filters, truncated: list.truncated, audit: list.audit } };
  });
}

/** POST /api/invoices { invoice_detail_ids }: { job_id } of the invoicing job (invoice admins). */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireFinanceApi(context, request, { admin: true });
    return startInvoicing(context.db, context.queue, user, await readBody(request));
  });
}
