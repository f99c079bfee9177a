import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { rebook } from "~/modules/bookings/book.server";
import { getBooking } from "~/modules/bookings/bookings.server";
import { api, assertMethod, readBody } from "~/utils/http.server";

/** GET /api/bookings/{id}: the booking with its consignments. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return getBooking(context.db, user, params.id ?? "");
  });
}

/** PUT /api/bookings/{id} { rebook: true }: books a failed booking again; answers { job_id, booking_ids, warnings }. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireApiUser(context, request);
    return rebook(context.db, context.queue, user, params.id ?? "", await readBody(request));
  });
}
