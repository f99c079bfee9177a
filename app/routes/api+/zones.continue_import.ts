import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { continueZoneImport } from "~/modules/rating/zones.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";

/** POST /api/zones/continue_import {uuid, length}: checks the next lines; repeat until complete. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    return continueZoneImport(context.db, user, await readBody(request));
  });
}

export const loader = methodNotAllowed("POST");
