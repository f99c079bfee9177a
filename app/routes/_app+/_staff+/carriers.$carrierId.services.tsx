import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { FilterBox } from "~/components/admin/FilterBox";
import { Alerts } from "~/components/Alerts";
import { carrierOf, listServices } from "~/modules/carriers/services.server";
import { requireCarrierStaff, screenRead } from "~/modules/carriers/screens.server";
import { pageId } from "~/utils/ids";

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [{ title: `Services · ${d?.carrier.name ?? "Carrier"} · FreightDesk` }];

/** /carriers/{carrierId}/services?filter: the carrier's services with New. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireCarrierStaff(context, request);
  const carrierId = pageId(params.carrierId);
  const url = new URL(request.url);
  const filter = (url.searchParams.get("filter") ?? "").trim().slice(0, 100);
  const carrier = await screenRead(() => carrierOf(context.db, user, carrierId));
  return { carrier, filter, deleted: url.searchParams.has("deleted"), services: await listServices(context.db, user, carrierId, filter) };
}

export default function Services() {
  const { carrier, filter, deleted, services } = useLoaderData<typeof loader>();
  return (
    <div className="max-w-4xl space-y-4" data-testid="services-list">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">
          Services of {carrier.name} <span className="text-slate-600">({carrier.code})</span>
        </h1>
        <div className="flex gap-2">
          <Link to={`/carriers/${carrier.id}/service`} className="btn-primary">
            New
          </Link>
          <Link to={`/carrier/${carrier.id}`} className="btn">
            Back to carrier
          </Link>
        </div>
      </div>
      {deleted ? <Alerts alerts={[{ type: "success", message: "Service was deleted." }]} /> : null}
      <FilterBox label="Filter by code or name" value={filter} formLabel="Filter services" />
      {services.length === 0 ? (
        <p className="text-sm text-slate-600">{filter ? "No service matches the filter." : "This carrier has no services yet."}</p>
      ) : (
        <table className="w-full text-sm">
          <thead>
            <tr className="text-left">
              <th scope="col">Carrier code</th>
              <th scope="col">Code</th>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Group</th>
              <th scope="col">Rates</th>
            </tr>
          </thead>
          <tbody>
            {services.map((s) => (
              <tr key={s.id} className="border-t">
                <td data-testid="service-carrier-code">{s.carrier_code}</td>
                <td>
                  <Link to={`/carriers/${carrier.id}/service/${s.id}`} className="text-sky-700 underline">
                    {s.code}
                  </Link>
                </td>
                <td>{s.name}</td>
                <td>{s.type}</td>
                <td>{s.group ?? ""}</td>
                <td>{s.pay_on_arrival ? "No Rates Provided" : "Rated"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
