import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { canBulkRedespatch } from "~/modules/auth/roles";
import { bulkRedespatch } from "~/modules/bulk-upload/redespatch.server";
import { readCsvUpload } from "~/utils/csv.server";
import { forbidden } from "~/utils/errors";
import { api, assertMethod, methodNotAllowed } from "~/utils/http.server";

/**
 * POST /api/bulk_upload/redespatch (admins, super admins and devs): a csv of consignment numbers
 * whose despatch failed; answers { job_id, redespatched, skipped, skipped_total }.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    if (!canBulkRedespatch(user)) throw forbidden("Only admins may bulk redespatch.");
    const { text, filename } = await readCsvUpload(request);
    return bulkRedespatch(context.db, context.queue, user, text, filename);
  });
}

export const loader = methodNotAllowed("POST");
