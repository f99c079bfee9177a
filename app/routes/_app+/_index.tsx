import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { ComingLater } from "~/components/ComingLater";
import { requireUser } from "~/modules/auth/guard.server";
import { landingPath } from "~/modules/auth/roles";

export const meta: MetaFunction = () => [{ title: "New consignment · FreightDesk" }];

/** "/" is the consignment screen; a FINANCE user lands on payable invoices instead. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireUser(context, request);
  const landing = landingPath(user);
  if (landing !== "/") throw redirect(landing);
  return null;
}

export default function ConsignmentScreen() {
  return <ComingLater title="New consignment" release="consignment entry" />;
}
