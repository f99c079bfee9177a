import type { ActionFunctionArgs } from "@remix-run/node";
import { deleteRule, saveRule } from "~/modules/allocation/rules.server";
import { requireFinanceApi } from "~/modules/invoices/guard.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

export const loader = methodNotAllowed("PUT", "DELETE");

/** PUT /api/allocation_rules/{id}: change a rule; DELETE: soft delete (invoice admins). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT", "DELETE");
    const { user } = await requireFinanceApi(context, request, { admin: true });
    const id = idParam(params.id, "Allocation rule id");
    if (request.method === "DELETE") return deleteRule(context.db, user, id);
    return saveRule(context.db, user, id, await readBody(request));
  });
}
