import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { listComments } from "~/modules/enquiries/tickets.server";
import { api } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/tickets/{id}/comments.json: the enquiry's trail, oldest first. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return { comments: await listComments(context.db, user, idParam(params.id, "Enquiry id")) };
  });
}
