import type { AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { currentUserWithItemTypes } from "~/modules/item-types/item-types.server";
import { api, type CallRequest } from "~/utils/http.server";

/** GET /api/users/current: the signed-in user (also while a password change is forced), with the customer's item types. */
function current(request: CallRequest, context: AppLoadContext) {
  return api(async () => {
    const { user, since } = await requireApiUser(context, request, { allowPasswordReset: true });
    return currentUserWithItemTypes(context.db, user, since);
  });
}

/** A GET is answered below Remix by server/api-lane.ts (decision 046), with this same call. */
export const lane = { GET: current };

export function loader({ request, context }: LoaderFunctionArgs) {
  return current(request, context);
}
