import type { LoaderFunctionArgs } from "@remix-run/node";
import { authorize, requireApiUser } from "~/modules/auth/guard.server";
import { isAdmin } from "~/modules/auth/roles";
import { generatePassword } from "~/modules/users/generate-password";
import { api } from "~/utils/http.server";

/** GET /api/generate_password: { password } satisfying the password rule (the user screen's modal; staff). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    authorize(user, isAdmin);
    return Response.json({ password: generatePassword() }, { headers: { "Cache-Control": "no-store" } });
  });
}
