import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { ConsignmentScreen } from "~/components/consignment/ConsignmentScreen";
import { quoteReference } from "~/modules/consignments/rules";
import { screenAction, screenLoader } from "~/modules/consignments/screen.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.consignment ? `Quote ${quoteReference(data.consignment.id)}` : "New quote"} · FreightDesk` }];

/** The quote screen: the consignment form as a quote (Save, Delete, Create Consignment). */
// functions, not module-level calls: the browser bundle keeps top-level calls, and screen.server is empty there
export function loader(args: LoaderFunctionArgs) {
  return screenLoader("quote")(args);
}
export function action(args: ActionFunctionArgs) {
  return screenAction("quote")(args);
}
export default ConsignmentScreen;
