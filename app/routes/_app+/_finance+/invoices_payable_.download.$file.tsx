import type { LoaderFunctionArgs } from "@remix-run/node";
import { authorize } from "~/modules/auth/guard.server";
import { canAdministerInvoices } from "~/modules/invoices/access";
import { takeExportFile } from "~/modules/invoices/export.server";
import { requireFinanceUser } from "~/modules/invoices/guard.server";
import { throwIfAccessErrorInResource } from "~/utils/ui.server";

/** The file an Export on /invoices_payable wrote (the action did the export): downloaded once. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireFinanceUser(context, request);
  try {
    authorize(user, canAdministerInvoices);
  } catch (e) {
    throwIfAccessErrorInResource(request, e);
  }
  const file = await takeExportFile(context.db, params.file ?? "");
  if (!file) throw new Response("This export has already been downloaded or has expired.", { status: 404 });
  return file;
}
