import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { requireStaff } from "~/modules/auth/guard.server";
import { customerGroups, GROUP_PAGE_SIZE, STATUSES, type CustomerStatus } from "~/modules/customers/list.server";

export const meta: MetaFunction = () => [{ title: "Customers · FreightDesk" }];

const HEADINGS: Record<CustomerStatus, string> = { LIVE: "Live customers", TEST: "Test customers", DISABLED: "Disabled customers" };
const pageParam = (s: CustomerStatus) => `${s.toLowerCase()}_page`;

/** /index_customers?q&live_page&test_page&disabled_page: the customers in three groups, 50 a page each. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireStaff(context, request);
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const pages = Object.fromEntries(STATUSES.map((s) => [s, Math.min(Math.max(Number(url.searchParams.get(pageParam(s))) || 1, 1), 100_000)]));
  const groups = await customerGroups(context.db, user, { q: q || undefined, pages });
  return { q, groups, search: url.search };
}

export default function Customers() {
  const { q, groups, search } = useLoaderData<typeof loader>();
  const pageUrl = (status: CustomerStatus, page: number) => {
    const params = new URLSearchParams(search);
    params.set(pageParam(status), String(page));
    return `/index_customers?${params}`;
  };
  return (
    <div className="space-y-4" data-testid="customers-list">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">Customers</h1>
        <Link to="/customers" className="btn-primary">
          New customer
        </Link>
      </div>
      <Form method="get" className="flex flex-wrap items-end gap-2" role="search" aria-label="Filter customers">
        <div>
          <label htmlFor="q" className="label">
            Filter by name or code
          </label>
          <input id="q" name="q" type="search" defaultValue={q} maxLength={100} className="input w-72" />
        </div>
        <button type="submit" className="btn">
          Filter
        </button>
      </Form>
      <div className="grid gap-4 lg:grid-cols-3">
        {groups.map((g) => {
          const pages = Math.max(Math.ceil(g.total / GROUP_PAGE_SIZE), 1);
          return (
            <section key={g.status} className="card space-y-2" aria-labelledby={`group-${g.status}`} data-testid={`customers-${g.status.toLowerCase()}`}>
              <h2 id={`group-${g.status}`} className="font-semibold">
                {HEADINGS[g.status]} ({g.total})
              </h2>
              {g.customers.length === 0 ? (
                <p className="text-sm text-slate-600">No customers.</p>
              ) : (
                <ul className="space-y-1 text-sm">
                  {g.customers.map((c) => (
                    <li key={c.id}>
                      {/* a plain link: hundreds of them render on the server, and each Link costs a router hook */}
                      <a href={`/customers/${c.id}`} className="text-sky-700 underline">
                        {c.name}
                      </a>{" "}
                      <span className="text-slate-600">{c.code}</span>
                    </li>
                  ))}
                </ul>
              )}
              {pages > 1 && (
                <nav aria-label={`${HEADINGS[g.status]} pages`} className="flex items-center gap-3 text-sm">
                  {g.page > 1 ? <Link to={pageUrl(g.status, g.page - 1)}>Previous</Link> : null}
                  <span>
                    Page {g.page} of {pages}
                  </span>
                  {g.page < pages ? <Link to={pageUrl(g.status, g.page + 1)}>Next</Link> : null}
                </nav>
              )}
            </section>
          );
        })}
      </div>
    </div>
  );
}
