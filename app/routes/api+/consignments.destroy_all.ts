import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { deleteConsignments } from "~/modules/consignments/delete.server";
import { api, assertMethod, methodNotAllowed, readBody, readQuery } from "~/utils/http.server";

/** POST /api/consignments/destroy_all?ids=1,2 (or { ids }): soft-deletes consignments that are not despatched. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    const ids = readQuery(request).get("ids");
    return deleteConsignments(context.db, user, ids ? { ids } : await readBody(request));
  });
}

export const loader = methodNotAllowed("POST");
