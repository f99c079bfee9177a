import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { assertMayBulkUpload } from "~/modules/bulk-upload/mappings.server";
import { bulkUploadTemplate } from "~/modules/bulk-upload/template.server";
import { csvDownload } from "~/modules/item-types/import-export.server";
import { api } from "~/utils/http.server";

/** GET /api/bulk_upload_template: the bulk upload file's header and an example consignment per kind of service, which upload as they are. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    assertMayBulkUpload(user);
    return csvDownload(await bulkUploadTemplate(context.db, user), "bulk_upload_template.csv");
  });
}
