import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { ConsignmentScreen } from "~/components/consignment/ConsignmentScreen";
import { requireUser } from "~/modules/auth/guard.server";
import { landingPath } from "~/modules/auth/roles";
import { screenAction, screenLoader } from "~/modules/consignments/screen.server";

export const meta: MetaFunction = () => [{ title: "New consignment · FreightDesk" }];

/** "/" is the new consignment screen; a FINANCE user lands on payable invoices instead. */
export async function loader(args: LoaderFunctionArgs) {
  const { user } = await requireUser(args.context, args.request);
  const landing = landingPath(user);
  if (landing !== "/") throw redirect(landing);
  return screenLoader("consignment")({ ...args, params: {} });
}

export async function action(args: ActionFunctionArgs) {
  return screenAction("consignment")({ ...args, params: {} });
}

export default ConsignmentScreen;
