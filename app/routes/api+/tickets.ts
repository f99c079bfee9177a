import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { createTicket } from "~/modules/enquiries/raise.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";

export const loader = methodNotAllowed("POST");

/** POST /api/tickets { full_name, email, phone?, subject, category_id? | support_request?, description?, consignment_id? }: a new enquiry, 201. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    return Response.json(await createTicket(context, user, await readBody(request)), { status: 201 });
  });
}
