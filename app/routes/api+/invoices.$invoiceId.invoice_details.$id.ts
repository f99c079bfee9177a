import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getLine, updateLine } from "~/modules/invoices/details.server";
import { requireFinanceApi } from "~/modules/invoices/guard.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/invoices/{invoice_id}/invoice_details/{id}: one line with its costs and its place in the invoice (scoped). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireFinanceApi(context, request);
    return getLine(context.db, user, idParam(params.invoiceId, "Invoice id"), idParam(params.id, "Invoice detail id"));
  });
}

/** PUT: the payable line's fields, customer, site and service ("unquoted"); admin only. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireFinanceApi(context, request, { admin: true });
    return updateLine(context.db, user, idParam(params.invoiceId, "Invoice id"), idParam(params.id, "Invoice detail id"), await readBody(request));
  });
}
