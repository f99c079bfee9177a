import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { templateCsv } from "~/modules/bulk-upload/columns";
import { assertMayBulkUpload } from "~/modules/bulk-upload/mappings.server";
import { csvDownload } from "~/modules/item-types/import-export.server";
import { api } from "~/utils/http.server";

/** GET /api/bulk_upload_template: the bulk upload file's header and an example consignment of two lines. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    assertMayBulkUpload(user);
    return csvDownload(templateCsv(), "bulk_upload_template.csv");
  });
}
