import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { advancedSearch } from "~/modules/search/advanced.server";
import { AppError } from "~/utils/errors";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";

/** POST /api/consignments/advanced_search { query }: the advanced search's rows (at most 500) and { meta }. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    const { query } = await readBody(request);
    if (query != null && (typeof query !== "object" || Array.isArray(query))) throw new AppError("invalid", "Query must be an object", { query: ["Query must be an object"] });
    return advancedSearch(context.db, user, query ?? {});
  });
}

export const loader = methodNotAllowed("POST");
