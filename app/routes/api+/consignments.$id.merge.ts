import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { mergeConsignment } from "~/modules/consignments/merge.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** POST /api/consignments/{id}/merge { source_id }: merges the source into consignment {id}; answers the merged consignment. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    return mergeConsignment(context.db, user, idParam(params.id, "Consignment id"), await readBody(request));
  });
}

export const loader = methodNotAllowed("POST");
