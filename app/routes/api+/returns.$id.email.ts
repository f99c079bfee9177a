import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { emailReturnDocuments } from "~/modules/despatch/return-email.server";
import { api, assertMethod, methodNotAllowed } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** POST /api/returns/{id}/email: sends the labels and manifest of a despatched return again; answers { message }. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    return emailReturnDocuments(context, user, idParam(params.id, "Return id"));
  });
}

export const loader = methodNotAllowed("POST");
