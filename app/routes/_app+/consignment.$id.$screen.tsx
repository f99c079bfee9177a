import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ComingLater } from "~/components/ComingLater";
import { requireUser } from "~/modules/auth/guard.server";
import { plannedConsignmentPage } from "~/modules/consignments/planned-pages.server";
import { throwIfAccessError } from "~/utils/ui.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data ? `${data.title} ${data.number}` : "FreightDesk"} · FreightDesk` }];

/** A despatched consignment's Enquiries (a later release): says so, for a consignment the user may see. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireUser(context, request);
  // the address Tracking had before its screen landed
  if (params.screen === "tracking") throw redirect(`/tracking/${encodeURIComponent(params.id ?? "")}`);
  try {
    return await plannedConsignmentPage(context.db, user, params.id, params.screen);
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

export default function PlannedConsignmentScreen() {
  const page = useLoaderData<typeof loader>();
  return (
    <ComingLater title={page.title} release={page.release} back={{ to: `/consignment/${page.id}`, label: "Back to the consignment" }}>
      <p className="mt-2" data-testid="planned-consignment">
        Consignment <strong>{page.number}</strong>
      </p>
    </ComingLater>
  );
}
