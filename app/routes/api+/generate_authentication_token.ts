import type { LoaderFunctionArgs } from "@remix-run/node";
import { authorize, requireApiUser } from "~/modules/auth/guard.server";
import { isSuperAdmin } from "~/modules/auth/roles";
import { newToken } from "~/modules/auth/tokens.server";
import { api } from "~/utils/http.server";

/** GET /api/generate_authentication_token: { authentication_token }, a random value to save on a user (super admins only). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    authorize(user, isSuperAdmin);
    return Response.json({ authentication_token: newToken() }, { headers: { "Cache-Control": "no-store" } });
  });
}
