import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { listBookingsOrThrow } from "~/modules/bookings/bookings.server";
import { api, readQueryObject } from "~/utils/http.server";

/** GET /api/bookings?from_date&to_date&site_id&sort&direction: the user's bookings in the range (at most 2 months), by booking date. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    const q = readQueryObject(request);
    // fromDate, toDate and siteId are the query's other spelling (spec 2 section 7)
    const list = await listBookingsOrThrow(context.db, user, { from_date: q.from_date ?? q.fromDate, to_date: q.to_date ?? q.toDate, site_id: q.site_id ?? q.siteId, sort: q.sort, direction: q.direction });
    return { bookings: list.bookings, filters: list.filters, truncated: list.truncated, message: list.message };
  });
}
