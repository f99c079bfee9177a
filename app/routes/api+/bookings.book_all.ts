import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { requestBookings } from "~/modules/bookings/book.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";

/** PUT /api/bookings/book_all { bookings: [...] }: checks and records the bookings, answers { job_id, booking_ids, warnings }. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireApiUser(context, request);
    return requestBookings(context.db, context.queue, user, await readBody(request));
  });
}

export const loader = methodNotAllowed("PUT");
