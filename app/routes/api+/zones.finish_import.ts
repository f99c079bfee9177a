import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { finishZoneImport } from "~/modules/rating/zones.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";

/** POST /api/zones/finish_import {uuid}: applies the import in one transaction; lists created, changed, deleted, invalid. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    return finishZoneImport(context.db, user, await readBody(request));
  });
}

export const loader = methodNotAllowed("POST");
