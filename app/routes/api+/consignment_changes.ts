import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { consignmentChangesOf } from "~/modules/consignments/audit.server";
import { api, readQuery } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/consignment_changes?id: the audit history of a consignment, newest first (admin, super admin, devs). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    const id = idParam(readQuery(request).get("id") ?? undefined, "Consignment id");
    return { changes: await consignmentChangesOf(context.db, user, id) };
  });
}
