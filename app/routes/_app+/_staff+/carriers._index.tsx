import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { FilterBox } from "~/components/admin/FilterBox";
import { Alerts } from "~/components/Alerts";
import { listCarriers } from "~/modules/carriers/admin.server";
import { CARRIER_MESSAGES } from "~/modules/carriers/admin";
import { requireCarrierStaff } from "~/modules/carriers/screens.server";

export const meta: MetaFunction = () => [{ title: "Carriers · FreightDesk" }];

/** /carriers?filter: every carrier by name (name and rates service key each), or those matching the filter box. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireCarrierStaff(context, request);
  const url = new URL(request.url);
  const filter = (url.searchParams.get("filter") ?? "").trim().slice(0, 100);
  return { filter, deleted: url.searchParams.has("deleted"), carriers: await listCarriers(context.db, user, filter) };
}

export default function Carriers() {
  const { filter, deleted, carriers } = useLoaderData<typeof loader>();
  return (
    <div className="max-w-3xl space-y-4" data-testid="carriers-list">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">Carriers</h1>
        <Link to="/carrier" className="btn-primary">
          New
        </Link>
      </div>
      {deleted ? <Alerts alerts={[{ type: "success", message: CARRIER_MESSAGES.deleted }]} /> : null}
      <FilterBox label="Filter by name or code" value={filter} formLabel="Filter carriers" />
      {carriers.length === 0 ? (
        <p className="text-sm text-slate-600">{filter ? "No carrier matches the filter." : "There are no carriers yet."}</p>
      ) : (
        <table className="w-full text-sm">
          <thead>
            <tr className="text-left">
              <th scope="col">Name</th>
              <th scope="col">Rates service key</th>
              <th scope="col">Services</th>
            </tr>
          </thead>
          <tbody>
            {carriers.map((c) => (
              <tr key={c.id} className="border-t">
                <td>
                  <Link to={`/carrier/${c.id}`} className="text-sky-700 underline">
                    {c.name}
                  </Link>
                </td>
                <td data-testid="carrier-code">{c.rates_service_key}</td>
                <td>
                  <Link to={`/carriers/${c.id}/services`} className="text-sky-700 underline" aria-label={`Services of ${c.name}`}>
                    {c.services_count}
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
