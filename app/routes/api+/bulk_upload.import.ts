import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { assertMayBulkUpload } from "~/modules/bulk-upload/mappings.server";
import { startBulkUpload } from "~/modules/bulk-upload/upload.server";
import { readCsvUpload } from "~/utils/csv.server";
import { api, assertMethod, methodNotAllowed } from "~/utils/http.server";

/**
 * POST /api/bulk_upload/import: a csv file (multipart `file` and `type`, or a text/csv body with
 * ?type=) of consignments or quotes; answers { job_id, bulk_upload_id, duplicate }. Progress and
 * the result (created, skipped lines) come from GET /api/job_status/{job_id}.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    // who may upload is settled before the file is read
    assertMayBulkUpload(user);
    const { text, filename, fields } = await readCsvUpload(request);
    return startBulkUpload(context.db, context.queue, user, { type: fields.type, text, fileName: filename });
  });
}

export const loader = methodNotAllowed("POST");
