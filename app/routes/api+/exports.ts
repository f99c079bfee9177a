import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { requestExport } from "~/modules/exports/exports.server";
import { api, assertMethod, methodNotAllowed, readBody, readQueryObject } from "~/utils/http.server";

/** POST /api/exports?format=csv|xlsx&new_export= {site_code, from_date, to_date}: 202 { job_id } of the export job. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    const body = await readBody(request);
    const queued = await requestExport(context.queue, user, { ...body, ...readQueryObject(request) });
    return Response.json(queued, { status: 202 });
  });
}

export const loader = methodNotAllowed("POST");
