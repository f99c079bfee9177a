import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { mergeableConsignments } from "~/modules/consignments/merge.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";

/** POST /api/consignments/mergeable_consignments { id }: consignments that one could be merged into. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    return mergeableConsignments(context.db, user, await readBody(request));
  });
}

export const loader = methodNotAllowed("POST");
