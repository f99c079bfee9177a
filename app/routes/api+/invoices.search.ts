import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireFinanceApi } from "~/modules/invoices/guard.server";
import { searchInvoices } from "~/modules/invoices/search.server";
import { api } from "~/utils/http.server";

/** GET /api/invoices/search?query=: at most 10 invoices by number, line reference or consignment number (3 characters or more). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireFinanceApi(context, request);
    return { invoices: await searchInvoices(context.db, user, Object.fromEntries(new URL(request.url).searchParams)) };
  });
}
