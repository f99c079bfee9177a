import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { createRule, listRules } from "~/modules/shipping-rules/shipping-rules.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/customers/{id}/shipping_rules: the customer's rules in their order (staff any customer; its admins their own). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return { shipping_rules: await listRules(context.db, user, idParam(params.id, "Customer id")) };
  });
}

/** POST /api/customers/{id}/shipping_rules: a new rule at the end of the list, 201; 422 per field. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    const created = await createRule(context.db, user, idParam(params.id, "Customer id"), await readBody(request));
    return Response.json(created, { status: 201 });
  });
}
