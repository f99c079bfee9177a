import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { ConsignmentScreen } from "~/components/consignment/ConsignmentScreen";
import { screenAction, screenLoader } from "~/modules/consignments/screen.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.consignment ? `Consignment ${data.consignment.consignment_number ?? "Pending"}` : "New consignment"} · FreightDesk` },
];

/** The consignment screen: new at / and /consignment, existing at /consignment/{id}. */
// functions, not module-level calls: the browser bundle keeps top-level calls, and screen.server is empty there
export function loader(args: LoaderFunctionArgs) {
  return screenLoader("consignment")(args);
}
export function action(args: ActionFunctionArgs) {
  return screenAction("consignment")(args);
}
export default ConsignmentScreen;
