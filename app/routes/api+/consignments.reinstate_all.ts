import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { reinstateConsignments } from "~/modules/consignments/delete.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";

/** POST /api/consignments/reinstate_all { ids }: undoes a delete. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    return reinstateConsignments(context.db, user, await readBody(request));
  });
}

export const loader = methodNotAllowed("POST");
