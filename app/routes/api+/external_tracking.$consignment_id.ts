import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { externalTracking } from "~/modules/tracking/track-trace.server";
import { api } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/external_tracking/{consignment_id}: { url } of the carrier's own tracking page for it (404 when the carrier has none). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return externalTracking(context.db, user, idParam(params.consignment_id, "Consignment id"));
  });
}
