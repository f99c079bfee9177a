import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { requireFinanceUser } from "~/modules/invoices/guard.server";
import { startInvoiceImport } from "~/modules/invoices/import.server";
import { readForm } from "~/utils/http.server";
import { formErrorData, throwIfAccessErrorInResource } from "~/utils/ui.server";

/**
 * POST /invoices_payable/import: the Import dialog's form (works before JavaScript loads). Queues
 * the job and goes back to /invoices_payable?import_job=<jobId>, where the page shows progress.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireFinanceUser(context, request);
  const form = await readForm(request);
  try {
    const { job_id } = await startInvoiceImport(context.db, context.queue, user, { config_id: form.get("config_id") }, [...form.getAll("files[]"), ...form.getAll("files")]);
    return redirect(`/invoices_payable?import_job=${encodeURIComponent(job_id)}`);
  } catch (e) {
    // no component here: a refusal leaves as a plain 403, never as a logged server error
    throwIfAccessErrorInResource(request, e);
    return formErrorData(e, "The invoices could not be imported.", { config_id: String(form.get("config_id") ?? "") });
  }
}

export const loader = () => redirect("/invoices_payable");
