import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigate, useNavigation, useSearchParams } from "@remix-run/react";
import { useState } from "react";
import { z } from "zod";
import { Alerts, type Alert } from "~/components/Alerts";
import { apiFetch } from "~/utils/api-client";
import { JobProgress } from "~/components/JobProgress";
import { authorize, requireUser } from "~/modules/auth/guard.server";
import { localDate } from "~/modules/calendar/site-time";
import { jobStatusFor } from "~/modules/jobs/jobs.server";
import { NOTICES_PAGE_SIZE } from "~/modules/notices/constants";
import { deleteNoticeFor, listNotices, markNoticesSeen, type NoticeJson } from "~/modules/notices/notices.server";
import { adminButtons, canRunMaintenance, showsCustomerSwitcher } from "~/modules/shell/navigation";
import { listCustomers, switchCustomer } from "~/modules/tenancy/customers.server";
import { updateUserOptions } from "~/modules/users/options.server";
import { canUseFinance } from "~/modules/invoices/access";
import { AppError } from "~/utils/errors";
import { parseOrThrow } from "~/utils/validation";
import { safeRedirectPath, throwIfAccessError } from "~/utils/ui.server";
import { idSchema } from "~/utils/ids";
import { readPageForm } from "~/utils/http.server";

export const meta: MetaFunction = () => [{ title: "Home · FreightDesk" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireUser(context, request);
  const url = new URL(request.url);
  const shown = Math.min(Math.max(Number(url.searchParams.get("notices")) || NOTICES_PAGE_SIZE, NOTICES_PAGE_SIZE), 500);
  const jobId = url.searchParams.get("job");
  const [notices, customers, job] = await Promise.all([
    listNotices(context.db, user, { limit: shown, request: context }),
    showsCustomerSwitcher(user) ? listCustomers(context.db, user) : Promise.resolve([]),
    jobId ? jobStatusFor(context.db, user, jobId).catch(() => null) : Promise.resolve(null),
  ]);
  return {
    // notice dates are read in the user's own zone and format (their clock), as /notices shows them, on the server and in the browser alike
    dates: { timeZone: user.clock.timeZone, country: user.clock.dateFormat },
    user: { id: user.id, view: user.view, customerId: user.customer.id, customerName: user.customer.name, firstName: user.firstName },
    notices,
    customers,
    adminButtons: adminButtons(user, user.customer.id),
    canRunMaintenance: canRunMaintenance(user),
    // only a user with finance has a view to choose (decision 022)
    canChooseView: canUseFinance(user),
    job: job ? { id: jobId!, status: job } : null,
  };
}

const intentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("mark_all_seen"), redirectTo: z.string().optional() }),
  z.object({ intent: z.literal("delete_notice"), notice_id: idSchema("Choose a notice") }),
  z.object({ intent: z.literal("switch_customer"), customer_id: idSchema("Choose a customer") }),
  z.object({ intent: z.literal("set_view"), view: z.enum(["DESPATCHER", "FINANCE"]) }),
  z.object({ intent: z.literal("run_cleanup") }),
]);

export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireUser(context, request);
  const form = Object.fromEntries(await readPageForm(request));
  try {
    const input = parseOrThrow(intentSchema, form);
    switch (input.intent) {
      case "mark_all_seen":
        await markNoticesSeen(context.db, user);
        return redirect(safeRedirectPath(input.redirectTo, "/home"));
      case "delete_notice":
        await deleteNoticeFor(context.db, user, input.notice_id);
        return { alerts: [{ type: "success", message: "Notice removed." }] as Alert[] };
      case "switch_customer": {
        const switched = await switchCustomer(context.db, user, input.customer_id);
        return { alerts: [{ type: "success", message: `You are now working in ${switched.customer.name}.` }] as Alert[] };
      }
      case "set_view":
        await updateUserOptions(context.db, user, user.id, { options: { view: input.view } });
        return redirect(input.view === "FINANCE" ? "/invoices_payable" : "/home");
      case "run_cleanup": {
        authorize(user, canRunMaintenance);
        const { jobId } = await context.queue.enqueue("maintenance.cleanup", {}, { userId: user.id, customerId: user.customer.id });
        return redirect(`/home?job=${jobId}`);
      }
    }
  } catch (error) {
    throwIfAccessError(error);
    if (error instanceof AppError) return data({ alerts: [{ type: "error", message: error.message }] as Alert[] }, { status: error.status });
    throw error;
  }
}

function CustomerSwitcher({ customers, currentId }: { customers: Array<{ id: number; name: string; code: string; status: string }>; currentId: number }) {
  const groups = ["LIVE", "TEST", "DISABLED"] as const;
  return (
    <section className="card" aria-labelledby="switcher-heading">
      <h2 id="switcher-heading" className="mb-2 font-semibold">
        Customer
      </h2>
      <Form method="post" className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="intent" value="switch_customer" />
        <div className="min-w-64 flex-1">
          <label htmlFor="customer_id" className="label">
            Work in customer
          </label>
          <select id="customer_id" name="customer_id" defaultValue={currentId} className="input">
            {groups.map((g) => (
              <optgroup key={g} label={g}>
                {customers
                  .filter((c) => c.status === g)
                  .map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name} ({c.code}) {g}
                    </option>
                  ))}
              </optgroup>
            ))}
          </select>
        </div>
        <button type="submit" className="btn-primary">
          Switch
        </button>
      </Form>
    </section>
  );
}

function ViewChooser({ userId, view }: { userId: number; view: "DESPATCHER" | "FINANCE" }) {
  const navigate = useNavigate();
  const [value, setValue] = useState(view);
  const [error, setError] = useState<string | null>(null);
  return (
    <section className="card" aria-labelledby="view-heading">
      <h2 id="view-heading" className="mb-2 font-semibold">
        View
      </h2>
      <Form
        method="post"
        className="flex items-end gap-2"
        onSubmit={async (event) => {
          // With JavaScript the choice is saved through the /api call; the form post is the fallback.
          event.preventDefault();
          const res = await apiFetch(`/api/update_user_options/${userId}`, { method: "PUT", json: { options: { view: value } } });
          if (res.ok) navigate(value === "FINANCE" ? "/invoices_payable" : "/home");
          else setError(`Could not save the view. ${res.message}`);
        }}
      >
        <input type="hidden" name="intent" value="set_view" />
        <div>
          <label htmlFor="view" className="label">
            Working view
          </label>
          <select id="view" name="view" value={value} onChange={(e) => setValue(e.target.value as typeof value)} className="input">
            <option value="DESPATCHER">Despatcher</option>
            <option value="FINANCE">Finance</option>
          </select>
        </div>
        <button type="submit" className="btn">
          Save view
        </button>
      </Form>
      {error && (
        <p role="alert" className="field-error">
          {error}
        </p>
      )}
    </section>
  );
}

function NoticesList({ notices, total, dates }: { notices: NoticeJson[]; total: number; dates: { timeZone: string | null; country: string } }) {
  const [searchParams] = useSearchParams();
  const [extra, setExtra] = useState<NoticeJson[]>([]);
  const [loading, setLoading] = useState(false);
  const all = [...notices, ...extra.filter((e) => !notices.some((n) => n.id === e.id))];
  const moreHref = `?notices=${all.length + NOTICES_PAGE_SIZE}${searchParams.get("job") ? `&job=${searchParams.get("job")}` : ""}#notices`;

  async function loadMore(event: React.MouseEvent) {
    // Lazily fetch the next page in place; the link is the fallback without JavaScript.
    event.preventDefault();
    setLoading(true);
    const res = await apiFetch<{ notices: NoticeJson[] }>(`/api/notices?limit=${NOTICES_PAGE_SIZE}&offset=${all.length}`);
    if (res.ok) setExtra((e) => [...e, ...res.data.notices]);
    setLoading(false);
  }

  return (
    <section id="notices" className="card" aria-labelledby="notices-heading">
      <h2 id="notices-heading" className="mb-3 font-semibold">
        Notices
      </h2>
      {all.length === 0 ? (
        <p className="text-sm text-slate-500">There are no notices to display.</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {all.map((n) => (
            <li key={n.id} id={`notice-${n.id}`} className="py-3" data-testid="notice">
              <div className="flex items-start justify-between gap-3">
                <div>
                  <h3 className={`text-sm ${n.seen ? "" : "font-semibold"}`}>{n.header}</h3>
                  <p className="text-xs text-slate-500">{localDate(new Date(n.publish_at), dates.timeZone, dates.country)}</p>
                </div>
                {/* a notice loaded by "More notices" lives in this list's state: drop it here too */}
                <Form method="post" onSubmit={() => setExtra((e) => e.filter((x) => x.id !== n.id))}>
                  <input type="hidden" name="intent" value="delete_notice" />
                  <input type="hidden" name="notice_id" value={n.id} />
                  <button type="submit" className="text-sm text-red-700 hover:underline" aria-label={`Delete notice ${n.header}`}>
                    Delete
                  </button>
                </Form>
              </div>
              {/* content is sanitised on the server (notices module) before it reaches the page */}
              <div className="prose mt-1 text-sm" dangerouslySetInnerHTML={{ __html: n.content }} />
            </li>
          ))}
        </ul>
      )}
      {all.length < total && (
        <a href={moreHref} onClick={loadMore} className="btn mt-3">
          {loading ? "Loading..." : "More notices"}
        </a>
      )}
    </section>
  );
}

export default function Home() {
  const { user, dates, notices, customers, adminButtons: buttons, canRunMaintenance: maintenance, canChooseView, job } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold">Home</h1>
      <Alerts alerts={actionData && "alerts" in actionData ? actionData.alerts : []} />
      {job && <JobProgress jobId={job.id} initial={job.status} />}
      <div className="grid gap-4 md:grid-cols-3">
        <div className="space-y-4 md:col-span-2">
          <NoticesList notices={notices.notices} total={notices.total} dates={dates} />
        </div>
        <div className="space-y-4">
          {customers.length > 0 && <CustomerSwitcher customers={customers} currentId={user.customerId} />}
          {canChooseView && <ViewChooser userId={user.id} view={user.view} />}
          {buttons.length > 0 && (
            <section className="card" aria-labelledby="admin-heading">
              <h2 id="admin-heading" className="mb-2 font-semibold">
                Administration
              </h2>
              <div className="flex flex-wrap gap-2">
                {buttons.map((b) => (
                  <Link key={b.to} to={b.to} className="btn">
                    {b.label}
                  </Link>
                ))}
              </div>
            </section>
          )}
          {maintenance && (
            <section className="card" aria-labelledby="maintenance-heading">
              <h2 id="maintenance-heading" className="mb-2 font-semibold">
                Maintenance
              </h2>
              <Form method="post">
                <input type="hidden" name="intent" value="run_cleanup" />
                <button type="submit" className="btn" disabled={navigation.state === "submitting"}>
                  Remove expired sessions
                </button>
              </Form>
            </section>
          )}
        </div>
      </div>
    </div>
  );
}
