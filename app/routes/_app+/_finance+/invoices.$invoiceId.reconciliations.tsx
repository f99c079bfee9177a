import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { ReconciliationsList } from "~/components/reconciliations/ReconciliationsList";
import { listPageAction, listPageLoader } from "~/modules/reconciliation/list-page.server";

export const meta: MetaFunction = () => [{ title: "Invoice reconciliations · FreightDesk" }];

/** /invoices/{invoice_id}/reconciliations: the list of one invoice's lines (spec 3 section 2). */
export const loader = ({ request, context, params }: LoaderFunctionArgs) => listPageLoader(context, request, params.invoiceId ?? "");
export const action = ({ request, context }: ActionFunctionArgs) => listPageAction(context, request);

export default ReconciliationsList;
