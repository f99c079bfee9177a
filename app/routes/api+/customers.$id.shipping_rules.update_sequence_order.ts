import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { updateSequenceOrder } from "~/modules/shipping-rules/shipping-rules.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

export const loader = methodNotAllowed("POST");

/** POST /api/customers/{id}/shipping_rules/update_sequence_order { ids }: the new order (drag to sort). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    return { shipping_rules: await updateSequenceOrder(context.db, user, idParam(params.id, "Customer id"), await readBody(request)) };
  });
}
