import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { deleteRule, getRule, updateRule } from "~/modules/shipping-rules/shipping-rules.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/customers/{id}/shipping_rules/{ruleId}: one rule of the customer. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return getRule(context.db, user, idParam(params.id, "Customer id"), idParam(params.ruleId, "Shipping rule id"));
  });
}

/** PUT changes it (the fields given replace its own); DELETE deletes it. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT", "DELETE");
    const { user } = await requireApiUser(context, request);
    const customerId = idParam(params.id, "Customer id");
    const id = idParam(params.ruleId, "Shipping rule id");
    if (request.method === "DELETE") return deleteRule(context.db, user, customerId, id);
    return updateRule(context.db, user, customerId, id, await readBody(request));
  });
}
