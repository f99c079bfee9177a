import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { saveReturn } from "~/modules/consignments/returns.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";

/** POST /api/returns: creates a return (return_type return) or third-party pickup (third_party), with return_info. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    const { consignment } = await saveReturn(context.db, user, null, await readBody(request));
    return Response.json(consignment, { status: 201 });
  });
}

export const loader = methodNotAllowed("POST");
