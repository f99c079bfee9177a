import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { readyForPrint } from "~/modules/despatch/manifests.server";
import { api } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/manifests/{id}/ready_for_print: { status, ready }, polled every second before printing. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return readyForPrint(context.db, user, idParam(params.id, "Manifest id"));
  });
}
