import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import { requireFinanceUser } from "~/modules/invoices/guard.server";

/**
 * The finance screens (spec 3: payable, receivable, invoices, reconciliations, templates,
 * allocation rules). Checked here once for the area; each screen's loader and action still
 * authorise and scope through the invoices module, because Remix runs this loader beside theirs.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireFinanceUser(context, request);
  return null;
}

export default function FinanceLayout() {
  return <Outlet />;
}
