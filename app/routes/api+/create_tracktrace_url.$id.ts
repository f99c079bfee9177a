import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { replaceTrackingLink, trackingLinkFor } from "~/modules/tracking/public-link.server";
import { api, assertMethod, linkBase } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/create_tracktrace_url/{id}: { url } of the consignment's public tracking page (409 while not offered). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return trackingLinkFor(context.db, user, idParam(params.id, "Consignment id"), linkBase(request));
  });
}

/** POST /api/create_tracktrace_url/{id}: a new link, { url }; the old one stops working. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    return replaceTrackingLink(context.db, user, idParam(params.id, "Consignment id"), linkBase(request));
  });
}
