import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { ConsignmentScreen } from "~/components/consignment/ConsignmentScreen";
import { screenAction, screenLoader } from "~/modules/consignments/screen.server";

export const meta: MetaFunction = () => [{ title: "Third party quote · FreightDesk" }];

/** The Third party quote screen: the one consignment form as a thirdparty quote. */
export function loader(args: LoaderFunctionArgs) {
  return screenLoader("thirdparty_quote")(args);
}
export function action(args: ActionFunctionArgs) {
  return screenAction("thirdparty_quote")(args);
}
export default ConsignmentScreen;
