import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { assertMaySave, startZoneImport } from "~/modules/rating/zones.server";
import { readCsvUpload } from "~/utils/csv.server";
import { api, assertMethod, methodNotAllowed } from "~/utils/http.server";

/** POST /api/zones/import (file, carrier_code, customer_code, site_code, service_code): step 1 of 3. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    // refused before a byte of the file is read
    assertMaySave(user);
    const { text, fields } = await readCsvUpload(request);
    return startZoneImport(context.db, user, fields, text);
  });
}

export const loader = methodNotAllowed("POST");
