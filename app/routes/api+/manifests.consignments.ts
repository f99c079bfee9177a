import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { consignmentsOfManifests } from "~/modules/despatch/manifests.server";
import { api, readQueryObject } from "~/utils/http.server";

/** GET /api/manifests/consignments?ids=1,2: the consignments of those manifests (list columns, url). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return consignmentsOfManifests(context.db, user, readQueryObject(request));
  });
}
