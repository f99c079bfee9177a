import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Alerts, type Alert } from "~/components/Alerts";
import { Breadcrumbs } from "~/components/Breadcrumbs";
import { requireStaff } from "~/modules/auth/guard.server";
import { localTime } from "~/modules/calendar/site-time";
import { MESSAGES, formatSize } from "~/modules/declarations/declarations";
import { listDeclarations } from "~/modules/declarations/declarations.server";
import { breadcrumbTrail } from "~/modules/shell/breadcrumbs.server";
import { customerForStaff } from "~/modules/tenancy/customers.server";
import { pageId } from "~/utils/ids";
import { throwIfAccessError } from "~/utils/ui.server";

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [{ title: `Declarations · ${d?.customer.name ?? ""} · FreightDesk` }];

/** /customers/{customerId}/index_declarations: the customer's declarations (staff). `?done=deleted` after a delete. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireStaff(context, request);
  try {
    const customerId = pageId(params.customerId);
    const customer = await customerForStaff(context.db, user, customerId);
    const rows = (await listDeclarations(context.db, user, customerId)).map((d) => ({
      ...d,
      uploaded_at: localTime(new Date(d.created_at), user.clock.timeZone, user.clock.dateFormat),
    }));
    const alerts: Alert[] = new URL(request.url).searchParams.get("done") === "deleted" ? [{ type: "success", message: MESSAGES.deleted }] : [];
    const crumbs = await breadcrumbTrail(context.db, user, { model: "declaration", parent: "customer", parent_id: customerId });
    return { customer: { id: customer.id, name: customer.name, printDeclarations: customer.printDeclarations }, rows, alerts, crumbs };
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

export default function Declarations() {
  const { customer, rows, alerts, crumbs } = useLoaderData<typeof loader>();
  const base = `/customers/${customer.id}`;
  return (
    <div className="max-w-5xl space-y-4">
      <Breadcrumbs crumbs={crumbs} />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">Declarations of {customer.name}</h1>
        <Link to={`${base}/declarations`} className="btn-primary">
          New
        </Link>
      </div>
      <Alerts alerts={alerts} />
      <p className="text-sm text-slate-700" data-testid="print-declarations">
        {customer.printDeclarations
          ? "Printed after the dangerous goods document: those of the item types the dangerous goods travel in, and those for every item type."
          : "Not printed with the dangerous goods document: the customer's Print declarations option is off."}
      </p>
      {rows.length === 0 ? (
        <p>This customer has no declarations yet.</p>
      ) : (
        <table className="table w-full" aria-label="Declarations">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Item type</th>
              <th scope="col">File</th>
              <th scope="col">Size</th>
              <th scope="col">Uploaded by</th>
              <th scope="col">Uploaded at</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((d) => (
              <tr key={d.id}>
                <td>
                  <Link to={`${base}/declarations/${d.id}`} className="link">
                    {d.name}
                  </Link>
                </td>
                <td>{d.item_type_name ?? "Every item type"}</td>
                <td>
                  <a href={d.file_url} className="link" download={d.filename}>
                    {d.filename}
                  </a>
                </td>
                <td>{formatSize(d.size)}</td>
                <td>{d.created_by_name ?? ""}</td>
                <td>{d.uploaded_at}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
