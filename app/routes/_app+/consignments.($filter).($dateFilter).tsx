import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { ConsignmentList } from "~/components/consignment-list/ConsignmentList";
import { listAction, listLoader } from "~/modules/consignments/list-screen.server";

export const meta: MetaFunction = () => [{ title: "Consignments · FreightDesk" }];

/** /consignments/{filter?}/{dateFilter?}: the consignment lists (spec 1 section 2). */
// functions, not module-level calls: the browser bundle keeps top-level calls, and *.server is empty there
export function loader(args: LoaderFunctionArgs) {
  return listLoader(args);
}
export function action(args: ActionFunctionArgs) {
  return listAction(args);
}
export default ConsignmentList;
