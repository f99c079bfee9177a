import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { podForUser } from "~/modules/tracking/pod.server";
import { api } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/pod/{eventId}: a drawn proof of delivery (SVG) of a consignment the user may see. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    const svg = await podForUser(context.db, user, idParam(params.id, "Event id"));
    return new Response(svg, {
      headers: {
        "content-type": "image/svg+xml; charset=utf-8",
        "cache-control": "private, max-age=3600",
        // an image, never a page: nothing in it may run or load
        "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
        "x-content-type-options": "nosniff",
      },
    });
  });
}
