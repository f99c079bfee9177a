import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { assertStatusKeeper, changeStatus } from "~/modules/enquiries/raise.server";
import { getTicket } from "~/modules/enquiries/tickets.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/tickets/{id}: one enquiry the user may see. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return getTicket(context.db, user, idParam(params.id, "Enquiry id"));
  });
}

/** PUT /api/tickets/{id} { status }: customer service moves it open, pending or solved. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireApiUser(context, request);
    // who may ask comes before what they asked
    assertStatusKeeper(user);
    return changeStatus(context.db, user, idParam(params.id, "Enquiry id"), await readBody(request));
  });
}
