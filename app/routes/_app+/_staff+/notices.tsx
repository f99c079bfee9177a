import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Alerts, type Alert } from "~/components/Alerts";
import { MESSAGES, noticeListQuery } from "~/modules/notices/admin";
import { deleteNoticeForAdmin, listNoticesForAdmin, requireNoticeAdmin, setNoticePublished } from "~/modules/notices/admin.server";
import { listCustomers } from "~/modules/tenancy/customers.server";
import { AppError } from "~/utils/errors";
import { readPageForm } from "~/utils/http.server";
import { pageId } from "~/utils/ids";
import { throwIfAccessError } from "~/utils/ui.server";

export const meta: MetaFunction = () => [{ title: "Notices · FreightDesk" }];

/** The list's own URL without the one-off alert flags, to come back to after a change. */
function listUrl(url: URL, flag?: string): string {
  const params = new URLSearchParams(url.search);
  for (const k of ["updated", "deleted"]) params.delete(k);
  if (flag) params.set(flag, "1");
  const query = params.toString();
  return `/notices${query ? `?${query}` : ""}`;
}

/** Every customer's notices (`?customer_id` narrows, `?page` pages by 20); `?updated=1`/`?deleted=1` say what was done. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireNoticeAdmin(context, request);
  const url = new URL(request.url);
  const parsed = noticeListQuery.safeParse(Object.fromEntries(url.searchParams));
  const query = parsed.success ? parsed.data : { customer_id: undefined, page: 1 };
  const alerts: Alert[] = [];
  if (url.searchParams.has("updated")) alerts.push({ type: "success", message: MESSAGES.updated });
  if (url.searchParams.has("deleted")) alerts.push({ type: "success", message: MESSAGES.deleted });
  const [list, customers] = await Promise.all([
    listNoticesForAdmin(context.db, user, { customerId: query.customer_id, page: query.page }),
    listCustomers(context.db, user),
  ]);
  return { ...list, customers: customers.map((c) => ({ id: c.id, name: c.name })), customerId: query.customer_id ?? null, alerts, here: listUrl(url) };
}

/** intent=publish, unpublish or delete for the notice `id`, then back to the same page of the list. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireNoticeAdmin(context, request);
  const form = await readPageForm(request);
  const id = pageId(String(form.get("id") ?? ""));
  const intent = form.get("intent");
  try {
    if (intent === "delete") {
      await deleteNoticeForAdmin(context.db, user, id);
      return redirect(listUrl(new URL(request.url), "deleted"));
    }
    if (intent !== "publish" && intent !== "unpublish") throw new AppError("bad_request", "Choose publish, unpublish or delete");
    await setNoticePublished(context.db, user, id, intent === "publish");
    return redirect(listUrl(new URL(request.url), "updated"));
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    // a notice deleted meanwhile is told on the list, not as a missing page
    if (e.code !== "not_found") throwIfAccessError(e);
    // spec 2 section 10: a failed publish shows the first server error
    return data({ error: e.message }, { status: e.status });
  }
}

export default function Notices() {
  const { notices, total, page, page_size, customers, customerId, alerts, here } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const pages = Math.max(Math.ceil(total / page_size), 1);
  const pageUrl = (p: number) => {
    const params = new URLSearchParams(here.split("?")[1] ?? "");
    params.set("page", String(p));
    return `/notices?${params}`;
  };
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">Notices</h1>
        <Link to={customerId ? `/notice?customer_id=${customerId}` : "/notice"} className="btn-primary">
          New notice
        </Link>
      </div>
      <Alerts alerts={failed?.error ? [{ type: "error", message: failed.error }] : alerts} />
      <Form method="get" className="flex flex-wrap items-end gap-2" aria-label="Filter notices">
        <div>
          <label htmlFor="customer_id" className="label">
            Customer
          </label>
          <select id="customer_id" name="customer_id" defaultValue={customerId ?? ""} className="input w-64">
            <option value="">All customers</option>
            {customers.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn">
          Filter
        </button>
      </Form>
      {notices.length === 0 ? (
        <p className="text-sm text-slate-600">There are no notices to display.</p>
      ) : (
        <div className="card overflow-x-auto p-0">
          <table className="w-full text-sm" data-testid="notices">
            <caption className="sr-only">Notices, newest publish date first</caption>
            <thead className="bg-slate-50 text-left text-xs uppercase text-slate-600">
              <tr>
                <th scope="col" className="px-3 py-2">
                  Header
                </th>
                <th scope="col" className="px-3 py-2">
                  Customer
                </th>
                <th scope="col" className="px-3 py-2">
                  Publish date
                </th>
                <th scope="col" className="px-3 py-2">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {notices.map((n) => (
                <tr key={n.id} className="border-t border-slate-100" data-testid="notice-row">
                  <th scope="row" className="px-3 py-2 text-left font-medium">
                    {n.header}
                  </th>
                  <td className="px-3 py-2">{n.customer_name}</td>
                  <td className="px-3 py-2">
                    {n.publish_date} {n.published ? <span className="ml-1 rounded bg-green-100 px-1.5 text-xs text-green-900">Published</span> : <span className="ml-1 rounded bg-slate-100 px-1.5 text-xs">Draft</span>}
                  </td>
                  <td className="px-3 py-2">
                    <div className="flex flex-wrap justify-end gap-2">
                      <Link to={`/notice/${n.id}`} className="btn" aria-label={`Edit ${n.header}`}>
                        Edit
                      </Link>
                      <Form method="post">
                        <input type="hidden" name="id" value={n.id} />
                        <button type="submit" name="intent" value={n.published ? "unpublish" : "publish"} className="btn" disabled={busy} aria-label={`${n.published ? "Unpublish" : "Publish"} ${n.header}`}>
                          {n.published ? "Unpublish" : "Publish"}
                        </button>
                      </Form>
                      <Form method="post" onSubmit={(e) => !confirm(`Delete the notice "${n.header}" for everyone?`) && e.preventDefault()}>
                        <input type="hidden" name="id" value={n.id} />
                        <button type="submit" name="intent" value="delete" className="btn-danger" disabled={busy} aria-label={`Delete ${n.header}`}>
                          Delete
                        </button>
                      </Form>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pages > 1 && (
        <nav aria-label="Pages" className="flex items-center gap-3 text-sm">
          {page > 1 ? <Link to={pageUrl(page - 1)}>Previous</Link> : null}
          <span>
            Page {page} of {pages}
          </span>
          {page < pages ? <Link to={pageUrl(page + 1)}>Next</Link> : null}
        </nav>
      )}
    </div>
  );
}
