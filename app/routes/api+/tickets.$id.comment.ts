import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { addComment } from "~/modules/enquiries/raise.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

export const loader = methodNotAllowed("POST");

/** POST /api/tickets/{id}/comment { comment }: adds to the enquiry's trail, 201. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    return Response.json(await addComment(context, user, idParam(params.id, "Enquiry id"), await readBody(request)), { status: 201 });
  });
}
