import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { newBookings } from "~/modules/bookings/bookings.server";
import { api, readQueryObject } from "~/utils/http.server";

/** GET /api/bookings/new?site_id&date: the site's consignments to book that day, by service, and the default pickup window. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    const q = readQueryObject(request);
    return newBookings(context.db, user, { site_id: q.site_id, date: q.date });
  });
}
