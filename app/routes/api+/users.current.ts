import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { currentUserWithItemTypes } from "~/modules/item-types/item-types.server";
import { api } from "~/utils/http.server";

/** GET /api/users/current: the signed-in user (also while a password change is forced), with the customer's item types. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user, since } = await requireApiUser(context, request, { allowPasswordReset: true });
    return currentUserWithItemTypes(context.db, user, since);
  });
}
