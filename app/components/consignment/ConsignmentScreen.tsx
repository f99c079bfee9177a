import { useActionData, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import type { ScreenData, ScreenOutcome } from "~/modules/consignments/screen.server";
import type { AccessSubject } from "~/modules/auth/roles";
import { ConsignmentEnquiries } from "../enquiries/ConsignmentEnquiries";
import { ConsignmentForm } from "./ConsignmentForm";

/** The route component every variant's screen uses: the loader's data, the last post's outcome, the signed-in user. */
export function ConsignmentScreen() {
  const data = useLoaderData() as ScreenData;
  const outcome = useActionData() as ScreenOutcome | undefined;
  const layout = useRouteLoaderData("routes/_app+/_layout") as { user: AccessSubject } | undefined;
  // a new key after each post re-seeds the form from what the server answered
  return (
    <>
      <ConsignmentForm key={`${data.variant}-${data.consignment?.id ?? "new"}-${data.consignment?.version ?? 0}-${outcome ? JSON.stringify(outcome.values).length : 0}`} data={data} outcome={outcome} user={layout!.user} />
      <ConsignmentEnquiries consignment={data.consignment} />
    </>
  );
}
