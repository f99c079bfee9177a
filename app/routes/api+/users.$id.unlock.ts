import type { ActionFunctionArgs } from "@remix-run/node";
import { unlockUser } from "~/modules/auth/auth.server";
import { requireApiUser } from "~/modules/auth/guard.server";
import { api, assertMethod, methodNotAllowed } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** POST /api/users/{id}/unlock: an administrator ends a sign-in lock before its 15 minutes. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    await unlockUser(context.db, user, idParam(params.id, "User id"));
    return { status: "unlocked" };
  });
}

export const loader = methodNotAllowed("POST");
