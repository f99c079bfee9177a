import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useRevalidator } from "@remix-run/react";
import { InvoiceFilters } from "~/components/finance/InvoiceFilters";
import { ReceivableGroups } from "~/components/invoicing/ReceivableGroups";
import { SchedulesDialog } from "~/components/invoicing/SchedulesDialog";
import { SendInvoiceDialog } from "~/components/invoicing/SendInvoiceDialog";
import { JobProgress } from "~/components/JobProgress";
import { displayDateToIso, forPerson } from "~/modules/calendar/display-date";
import { todayIn } from "~/modules/calendar/site-time";
import { canAdministerInvoices } from "~/modules/invoices/access";
import { requireFinanceUser } from "~/modules/invoices/guard.server";
import { filterChoices } from "~/modules/invoices/list.server";
import { INVOICE_MESSAGES } from "~/modules/invoices/schemas";
import { startInvoicing } from "~/modules/invoicing/invoice.server";
import { RECEIVABLE_STATES } from "~/modules/invoicing/receivable";
import { listInvoiceable, listReceivable } from "~/modules/invoicing/receivable.server";
import { earliestScheduleDate } from "~/modules/invoicing/schedule";
import { createSchedule, listSchedules } from "~/modules/invoicing/schedules.server";
import { AppError } from "~/utils/errors";
import { readForm } from "~/utils/http.server";
import { throwIfAccessError } from "~/utils/ui.server";

export const meta: MetaFunction = () => [{ title: "Receivable invoices · FreightDesk" }];

const LIST_KEYS = ["customer_id", "date", "from", "to", "state"] as const;
/** the page's filters (kept by the modals' links and forms) */
const listParams = (q: URLSearchParams) => Object.fromEntries(LIST_KEYS.flatMap((k) => (q.get(k) ? [[k, q.get(k)!]] : [])));
const lineParams = (q: URLSearchParams) => Object.fromEntries([...q].filter(([k]) => k.startsWith("l_")).map(([k, v]) => [k.slice(2), v]));

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireFinanceUser(context, request);
  const q = new URL(request.url).searchParams;
  let errors: Record<string, string[]> = {};
  const list = await listReceivable(context.db, user, listParams(q)).catch((e: unknown) => {
    throwIfAccessError(e);
    if (!(e instanceof AppError) || e.code !== "invalid") throw e;
    errors = e.fieldErrors;
    return listReceivable(context.db, user, {});
  });
  const canAdmin = canAdministerInvoices(user);
  const modal = q.get("modal");
  const choices = await filterChoices(context.db, user);
  return {
    list,
    errors,
    customers: choices.customers,
    canAdmin,
    keep: listParams(q),
    job: q.get("job"),
    scheduled: q.get("scheduled") === "1",
    invoiceable: modal === "invoice" && canAdmin ? await listInvoiceable(context.db, user, lineParams(q)) : null,
    schedules: modal === "schedules" ? await listSchedules(context.db, user) : null,
    // the schedule's date is typed in the user's own format
    country: user.clock.dateFormat,
    today: todayIn(user.clock.timeZone),
    earliest: earliestScheduleDate(new Date()),
  };
}

type ActionData = { errors: Record<string, string[]>; message: string };

/** Invoice the chosen lines now (the invoicing job) or schedule them. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireFinanceUser(context, request);
  const url = new URL(request.url);
  const form = await readForm(request);
  const ids = form.getAll("invoice_detail_ids").map(String);
  const keep = new URLSearchParams(listParams(url.searchParams));
  try {
    if (form.get("intent") === "schedule") {
      const typed = String(form.get("date") ?? "").trim();
      const date = typed ? (displayDateToIso(typed, user.clock.dateFormat) ?? "invalid") : null;
      await createSchedule(context.db, user, {
        period: form.get("period"),
        options: { invoice_detail_ids: ids, invoicing_options: { day: form.get("day") || null, date, hour: form.get("hour"), time_zone: form.get("time_zone") } },
      });
      keep.set("modal", "schedules");
      keep.set("scheduled", "1");
      return redirect(`/invoices_receivable?${keep}`);
    }
    const { job_id } = await startInvoicing(context.db, context.queue, user, { invoice_detail_ids: ids, rebill: form.get("rebill"), note: form.get("note") });
    keep.set("job", job_id);
    return redirect(`/invoices_receivable?${keep}`);
  } catch (e) {
    throwIfAccessError(e);
    if (!(e instanceof AppError)) throw e;
    // the schedule's date was typed in the user's format: its message names that format, not the wire's
    const say = (m: string) => forPerson(m, user.clock.dateFormat);
    const errors = Object.fromEntries(Object.entries(e.fieldErrors).map(([k, v]) => [k, v.map(say)]));
    return data({ errors, message: say(e.message) } satisfies ActionData, { status: e.status });
  }
}

export default function InvoicesReceivable() {
  const { list, errors, customers, canAdmin, keep, job, scheduled, invoiceable, schedules, country, today, earliest } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionData | undefined;
  const revalidator = useRevalidator();
  const f = list.filters;
  const href = (extra: Record<string, string> = {}) => `/invoices_receivable?${new URLSearchParams({ ...keep, ...extra })}`;
  const stateHref = (state: string) => href({ state });
  const sortHref = (column: string) => {
    const lf = invoiceable?.filters;
    const dir = lf?.order_by === column && lf.order_direction === "asc" ? "desc" : "asc";
    const current = Object.fromEntries(Object.entries(lf ?? {}).flatMap(([k, v]) => (v && k !== "order_by" && k !== "order_direction" ? [[`l_${k}`, String(v)]] : [])));
    return href({ modal: "invoice", ...current, l_order_by: column, l_order_direction: dir });
  };
  return (
    <div className="space-y-4" data-testid="invoices-receivable">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">Receivable invoices</h1>
        <div className="flex gap-2">
          <Link id="open-schedules" to={href({ modal: "schedules" })} className="btn" preventScrollReset>
            Schedules
          </Link>
          {canAdmin ? (
            <Link id="open-invoice" to={href({ modal: "invoice" })} className="btn-primary" preventScrollReset>
              Invoice
            </Link>
          ) : null}
        </div>
      </div>
      {job ? <JobProgress jobId={job} onDone={() => revalidator.revalidate()} /> : null}
      <InvoiceFilters filters={f} choices={{ carriers: [], customers }} errors={errors} />
      <nav aria-label="Invoice states" className="flex flex-wrap gap-2">
        {RECEIVABLE_STATES.map((s) => (
          <Link key={s} to={stateHref(s)} aria-current={f.state === s ? "page" : undefined} className={`rounded border px-3 py-1 text-sm ${f.state === s ? "border-sky-600 bg-sky-50 font-semibold" : "border-slate-300"}`} data-testid={`count-${s}`}>
            {s.charAt(0).toUpperCase() + s.slice(1)} <span className="tabular-nums">({list.counts[s]})</span>
          </Link>
        ))}
      </nav>
      {list.groups.length === 0 ? <p className="card text-sm text-slate-600">{INVOICE_MESSAGES.noInvoices}</p> : <ReceivableGroups groups={list.groups} />}
      {list.truncated ? <p className="text-sm text-slate-600">Only the first 500 invoices are shown: narrow the filters.</p> : null}

      {invoiceable ? (
        <SendInvoiceDialog
          lines={invoiceable.lines}
          filters={invoiceable.filters}
          message={invoiceable.message}
          keep={keep}
          closeHref={href()}
          sortHref={sortHref}
          errors={result?.errors ?? {}}
          country={country}
          today={today}
          earliest={earliest}
        />
      ) : null}
      {schedules ? <SchedulesDialog schedules={schedules} closeHref={href()} scheduled={scheduled} dateFormat={country} /> : null}
    </div>
  );
}
