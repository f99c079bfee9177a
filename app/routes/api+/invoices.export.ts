import type { ActionFunctionArgs } from "@remix-run/node";
import { exportInvoices, takeExportFile } from "~/modules/invoices/export.server";
import { requireFinanceApi } from "~/modules/invoices/guard.server";
import { api, assertMethod, readBody } from "~/utils/http.server";

/**
 * POST /api/invoices/export { ids, format: csv | xlsx | accounting }: csv and xlsx answer the
 * file; accounting answers the bills (payable) or sales (receivable) made and the invoices
 * skipped (unmapped carrier, refusal).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireFinanceApi(context, request, { admin: true });
    const out = await exportInvoices(context.db, user, await readBody(request));
    if (out.kind === "accounting") return { exported: out.exported, ..."bills" in out ? { bills: out.bills } : { sales: out.sales }, skipped: out.skipped, message: out.message };
    const file = await takeExportFile(context.db, out.file);
    if (!file) throw new Error("the export file was not written");
    return file;
  });
}
