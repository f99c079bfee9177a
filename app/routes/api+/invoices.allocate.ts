import type { ActionFunctionArgs } from "@remix-run/node";
import { allocateInput, startAllocation } from "~/modules/allocation/allocate.server";
import { requireFinanceApi } from "~/modules/invoices/guard.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";
import { parseOrThrow } from "~/utils/validation";

export const loader = methodNotAllowed("PUT");

/** PUT /api/invoices/allocate { invoice_ids, invoice_detail_ids? }: { job_id } (invoice admins). */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireFinanceApi(context, request, { admin: true });
    const input = parseOrThrow(allocateInput, await readBody(request));
    return startAllocation(context.db, context.queue, user, input);
  });
}
