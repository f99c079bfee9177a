import type { ActionFunctionArgs } from "@remix-run/node";
import { requireFinanceApi } from "~/modules/invoices/guard.server";
import { startInvoiceImport } from "~/modules/invoices/import.server";
import { api, assertMethod, methodNotAllowed, readForm } from "~/utils/http.server";

/** POST /api/invoices/import (multipart config_id, files[]): one job per upload; answers { job_id }. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireFinanceApi(context, request, { admin: true });
    const form = await readForm(request);
    return startInvoiceImport(context.db, context.queue, user, { config_id: form.get("config_id") }, [...form.getAll("files[]"), ...form.getAll("files")]);
  });
}

export const loader = methodNotAllowed("POST");
