import type { ActionFunctionArgs } from "@remix-run/node";
import { authorize, requireApiUser } from "~/modules/auth/guard.server";
import { isAdmin } from "~/modules/auth/roles";
import { importUsers, readUserUpload } from "~/modules/users/import.server";
import { api, assertMethod, methodNotAllowed } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/**
 * POST /api/customers/{id}/users/create_bulk (multipart `file`, csv or gz): creates a user per good
 * row; answers { created, updated, skipped: [{ line, errors }] (first 100), skipped_total }.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    // who may ask comes before reading what they sent
    authorize(user, isAdmin);
    const customerId = idParam(params.id, "Customer id");
    return importUsers(context.db, user, customerId, await readUserUpload(request));
  });
}

export const loader = methodNotAllowed("POST");
