import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation, useSubmit } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { FieldError } from "~/components/Field";
import { JobProgress } from "~/components/JobProgress";
import { PageSizeForm } from "~/components/finance/PageSizeForm";
import { ServerDialog } from "~/components/finance/ServerDialog";
import type { listPageAction, listPageLoader, ListPageAction } from "~/modules/reconciliation/list-page.server";
import { REASON_CATEGORIES } from "~/modules/reconciliation/compare";
import { REASON_LABELS, type OrderColumn } from "~/modules/reconciliation/list-schemas";
import { ACTION_LABELS, canApply, NOTE_MAX, RECONCILIATION_MESSAGES, RECONCILIATION_STATES, STATE_LABELS } from "~/modules/reconciliation/states";
import { Pagination } from "./Pagination";
import { money, ReconciliationsTable } from "./ReconciliationsTable";

const FILTER_FORM = "reconciliation-filters";
const BULK_FORM = "reconciliation-bulk";
const ACTIONS = ["invoice", "dispute", "accept", "use_consignment_costs", "reset"] as const;
type Action = (typeof ACTIONS)[number];
/** how many rows are ticked for the bulk form */
const ticked = () => document.querySelectorAll(`input[name=ids][form=${BULK_FORM}]:checked`).length;
type LoaderData = Awaited<ReturnType<typeof listPageLoader>>;

/**
 * The reconciliations list (spec 3 section 2), at /reconciliations and, for one invoice, at
 * /invoices/{invoice_id}/reconciliations. Everything that changes the view is in the URL (tabs,
 * filters, sort, page); bulk buttons post and the server answers with the note dialog, so the
 * screen works before JavaScript loads; JavaScript adds the debounced filters and select all.
 */
export function ReconciliationsList() {
  const { page, meta, choices, errors, query, invoice, canAct, customerScoped } = useLoaderData<LoaderData>();
  const result = useActionData<typeof listPageAction>() as ListPageAction | undefined;
  const location = useLocation();
  const navigation = useNavigation();
  const submit = useSubmit();
  const [hydrated, setHydrated] = useState(false);
  const [selected, setSelected] = useState(0);
  useEffect(() => setHydrated(true), []);
  const base = invoice ? `/invoices/${invoice.id}/reconciliations` : "/reconciliations";
  const params = new URLSearchParams(location.search);
  const hrefWith = (changes: Record<string, string | null>) => {
    const p = new URLSearchParams(params);
    // the invoicing job's progress is shown once, where it started
    p.delete("invoice_job");
    for (const [k, v] of Object.entries(changes)) {
      if (v == null || v === "") p.delete(k);
      else p.set(k, v);
    }
    const s = p.toString();
    return `${base}${s ? `?${s}` : ""}`;
  };
  const here = hrefWith({});
  // typing in a column filter submits the filter form after 300 ms without a key
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const filterForm = () => document.getElementById(FILTER_FORM) as HTMLFormElement | null;
  const submitFilters = (delay: number) => {
    if (!hydrated) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const form = filterForm();
      if (form) submit(form, { preventScrollReset: true, replace: true });
    }, delay);
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  const countSelected = () => setSelected(ticked());
  // new rows (another tab or page, or after a bulk action): count what is still ticked
  useEffect(() => setSelected(ticked()), [page]);

  const tab = query.state;
  const invoiceJob = params.get("invoice_job");
  const busy = navigation.state !== "idle";
  const dialog = result?.kind === "confirm" || (result?.kind === "error" && result.action && result.ids?.length) ? (result as { action: Action; ids: number[] }) : null;
  const title = invoice ? `Reconciliations of invoice ${invoice.invoice_number ?? "Pending"}` : "Reconciliations";

  return (
    <div className="space-y-4" data-testid="reconciliations-page">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">{title}</h1>
        {invoice ? (
          <Link to="/reconciliations" className="text-sm text-sky-700 underline">
            All reconciliations
          </Link>
        ) : null}
      </div>

      <Form id={FILTER_FORM} method="get" action={base} className="flex flex-wrap items-end gap-3" onChange={(e) => (e.target instanceof HTMLSelectElement ? submitFilters(0) : undefined)}>
        <input type="hidden" name="state" value={tab} />
        <input type="hidden" name="order_by" value={query.order_by} />
        {query.order_direction ? <input type="hidden" name="order_direction" value={query.order_direction} /> : null}
        <AllSelect name="carrier_code" label="Carrier" value={query.carrier_code} options={choices.carriers.map((c) => ({ value: c.code, name: c.name }))} />
        {customerScoped ? null : <AllSelect name="customer_id" label="Customer" value={query.customer_id} options={choices.customers.map((c) => ({ value: String(c.id), name: c.name }))} />}
        <div>
          <label htmlFor="reasons" className="label">
            Reasons
          </label>
          <select id="reasons" name="reasons" multiple defaultValue={query.reasons} className="input h-24 w-48" aria-describedby={errors.reasons ? "reasons-error" : undefined}>
            {REASON_CATEGORIES.map((r) => (
              <option key={r} value={r}>
                {REASON_LABELS[r]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn">
          Filter
        </button>
        <Link to={invoice ? base : "/reconciliations"} className="text-sm text-sky-700 underline">
          Clear filters
        </Link>
      </Form>
      {Object.keys(errors).length ? (
        <div role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-sm" data-testid="filter-errors">
          {Object.entries(errors).map(([k, m]) => (
            <FieldError key={k} id={`${k}-error`} errors={[`${k.replace(/_/g, " ")}: ${m[0]}`]} />
          ))}
        </div>
      ) : null}

      <div className="flex flex-wrap items-end justify-between gap-3">
        <nav aria-label="Reconciliation states" className="flex flex-wrap gap-2">
          {RECONCILIATION_STATES.map((s) => (
            <Link key={s} to={hrefWith({ state: s === "reconciling" ? null : s, page: null })} aria-current={tab === s ? "page" : undefined} className={`rounded border px-3 py-1 text-sm ${tab === s ? "border-sky-600 bg-sky-50 font-semibold" : "border-slate-300"}`} data-testid={`tab-${s}`}>
              {STATE_LABELS[s]} <span className="tabular-nums">({meta.states[s]})</span>
            </Link>
          ))}
        </nav>
        <p className="text-sm" data-testid="totals">
          Total margin <strong className="tabular-nums">{money(meta.totals.margin)}</strong> · Total discrepancies <strong className="tabular-nums">{money(meta.totals.discrepancy)}</strong>
        </p>
      </div>

      {canAct ? (
        <Form method="post" id={BULK_FORM} className="flex flex-wrap items-end gap-2" role="group" aria-label="Actions on the chosen reconciliations">
          <input type="hidden" name="intent" value="confirm" />
          {ACTIONS.map((a) => (
            <button key={a} type="submit" name="action" value={a} id={`bulk-${a}`} className="btn" disabled={!canApply(a, tab) || busy || (hydrated && selected === 0)} data-testid={`bulk-${a}`}>
              {ACTION_LABELS[a]}
            </button>
          ))}
          <span className="text-xs text-slate-500" aria-live="polite">
            {hydrated ? `${selected} chosen` : null}
          </span>
        </Form>
      ) : null}

      {invoiceJob ? (
        <div className="space-y-1" data-testid="invoicing-progress">
          <JobProgress jobId={invoiceJob} />
          <Link to="/invoices_receivable" className="text-sm text-sky-700 underline">
            Invoices receivable
          </Link>
        </div>
      ) : null}
      <Outcome result={result} />

      <ReconciliationsTable
        rows={page.reconciliations}
        filters={query}
        order={{ by: query.order_by, direction: query.order_direction ?? (query.order_by === "id" ? "desc" : "asc") }}
        sortHref={(column: OrderColumn, direction) => hrefWith({ order_by: column, order_direction: direction, page: null })}
        filterFormId={FILTER_FORM}
        bulkFormId={BULK_FORM}
        selectable={canAct}
        onTyped={() => submitFilters(300)}
        onSelect={countSelected}
      />
      {page.reconciliations.length === 0 ? <p className="card text-sm text-slate-600">{RECONCILIATION_MESSAGES.noReconciliations}</p> : null}

      <div className="flex flex-wrap items-end justify-between gap-3">
        <Pagination current={page.pagination.current_page} total={page.pagination.total_pages} hrefFor={(p) => hrefWith({ page: p === 1 ? null : String(p) })} label="Reconciliation pages" />
        <PageSizeForm label="Per page" value={page.pagination.per_page} />
      </div>

      {dialog ? <NoteDialog action={dialog.action} ids={dialog.ids} closeHref={here} error={result?.kind === "error" ? result.message : undefined} /> : null}
    </div>
  );
}

/** A filter select whose first choice is All (no filter). */
function AllSelect({ name, label, value, options }: { name: string; label: string; value: string | number | undefined; options: Array<{ value: string; name: string }> }) {
  return (
    <div>
      <label htmlFor={name} className="label">
        {label}
      </label>
      <select id={name} name={name} defaultValue={value ?? ""} className="input w-48">
        <option value="">All</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The note a bulk action asks for (reset asks only to confirm: it deletes the notes). */
function NoteDialog({ action, ids, closeHref, error }: { action: Action; ids: number[]; closeHref: string; error?: string }) {
  const label = ACTION_LABELS[action];
  const n = `${ids.length} reconciliation${ids.length === 1 ? "" : "s"}`;
  return (
    <ServerDialog title={`${label} ${n}`} closeHref={closeHref} returnFocusId={`bulk-${action}`} testId="bulk-dialog">
      <Form method="post" className="space-y-3">
        {ids.map((id) => (
          <input key={id} type="hidden" name="ids" value={id} />
        ))}
        <input type="hidden" name="action" value={action} />
        {action === "reset" ? (
          <p className="text-sm">Reset puts them back to Un-Reconciled and deletes their notes and reasons; the comparison is worked out again.</p>
        ) : action === "invoice" ? (
          <p className="text-sm">Invoice bills their customers at the sell costs; each customer invoice is numbered, rendered as a PDF and e-mailed to the customer&apos;s invoicing address.</p>
        ) : (
          <div>
            <label htmlFor="bulk-note" className="label">
              Note
            </label>
            <textarea id="bulk-note" name="note" maxLength={NOTE_MAX} rows={3} className="input w-full" autoFocus aria-invalid={error ? true : undefined} aria-describedby={error ? "bulk-note-error" : undefined} />
          </div>
        )}
        <FieldError id="bulk-note-error" errors={error ? [error] : undefined} />
        <div className="flex justify-end gap-2">
          <Link to={closeHref} className="btn" replace preventScrollReset>
            Cancel
          </Link>
          <button type="submit" name="intent" value="bulk" className="btn-primary" autoFocus={action === "reset" || action === "invoice"}>
            {label}
          </button>
        </div>
      </Form>
    </ServerDialog>
  );
}

/** What a bulk action did, line by line. */
function Outcome({ result }: { result: ListPageAction | undefined }) {
  if (!result || result.kind === "confirm") return null;
  if (result.kind === "error") {
    if (result.action && result.ids?.length) return null;
    return (
      <p role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-sm" data-testid="bulk-result">
        {result.message}
      </p>
    );
  }
  const { outcome, lines } = result;
  const name = (id: number) => lines[id] ?? `#${id}`;
  return (
    <div role="status" className={`rounded border px-3 py-2 text-sm ${outcome.done.length ? "border-green-300 bg-green-50" : "border-red-300 bg-red-50"}`} data-testid="bulk-result">
      <p>{outcome.message}</p>
      <ul className="list-inside list-disc">
        {outcome.done.map((d) => (
          <li key={`d${d.id}`}>
            {name(d.id)}: {STATE_LABELS[d.to]}
          </li>
        ))}
        {outcome.refused.map((r) => (
          <li key={`r${r.id}`}>
            {name(r.id)}: {r.message}
          </li>
        ))}
      </ul>
      {outcome.emails?.sent.map((s) => (
        <p key={s.to}>
          E-mailed {s.to} about {s.ids.length} line{s.ids.length === 1 ? "" : "s"}.
        </p>
      ))}
      {outcome.emails?.not_emailed.length ? <p>No support e-mail address for {outcome.emails.not_emailed.map(name).join(", ")}: the carrier was not e-mailed.</p> : null}
    </div>
  );
}
