import type { ActionFunctionArgs } from "@remix-run/node";
import { requireFinanceApi } from "~/modules/invoices/guard.server";
import { testRun } from "~/modules/invoices/templates/test-run.server";
import { api, assertMethod, methodNotAllowed, readForm } from "~/utils/http.server";

/** POST /api/carrier_invoice_configs/test_run (multipart id, row_numbers, transform_ids, file): rows after each step. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireFinanceApi(context, request, { admin: true });
    const form = await readForm(request);
    const fields = { id: form.get("id"), row_numbers: form.get("row_numbers") ?? undefined, transform_ids: form.getAll("transform_ids").join(",") || undefined };
    return testRun(context.db, user, fields, form.get("file"));
  });
}

export const loader = methodNotAllowed("POST");
