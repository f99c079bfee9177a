import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { ConsignmentScreen } from "~/components/consignment/ConsignmentScreen";
import { screenAction, screenLoader } from "~/modules/consignments/screen.server";

export const meta: MetaFunction = () => [{ title: "Third Party Pickup · FreightDesk" }];

/** The Third Party Pickup screen: the one consignment form as a thirdparty. */
export function loader(args: LoaderFunctionArgs) {
  return screenLoader("thirdparty")(args);
}
export function action(args: ActionFunctionArgs) {
  return screenAction("thirdparty")(args);
}
export default ConsignmentScreen;
