import type { ActionFunctionArgs } from "@remix-run/node";
import { authorize, requireApiUser } from "~/modules/auth/guard.server";
import { isAdmin } from "~/modules/auth/roles";
import { importLocalitiesCsv } from "~/modules/localities/localities.server";
import { readCsvUpload } from "~/utils/csv.server";
import { api, assertMethod, methodNotAllowed } from "~/utils/http.server";

/** POST /api/localities/import (csv): adds or updates localities of any country; staff only. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    authorize(user, isAdmin);
    const { text } = await readCsvUpload(request);
    return importLocalitiesCsv(context.db, text);
  });
}

export const loader = methodNotAllowed("POST");
