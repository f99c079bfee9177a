import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { listTickets } from "~/modules/enquiries/tickets.server";
import { api, readQueryObject } from "~/utils/http.server";

/** GET /api/tickets.json?consignment_id=&limit=&page=&status=&type=: enquiries the user may see, newest first. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return listTickets(context.db, user, readQueryObject(request));
  });
}
