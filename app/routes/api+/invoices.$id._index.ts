import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { deleteInvoices, updateInvoice } from "~/modules/invoices/actions.server";
import { requireFinanceApi } from "~/modules/invoices/guard.server";
import { getInvoice } from "~/modules/invoices/list.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/invoices/{id}: one invoice with its line counters (scoped). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireFinanceApi(context, request);
    return getInvoice(context.db, user, idParam(params.id, "Invoice id"));
  });
}

/** PUT: invoice_number, invoice_date (dd/mm/yyyy), total. DELETE: with lines, costs and file; 409 once exported. Admin only. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT", "DELETE");
    const { user } = await requireFinanceApi(context, request, { admin: true });
    const id = idParam(params.id, "Invoice id");
    if (request.method === "DELETE") return deleteInvoices(context.db, user, { ids: [id] });
    return updateInvoice(context.db, user, id, await readBody(request));
  });
}
