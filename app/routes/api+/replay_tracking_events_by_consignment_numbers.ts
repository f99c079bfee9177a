import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { requestReplay } from "~/modules/tracking/replay.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";

/** POST /api/replay_tracking_events_by_consignment_numbers { consignmentNumbers } or { carrier, fromDate, toDate }: a replay job; answers { job_id, consignments, not_found }. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    return requestReplay(context.db, context.queue, user, await readBody(request));
  });
}

export const loader = methodNotAllowed("POST");
