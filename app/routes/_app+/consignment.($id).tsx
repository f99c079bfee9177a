import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
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

/** An unknown consignment: the loader's warning ('No consignment found') with a way back to the list; other errors as elsewhere. */
export function ErrorBoundary() {
  const error = useRouteError();
  const body = isRouteErrorResponse(error) ? (error.data as { message?: string; type?: string } | null) : null;
  const warning = body?.type === "warning";
  const message = body?.message ?? "Something went wrong. Please try again; if it keeps happening, contact tech support.";
  return (
    <main className="mx-auto max-w-xl p-8">
      <p role="alert" data-alert-type={warning ? "warning" : "error"} className={`rounded border px-3 py-2 text-sm ${warning ? "border-amber-300 bg-amber-50 text-amber-900" : "border-red-300 bg-red-50 text-red-900"}`}>
        {message}
      </p>
      <Link to="/consignments" className="btn mt-4">
        Go to consignments
      </Link>
    </main>
  );
}
