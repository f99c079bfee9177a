import type { LoaderFunctionArgs } from "@remix-run/node";
import { originalFile } from "~/modules/invoices/files.server";
import { requireFinanceApi } from "~/modules/invoices/guard.server";
import { api } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/invoices/{id}/original_file: the imported file, scoped by financeScope. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireFinanceApi(context, request);
    return originalFile(context.db, user, idParam(params.id, "Invoice id"));
  });
}
