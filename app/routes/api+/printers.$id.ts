import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { choosePrinter } from "~/modules/printing/printers.server";
import { api, assertMethod, methodNotAllowed } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** PUT /api/printers/{id}: the printer becomes the user's printer of its kind. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireApiUser(context, request);
    return choosePrinter(context.db, user, idParam(params.id, "Printer id"));
  });
}

export const loader = methodNotAllowed("PUT");
