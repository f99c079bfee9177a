import type { LoaderFunctionArgs } from "@remix-run/node";
import { originalFile } from "~/modules/invoices/files.server";
import { requireFinanceApi } from "~/modules/invoices/guard.server";
import { receivablePdf } from "~/modules/invoicing/pdf.server";
import { api } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/invoices/{id}/original_file: the imported carrier file (payable, staff only) or the invoice's PDF (receivable, its customer and staff). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireFinanceApi(context, request);
    const id = idParam(params.id, "Invoice id");
    return (await receivablePdf(context.db, user, id)) ?? originalFile(context.db, user, id);
  });
}
