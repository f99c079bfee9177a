import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { trackTrace } from "~/modules/tracking/track-trace.server";
import { api } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/track_trace/{id}: the consignment's tracking events (newest first) and metadata; 404 unless the user may see it. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return trackTrace(context.db, user, idParam(params.id, "Consignment id"));
  });
}
