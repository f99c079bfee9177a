import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { testRules } from "~/modules/shipping-rules/test.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

export const loader = methodNotAllowed("POST");

/** POST /api/customers/{id}/shipping_rules/test (a rating payload): { rule, selection, chosen, rates }; writes nothing. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    return testRules(context.db, user, idParam(params.id, "Customer id"), await readBody(request));
  });
}
