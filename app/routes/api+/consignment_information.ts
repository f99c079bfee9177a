import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { consignmentInformation } from "~/modules/consignments/information.server";
import { api, readQuery } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/consignment_information?id: the field/value table, site, documents and editable fields (admin, super admin, devs). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    const id = idParam(readQuery(request).get("id") ?? undefined, "Consignment id");
    return consignmentInformation(context.db, user, id);
  });
}
