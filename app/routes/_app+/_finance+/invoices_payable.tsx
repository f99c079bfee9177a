import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useState } from "react";
import { FormErrors } from "~/components/Field";
import { AllocationOutcome } from "~/components/finance/AllocationOutcome";
import { CarrierAuditTable } from "~/components/finance/AuditFigures";
import { ImportInvoicesDialog } from "~/components/finance/ImportInvoicesDialog";
import { InvoiceResult } from "~/components/finance/InvoiceSearch";
import { InvoiceFilters } from "~/components/finance/InvoiceFilters";
import { InvoiceGroups } from "~/components/finance/InvoiceGroups";
import { ServerDialog } from "~/components/finance/ServerDialog";
import { JobProgress } from "~/components/JobProgress";
import { canAdministerInvoices } from "~/modules/invoices/access";
import { deleteInvoices } from "~/modules/invoices/actions.server";
import { importedInvoiceIds } from "~/modules/invoices/import.server";
import { exportInvoices } from "~/modules/invoices/export.server";
import { requireFinanceUser } from "~/modules/invoices/guard.server";
import { filterChoices, importTemplates, listPayable } from "~/modules/invoices/list.server";
import { searchInvoices } from "~/modules/invoices/search.server";
import { startReconciliation } from "~/modules/reconciliation/reconcile.server";
import { INVOICE_MESSAGES, isoToDisplay, PAYABLE_STATES } from "~/modules/invoices/schemas";
import { AppError } from "~/utils/errors";
import { readForm } from "~/utils/http.server";
import { throwIfAccessError } from "~/utils/ui.server";

export const meta: MetaFunction = () => [{ title: "Payable invoices · FreightDesk" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireFinanceUser(context, request);
  const q = new URL(request.url).searchParams;
  let errors: Record<string, string[]> = {};
  // right after an import: the invoices it made, whatever their dates
  const importJob = q.get("import_job");
  const imported = importJob ? await importedInvoiceIds(context.db, user, importJob) : null;
  const list = await listPayable(context.db, user, Object.fromEntries(q), imported ? { only: imported } : {}).catch((e: unknown) => {
    throwIfAccessError(e);
    if (!(e instanceof AppError) || e.code !== "invalid") throw e;
    errors = e.fieldErrors;
    // the filters as typed are wrong: say so, and show the default list below
    return listPayable(context.db, user, {});
  });
  const canAdmin = canAdministerInvoices(user);
  const [choices, templates] = await Promise.all([filterChoices(context.db, user), canAdmin ? importTemplates(context.db) : Promise.resolve([])]);
  // the header's invoice search without JavaScript lands here with its query
  const query = q.get("query")?.trim() ?? "";
  const found = query.length >= 3 ? await searchInvoices(context.db, user, { query }) : null;
  return { list, errors, choices, templates, canAdmin, importJob, imported: imported ? imported.length : null, reconcileJob: q.get("reconcile_job"), query, found };
}

type ActionData = { message?: string; errors?: Record<string, string[]>; confirm?: { ids: number[] }; download?: string; ok?: boolean };

/**
 * Delete (after a confirmation the server renders), Export and Reconcile of the chosen invoices.
 * Reconcile with none chosen reconciles the allocated invoices in view (the page sends their ids),
 * then comes back here with the job's progress (?reconcile_job=).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireFinanceUser(context, request);
  const form = await readForm(request);
  const ids = form.getAll("invoice_ids").map(String);
  const intent = String(form.get("intent") ?? "");
  try {
    if (intent === "delete") {
      if (!ids.length) throw new AppError("invalid", INVOICE_MESSAGES.chooseInvoices);
      if (form.get("confirmed") !== "yes") return { confirm: { ids: ids.map(Number) } } satisfies ActionData;
      const out = await deleteInvoices(context.db, user, { ids });
      return { message: out.message, ok: true } satisfies ActionData;
    }
    if (intent === "reconcile") {
      const chosen = ids.length ? ids : form.getAll("allocated_in_view").map(String);
      if (!chosen.length) throw new AppError("invalid", INVOICE_MESSAGES.chooseInvoices);
      const { job_id } = await startReconciliation(context.db, context.queue, user, { invoice_ids: chosen.map(Number) });
      const back = new URL(request.url);
      for (const k of ["state", "date", "carrier_id", "customer_id", "from", "to"]) if (form.get(k)) back.searchParams.set(k, String(form.get(k)));
      back.searchParams.set("reconcile_job", job_id);
      return redirect(`${back.pathname}${back.search}`);
    }
    if (intent === "export") {
      const out = await exportInvoices(context.db, user, { ids, format: String(form.get("format") ?? "csv") });
      if (out.kind === "accounting") return { message: out.message, ok: out.skipped.length === 0 } satisfies ActionData;
      return { message: `${out.exported.length} invoice${out.exported.length === 1 ? "" : "s"} exported.`, download: `/invoices_payable/download/${out.file}`, ok: true } satisfies ActionData;
    }
    throw new AppError("bad_request", "Unknown action");
  } catch (e) {
    throwIfAccessError(e);
    if (!(e instanceof AppError)) throw e;
    return data({ message: e.fieldErrors.ids?.[0] ?? e.message, errors: e.fieldErrors } satisfies ActionData, { status: e.status });
  }
}

export default function InvoicesPayable() {
  const { list, errors, choices, templates, canAdmin, importJob, imported, reconcileJob, query: searched, found } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionData | undefined;
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const [hydrated, setHydrated] = useState(false);
  const [selected, setSelected] = useState(0);
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (result?.download) window.location.assign(result.download);
  }, [result?.download]);
  const f = list.filters;
  const query = (state: string) => {
    const p = new URLSearchParams({ date: f.date, state });
    if (f.carrier_id) p.set("carrier_id", f.carrier_id);
    if (f.customer_id) p.set("customer_id", f.customer_id);
    if (f.date === "custom") {
      p.set("from", f.from);
      p.set("to", f.to);
    }
    return `?${p}`;
  };
  const here = query(f.state);
  // before JavaScript the buttons stay usable and the action refuses an empty selection
  const none = hydrated && selected === 0;
  const busy = navigation.state !== "idle";
  const allocatedInView = list.groups.flatMap((g) => g.invoices.filter((i) => i.state === "allocated").map((i) => i.id));
  return (
    <div className="space-y-4" data-testid="invoices-payable">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">Payable invoices</h1>
        <ImportInvoicesDialog templates={templates} canImport={canAdmin} />
      </div>
      {importJob ? <JobProgress jobId={importJob} onDone={() => revalidator.revalidate()} /> : null}
      {imported != null ? (
        <p className="card text-sm" role="status" data-testid="imported-invoices">
          Showing the {imported} invoice{imported === 1 ? "" : "s"} this import made, whatever their dates.{" "}
          <Link to="/invoices_payable" className="underline">
            Show the usual list
          </Link>
        </p>
      ) : null}
      {reconcileJob ? (
        <div className="space-y-1" data-testid="reconcile-progress">
          <JobProgress jobId={reconcileJob} onDone={() => revalidator.revalidate()} />
          <Link to="/reconciliations" className="text-sm text-sky-700 underline">
            Open the reconciliations
          </Link>
        </div>
      ) : null}
      <AllocationOutcome />
      {found ? (
        <section className="card" aria-label="Invoice search results" data-testid="invoice-search-results">
          <h2 className="font-semibold">Invoices matching “{searched}”</h2>
          {found.length ? (
            <ul className="divide-y divide-slate-100">
              {found.map((r) => (
                <li key={r.id} className="py-1">
                  <Link to={r.url}>
                    <InvoiceResult r={r} />
                  </Link>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-600">{INVOICE_MESSAGES.noInvoices}</p>
          )}
        </section>
      ) : null}
      <InvoiceFilters filters={f} choices={choices} errors={errors} />

      <nav aria-label="Invoice states" className="flex flex-wrap gap-2">
        {PAYABLE_STATES.map((s) => (
          <Link key={s} to={query(s)} aria-current={f.state === s ? "page" : undefined} className={`rounded border px-3 py-1 text-sm ${f.state === s ? "border-sky-600 bg-sky-50 font-semibold" : "border-slate-300"}`} data-testid={`count-${s}`}>
            {s.charAt(0).toUpperCase() + s.slice(1)} <span className="tabular-nums">({list.counts[s]})</span>
          </Link>
        ))}
      </nav>
      <p className="text-sm" data-testid="totals">
        Total cost <strong className="tabular-nums">${list.totals.cost.toFixed(2)}</strong> · Consignments <strong className="tabular-nums">{list.totals.consignments}</strong>
      </p>

      {result?.message ? (
        <div role={result.ok ? "status" : "alert"} className={`rounded border px-3 py-2 text-sm ${result.ok ? "border-green-300 bg-green-50" : "border-red-300 bg-red-50"}`} data-testid="payable-message">
          {result.message} {result.download ? <a href={result.download}>Download the export</a> : null}
        </div>
      ) : null}

      <Form method="post" id="invoices-form" onChange={(e) => setSelected(e.currentTarget.querySelectorAll("input[name=invoice_ids]:checked").length)}>
        <input type="hidden" name="redirectTo" value={`/invoices_payable${here}`} />
        {canAdmin ? (
          <div className="mb-3 flex flex-wrap items-end gap-2" role="group" aria-label="Actions on the chosen invoices">
            <button type="submit" name="intent" value="delete" id="delete-invoices" className="btn" disabled={none || busy}>
              Delete
            </button>
            <button type="submit" formAction="/invoices/allocate" className="btn" disabled={none || busy}>
              Allocate
            </button>
            <label className="text-sm">
              <span className="sr-only">Export format</span>
              <select name="format" className="input" defaultValue="csv">
                <option value="csv">CSV</option>
                <option value="xlsx">XLSX</option>
                <option value="accounting">Accounting (bills)</option>
              </select>
            </label>
            <button type="submit" name="intent" value="export" className="btn" disabled={none || busy}>
              Export
            </button>
            {allocatedInView.map((id) => (
              <input key={id} type="hidden" name="allocated_in_view" value={id} />
            ))}
            {Object.entries(f).map(([k, v]) => (v && ["state", "date", "carrier_id", "customer_id", "from", "to"].includes(k) ? <input key={k} type="hidden" name={k} value={String(v)} /> : null))}
            <button type="submit" name="intent" value="reconcile" className="btn" disabled={busy || (none && allocatedInView.length === 0)} aria-describedby="reconcile-help">
              Reconcile
            </button>
            <span id="reconcile-help" className="text-xs text-slate-500">
              The chosen invoices, or with none chosen the allocated ones shown
            </span>
          </div>
        ) : null}
        {list.groups.length === 0 ? <p className="card text-sm text-slate-600">{INVOICE_MESSAGES.noInvoices}</p> : <InvoiceGroups groups={list.groups} selectable={canAdmin} />}
        {list.truncated ? <p className="text-sm text-slate-600">Only the first 500 invoices are shown: narrow the filters.</p> : null}
      </Form>
      <CarrierAuditTable rows={list.audit} period={f.to ? `${isoToDisplay(f.from)} to ${isoToDisplay(f.to)}` : `from ${isoToDisplay(f.from)}`} />

      {result?.confirm ? (
        <ServerDialog title="Delete invoices" closeHref={`/invoices_payable${here}`} returnFocusId="delete-invoices" testId="confirm-delete">
          <p>
            Delete {result.confirm.ids.length} invoice{result.confirm.ids.length === 1 ? "" : "s"} with their lines, costs and files? This cannot be undone.
          </p>
          <Form method="post" className="flex justify-end gap-2">
            {result.confirm.ids.map((id) => (
              <input key={id} type="hidden" name="invoice_ids" value={id} />
            ))}
            <input type="hidden" name="confirmed" value="yes" />
            <Link to={`/invoices_payable${here}`} className="btn" replace>
              Cancel
            </Link>
            <button type="submit" name="intent" value="delete" className="btn-danger" autoFocus>
              Delete
            </button>
          </Form>
        </ServerDialog>
      ) : null}
      <FormErrors errors={result?.errors?.base && !result.message ? result.errors.base : undefined} />
    </div>
  );
}
