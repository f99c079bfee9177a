import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { searchConsignments } from "~/modules/search/search.server";
import { api, readQueryObject } from "~/utils/http.server";

/**
 * GET /api/consignments/search?query: the header search, at most 10 of the user's consignments whose
 * number, reference or receiver name starts with the query (case aside); none under 3 characters.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return searchConsignments(context.db, user, readQueryObject(request));
  });
}
