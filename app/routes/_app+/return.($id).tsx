import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { ConsignmentScreen } from "~/components/consignment/ConsignmentScreen";
import { screenAction, screenLoader } from "~/modules/consignments/screen.server";

export const meta: MetaFunction = () => [{ title: "Return · FreightDesk" }];

/** The Return screen: the one consignment form as a return. */
export function loader(args: LoaderFunctionArgs) {
  return screenLoader("return")(args);
}
export function action(args: ActionFunctionArgs) {
  return screenAction("return")(args);
}
export default ConsignmentScreen;
