import type { ActionFunctionArgs } from "@remix-run/node";
import { authorize, requireApiUser } from "~/modules/auth/guard.server";
import { isAdmin } from "~/modules/auth/roles";
import { importDangerousGoodsCsv } from "~/modules/dangerous-goods/dangerous-goods.server";
import { readCsvUpload } from "~/utils/csv.server";
import { api, assertMethod, methodNotAllowed } from "~/utils/http.server";

/** POST /api/dangerous_goods_types/import (csv): adds or updates entries of the dangerous goods list; staff only. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    authorize(user, isAdmin);
    const { text } = await readCsvUpload(request);
    return importDangerousGoodsCsv(context.db, text);
  });
}

export const loader = methodNotAllowed("POST");
