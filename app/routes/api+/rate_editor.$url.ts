import type { ActionFunctionArgs } from "@remix-run/node";
import { authorize, requireApiUser } from "~/modules/auth/guard.server";
import { isAdmin } from "~/modules/auth/roles";
import { deleteRateCards, importRateCard } from "~/modules/rating/rate-cards.server";
import { readCsvUpload } from "~/utils/csv.server";
import { AppError } from "~/utils/errors";
import { api, assertMethod, methodNotAllowed, readBody, readQueryObject } from "~/utils/http.server";

/**
 * POST /api/rate_editor/import?filename= (csv file or body): imports a rate card, all or nothing.
 * POST /api/rate_editor/delete?filename= (or {carrier_code, service_code, rate_code}): deletes lanes.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    authorize(user, isAdmin);
    if (params.url === "import") {
      const { text, filename } = await readCsvUpload(request);
      return importRateCard(context.db, text, filename ?? `rates-${new Date().toISOString().slice(0, 10)}.csv`);
    }
    if (params.url === "delete") {
      const query = readQueryObject(request);
      return deleteRateCards(context.db, { ...query, ...(await readBody(request)) });
    }
    throw new AppError("not_found", `No rate editor call ${params.url}`);
  });
}

export const loader = methodNotAllowed("POST");
