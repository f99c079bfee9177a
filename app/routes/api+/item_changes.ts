import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { itemChangesOf } from "~/modules/consignments/information.server";
import { api, readQuery } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/item_changes?id: the item audit history of a consignment, newest first (admin, super admin, devs). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    const id = idParam(readQuery(request).get("id") ?? undefined, "Consignment id");
    return { changes: await itemChangesOf(context.db, user, id) };
  });
}
