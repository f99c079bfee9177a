import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { allocateInput, startAllocation } from "~/modules/allocation/allocate.server";
import { requireFinanceUser } from "~/modules/invoices/guard.server";
import { AppError } from "~/utils/errors";
import { readPageForm } from "~/utils/http.server";
import { safeRedirectPath, throwIfAccessErrorInResource } from "~/utils/ui.server";
import { parseOrThrow } from "~/utils/validation";

/** Nothing to show: a GET goes to the payable invoices. */
export const loader = () => redirect("/invoices_payable");

/**
 * POST /invoices/allocate (the payable and invoice pages' Allocate, before JavaScript loads too):
 * invoice_ids (repeated) or invoice_detail_ids, and redirectTo, a local path. Goes back there with
 * ?allocation_job=<id>, or ?allocation_error=<message> when nothing could be queued.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireFinanceUser(context, request);
  const form = await readPageForm(request);
  const to = new URL(safeRedirectPath(form.get("redirectTo"), "/invoices_payable"), "http://local");
  try {
    const input = parseOrThrow(allocateInput, { invoice_ids: form.getAll("invoice_ids").filter(Boolean), invoice_detail_ids: form.getAll("invoice_detail_ids").filter(Boolean) });
    const { job_id } = await startAllocation(context.db, context.queue, user, input);
    to.searchParams.set("allocation_job", job_id);
  } catch (e) {
    // no component here: a refusal leaves as a plain 403, never as a logged server error
    throwIfAccessErrorInResource(request, e);
    if (!(e instanceof AppError)) throw e;
    to.searchParams.set("allocation_error", Object.values(e.fieldErrors)[0]?.[0] ?? e.message);
  }
  return redirect(`${to.pathname}${to.search}${to.hash}`);
}
