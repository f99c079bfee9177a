import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { ConsignmentScreen } from "~/components/consignment/ConsignmentScreen";
import { screenAction, screenLoader } from "~/modules/consignments/screen.server";

export const meta: MetaFunction = () => [{ title: "Return quote · FreightDesk" }];

/** The Return quote screen: the one consignment form as a return quote. */
export function loader(args: LoaderFunctionArgs) {
  return screenLoader("return_quote")(args);
}
export function action(args: ActionFunctionArgs) {
  return screenAction("return_quote")(args);
}
export default ConsignmentScreen;
