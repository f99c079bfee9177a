import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { Breadcrumbs } from "~/components/Breadcrumbs";
import { requireStaff } from "~/modules/auth/guard.server";
import { listSitesForAdmin } from "~/modules/customers/sites.server";
import { breadcrumbTrail } from "~/modules/shell/breadcrumbs.server";
import { pageId } from "~/utils/ids";
import { throwIfAccessError } from "~/utils/ui.server";

export const meta: MetaFunction = () => [{ title: "Sites · FreightDesk" }];

/** /customers/{customerId}/index_sites?filter: the customer's sites (team view), filtered by code or name. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireStaff(context, request);
  const customerId = pageId(params.customerId);
  const filter = (new URL(request.url).searchParams.get("filter") ?? "").slice(0, 100);
  try {
    const [{ sites }, crumbs] = await Promise.all([
      listSitesForAdmin(context.db, user, customerId, filter),
      breadcrumbTrail(context.db, user, { model: "site", parent: "customer", parent_id: customerId }),
    ]);
    return { customerId, filter, crumbs, sites: sites.map((s) => ({ id: s.id, code: s.code, name: s.name, locality: s.address.locality ?? "", region: s.address.region ?? "" })) };
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

export default function SitesList() {
  const { customerId, filter, crumbs, sites } = useLoaderData<typeof loader>();
  return (
    <div className="max-w-4xl space-y-4">
      <Breadcrumbs crumbs={crumbs} />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">Sites</h1>
        <Link to={`/customers/${customerId}/sites`} className="btn-primary">
          New Site
        </Link>
      </div>
      <Form method="get" className="flex items-end gap-2" role="search" aria-label="Filter sites">
        <div>
          <label htmlFor="filter" className="label">
            Filter
          </label>
          <input id="filter" name="filter" type="search" defaultValue={filter} className="input w-72" placeholder="Code or name" />
        </div>
        <button type="submit" className="btn">
          Filter
        </button>
      </Form>
      {sites.length ? (
        <table className="w-full text-sm" data-testid="sites-table">
          <thead>
            <tr className="text-left">
              <th scope="col">Code</th>
              <th scope="col">Name</th>
              <th scope="col">Locality</th>
            </tr>
          </thead>
          <tbody>
            {sites.map((s) => (
              <tr key={s.id} className="border-t">
                <td>
                  <Link to={`/customers/${customerId}/sites/${s.id}`} className="text-sky-700 underline">
                    {s.code}
                  </Link>
                </td>
                <td>{s.name}</td>
                <td>{[s.locality, s.region].filter(Boolean).join(" ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="text-sm text-slate-700">{filter ? "No sites match the filter." : "This customer has no sites yet."}</p>
      )}
    </div>
  );
}
