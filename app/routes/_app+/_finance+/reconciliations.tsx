import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { ReconciliationsList } from "~/components/reconciliations/ReconciliationsList";
import { listPageAction, listPageLoader } from "~/modules/reconciliation/list-page.server";

export const meta: MetaFunction = () => [{ title: "Reconciliations · FreightDesk" }];

/** /reconciliations (spec 3 section 2 "Reconciliations list"). */
export const loader = ({ request, context }: LoaderFunctionArgs) => listPageLoader(context, request);
export const action = ({ request, context }: ActionFunctionArgs) => listPageAction(context, request);

export default ReconciliationsList;
