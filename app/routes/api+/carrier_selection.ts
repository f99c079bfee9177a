import type { ActionFunctionArgs, AppLoadContext } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { rateConsignment } from "~/modules/rating/rating.server";
import { api, assertMethod, readBody, type CallRequest } from "~/utils/http.server";

/** POST /api/carrier_selection: the rate response of spec 1 section 3 for every service of the site. */
function rate(request: CallRequest, context: AppLoadContext) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user, since } = await requireApiUser(context, request);
    return rateConsignment(context.db, user, await readBody(request), since);
  });
}

/** A POST is answered below Remix by server/api-lane.ts (decision 046), with this same call. */
export const lane = { POST: rate };

export function action({ request, context }: ActionFunctionArgs) {
  return rate(request, context);
}

export function loader() {
  return Response.json({ errors: { base: ["Use POST to rate a consignment."] } }, { status: 405, headers: { Allow: "POST" } });
}
