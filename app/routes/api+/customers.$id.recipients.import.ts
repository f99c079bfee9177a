import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { startRecipientsImport } from "~/modules/recipients/import-job.server";
import { api, assertMethod, methodNotAllowed } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/**
 * POST /api/customers/{id}/recipients/import: a csv or gz file (multipart `file`, or a text/csv or
 * application/gzip body) added to the address book by a background job; answers 202 { job_id },
 * whose GET /api/job_status/{job_id} ends with info { created, updated, skipped, skipped_total, total }.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    return Response.json(await startRecipientsImport(context.db, context.queue, user, idParam(params.id, "Customer id"), request), { status: 202 });
  });
}

export const loader = methodNotAllowed("POST");
