import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requireApiUser } from "~/modules/auth/guard.server";
import { searchSurcharges } from "~/modules/rating/surcharges.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";
import { parseOrThrow } from "~/utils/validation";

/** POST /api/customers/{id}/surcharges/search: search the customer's surcharge sets {carrier_code?}. Staff only. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    const { id } = parseOrThrow(z.object({ id: z.coerce.number().int().positive("Customer id must be a positive number") }), params);
    return searchSurcharges(context.db, user, id, await readBody(request));
  });
}

export const loader = methodNotAllowed("POST");
