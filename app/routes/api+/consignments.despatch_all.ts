import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { requestDespatch } from "~/modules/despatch/despatch.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";

/** PUT /api/consignments/despatch_all { ids }: despatches the selection in a background job; answers { job_id }. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireApiUser(context, request);
    return requestDespatch(context.db, context.queue, user, await readBody(request));
  });
}

export const loader = methodNotAllowed("PUT");
