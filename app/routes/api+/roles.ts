import type { LoaderFunctionArgs } from "@remix-run/node";
import { authorize, requireApiUser } from "~/modules/auth/guard.server";
import { isAdmin } from "~/modules/auth/roles";
import { assignableRoles } from "~/modules/users/admin";
import { api } from "~/utils/http.server";

/** GET /api/roles: { roles } the caller may give a user (staff; only super admins may give super_admin and devs). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    authorize(user, isAdmin);
    return { roles: assignableRoles(user) };
  });
}
