import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { manifestCountsByCarrier, manifestsByIds } from "~/modules/despatch/manifests.server";
import { api, readQueryObject } from "~/utils/http.server";

/**
 * GET /api/manifests?ids=1,2: those manifests (spec 1 section 3 fields).
 * GET /api/manifests?fromDate&toDate&siteId: manifest count by carrier in the range.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    const query = readQueryObject(request);
    return "ids" in query ? manifestsByIds(context.db, user, query) : manifestCountsByCarrier(context.db, user, query);
  });
}
