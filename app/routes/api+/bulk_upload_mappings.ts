import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { bulkUploadMappings } from "~/modules/bulk-upload/mappings.server";
import { api, readQueryObject } from "~/utils/http.server";

/** GET /api/bulk_upload_mappings[?type=services]: { mappings } (columns and their aliases) or { services } (codes the user may name). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return bulkUploadMappings(context.db, user, readQueryObject(request));
  });
}
