import type { ActionFunctionArgs } from "@remix-run/node";
import { checkoutRates } from "~/modules/stores/checkout.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";

export const loader = methodNotAllowed("POST");

/**
 * POST /api/store/{external_id}/rates: an online store's checkout rates (Shopify's carrier
 * callback shape). Authenticated by the store's API key as a Bearer token, not by a user.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const rates = await checkoutRates(context.db, params.externalId ?? "", request.headers.get("authorization"), () => readBody(request));
    return Response.json(rates, { headers: { "Cache-Control": "no-store" } });
  });
}
