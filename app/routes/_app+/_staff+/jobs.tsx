import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { requireStaff } from "~/modules/auth/guard.server";
import { localTime } from "~/modules/calendar/site-time";
import { jobListQuery, listJobs } from "~/modules/jobs/list.server";

export const meta: MetaFunction = () => [{ title: "Jobs · FreightDesk" }];

const STATUS_LABELS = { queued: "Queued", working: "Working", complete: "Complete", failed: "Failed" } as const;

/** Every background job and start-up report, newest first; the status filter and page live in the URL. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireStaff(context, request);
  const url = new URL(request.url);
  const query = jobListQuery.parse(Object.fromEntries(url.searchParams));
  const list = await listJobs(context.db, user, query);
  const at = (d: Date) => ({ at: d.toISOString(), localAt: localTime(d, user.clock.timeZone, user.clock.dateFormat) });
  return {
    status: query.status ?? "",
    ...list,
    jobs: list.jobs.map((j) => ({ ...j, created: at(j.createdAt), updated: at(j.updatedAt), createdAt: undefined, updatedAt: undefined })),
  };
}

export default function Jobs() {
  const { jobs, status, total, page, pages } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const pageHref = (n: number) => {
    const next = new URLSearchParams(params);
    next.set("page", String(n));
    return `?${next}`;
  };
  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold">Jobs</h1>
      <p className="text-sm text-slate-600">Background jobs and start-up reports of every customer, newest first. A failed job lists what went wrong.</p>
      <Form method="get" className="flex items-end gap-2" aria-label="Filter jobs">
        <label className="text-sm">
          Status
          <select name="status" defaultValue={status} className="input ml-2">
            <option value="">All</option>
            {Object.entries(STATUS_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="btn">
          Show
        </button>
      </Form>
      {jobs.length === 0 ? (
        <p className="text-sm text-slate-500">There are no jobs to display.</p>
      ) : (
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Jobs, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">Job</th>
              <th scope="col">Customer</th>
              <th scope="col">Status</th>
              <th scope="col">Message</th>
            </tr>
          </thead>
          <tbody>
            {jobs.map((j) => (
              <tr key={j.id} data-testid="job-row">
                <td>
                  <time dateTime={j.created.at}>{j.created.localAt}</time>
                </td>
                <td>{j.name}</td>
                <td>{j.customer ?? "—"}</td>
                <td>
                  {STATUS_LABELS[j.status]}
                  {j.status === "working" ? ` (${j.pctComplete}%)` : ""}
                </td>
                <td>
                  {j.message ?? ""}
                  {j.errorCount > 0 && (
                    <details className="mt-1">
                      <summary>{`${j.errorCount} error${j.errorCount === 1 ? "" : "s"}`}</summary>
                      <ul className="list-disc pl-5" data-testid="job-errors">
                        {j.errors.map((e, i) => (
                          <li key={i}>{e}</li>
                        ))}
                      </ul>
                      {j.errorCount > j.errors.length && <p className="text-slate-500">{`and ${j.errorCount - j.errors.length} more`}</p>}
                    </details>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav aria-label="Pages" className="flex items-center gap-2 text-sm">
        <span>{`${total} job(s), page ${page} of ${pages}`}</span>
        {page > 1 && (
          <Link to={pageHref(page - 1)} className="btn">
            Previous
          </Link>
        )}
        {page < pages && (
          <Link to={pageHref(page + 1)} className="btn">
            Next
          </Link>
        )}
      </nav>
    </div>
  );
}
