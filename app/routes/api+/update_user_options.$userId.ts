import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { updateUserOptions } from "~/modules/users/options.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** PUT /api/update_user_options/{userId} `{ options }`: answers the user's saved options. */
export async function action({ request, context, params: raw }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireApiUser(context, request);
    const userId = idParam(raw.userId, "User id");
    return { user_options: await updateUserOptions(context.db, user, userId, await readBody(request)) };
  });
}

export function loader() {
  return Response.json({ errors: { base: ["Use PUT to update user options."] } }, { status: 405, headers: { Allow: "PUT" } });
}
