import type { LoaderFunctionArgs } from "@remix-run/node";
import { currentUserJson } from "~/modules/auth/current-user.server";
import { requireApiUser } from "~/modules/auth/guard.server";
import { api } from "~/utils/http.server";

/** GET /api/users/current: the signed-in user (also while a password change is forced). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request, { allowPasswordReset: true });
    return currentUserJson(user);
  });
}
