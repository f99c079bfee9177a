import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireFinanceApi } from "~/modules/invoices/guard.server";
import { listPayable } from "~/modules/invoices/list.server";
import { api } from "~/utils/http.server";

/** GET /api/invoices/groups: the payable list's invoices grouped per carrier (same filters as /api/invoices). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireFinanceApi(context, request);
    const list = await listPayable(context.db, user, Object.fromEntries(new URL(request.url).searchParams));
    return { groups: list.groups, meta: { counts: list.counts, totals: list.totals, filters: list.filters } };
  });
}
