import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getRecipient, saveRecipient } from "~/modules/addresses/addresses.server";
import { requireApiUser } from "~/modules/auth/guard.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/addresses/{id}: an address-book entry of the working customer. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return getRecipient(context.db, user, idParam(params.id, "Address id"));
  });
}

/** PUT /api/addresses/{id}: edits it (can_edit_recipients). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireApiUser(context, request);
    return saveRecipient(context.db, user, idParam(params.id, "Address id"), await readBody(request));
  });
}
