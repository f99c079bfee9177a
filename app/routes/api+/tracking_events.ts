import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { postTrackingEvents } from "~/modules/tracking/post.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";

/** POST /api/tracking_events { events: [...] }: carriers' events by consignment number; answers each event's outcome. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    return postTrackingEvents(context.db, user, await readBody(request), context.queue);
  });
}

export const loader = methodNotAllowed("POST");
