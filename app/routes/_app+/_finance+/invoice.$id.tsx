import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useEffect } from "react";
import { AllocationOutcome } from "~/components/finance/AllocationOutcome";
import { InvoiceAudit } from "~/components/finance/AuditFigures";
import { LineDetailDialog } from "~/components/finance/LineDetailDialog";
import { PageSizeForm } from "~/components/finance/PageSizeForm";
import { stateLabel } from "~/components/finance/InvoiceGroups";
import { canAdministerInvoices } from "~/modules/invoices/access";
import { getLine, lineChoices, searchLines, updateLine } from "~/modules/invoices/details.server";
import { exportInvoices } from "~/modules/invoices/export.server";
import { requireFinanceUser } from "~/modules/invoices/guard.server";
import { getInvoice } from "~/modules/invoices/list.server";
import { INVOICE_MESSAGES, isoToDisplay } from "~/modules/invoices/schemas";
import { updateUserOptions } from "~/modules/users/options.server";
import { AppError } from "~/utils/errors";
import { readForm } from "~/utils/http.server";
import { idParam } from "~/utils/validation";
import { formatKgCo2e } from "~/modules/emissions/method";
import { throwIfAccessError } from "~/utils/ui.server";

export const meta: MetaFunction = () => [{ title: "Invoice · FreightDesk" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireFinanceUser(context, request);
  const q = new URL(request.url).searchParams;
  try {
    const id = idParam(params.id, "Invoice id");
    const invoice = await getInvoice(context.db, user, id);
    const perPage = user.options.invoice_details_per_page ?? 20;
    const state = q.get("state") ?? "all";
    const lines = await searchLines(context.db, user, { invoice_id: id, state, page: q.get("page") ?? 1, per_page: perPage, order_by: q.get("order_by") ?? undefined, order_direction: q.get("order_direction") ?? undefined });
    const detailId = q.get("detail");
    const line = detailId ? await getLine(context.db, user, id, idParam(detailId, "Invoice detail id")) : null;
    const choices = line ? await lineChoices(context.db, user, line.customer_id, line.carrier_id) : null;
    return { invoice, lines, state, perPage, line, choices, canAdmin: canAdministerInvoices(user) };
  } catch (e) {
    throwIfAccessError(e);
    if (e instanceof AppError) throw data({ message: e.message }, { status: e.status });
    throw e;
  }
}

type ActionData = { message?: string; errors?: Record<string, string[]>; download?: string; ok?: boolean };

/** Page size (saved as the user option invoice_details_per_page), Export, and saving a line. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user } = await requireFinanceUser(context, request);
  const id = idParam(params.id, "Invoice id");
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const url = new URL(request.url);
  try {
    if (intent === "per_page") {
      await updateUserOptions(context.db, user, user.id, { options: { invoice_details_per_page: form.get("per_page") } });
      url.searchParams.delete("page");
      return redirect(url.pathname + url.search);
    }
    if (intent === "export") {
      const out = await exportInvoices(context.db, user, { ids: [id], format: String(form.get("format") ?? "csv") });
      if (out.kind === "accounting") return { message: out.message, ok: out.skipped.length === 0 } satisfies ActionData;
      return { message: "The invoice was exported.", download: `/invoices_payable/download/${out.file}`, ok: true } satisfies ActionData;
    }
    if (intent === "save_line") {
      const fields = Object.fromEntries([...form.entries()].filter(([k]) => !["intent", "detail_id", "invoice_ids", "redirectTo"].includes(k)).map(([k, v]) => [k, String(v)]));
      fields.dangerous_goods = form.get("dangerous_goods") === "true" ? "true" : "false";
      await updateLine(context.db, user, id, idParam(String(form.get("detail_id") ?? ""), "Invoice detail id"), fields);
      return { message: INVOICE_MESSAGES.lineSaved, ok: true } satisfies ActionData;
    }
    throw new AppError("bad_request", "Unknown action");
  } catch (e) {
    throwIfAccessError(e);
    if (!(e instanceof AppError)) throw e;
    return data({ message: e.message, errors: e.fieldErrors } satisfies ActionData, { status: e.status });
  }
}

const COLUMNS = ["Line", "Consignment number", "Receiver", "Despatch date", "Weight", "Volume", "Cost", "State"];

export default function InvoicePage() {
  const { invoice, lines, state, perPage, line, choices, canAdmin } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionData | undefined;
  const location = useLocation();
  useEffect(() => {
    if (result?.download) window.location.assign(result.download);
  }, [result?.download]);
  const payable = invoice.accounting_type === "payable";
  const params = new URLSearchParams(location.search);
  const withParams = (changes: Record<string, string | null>) => {
    const p = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v == null) p.delete(k);
      else p.set(k, v);
    }
    const s = p.toString();
    return `/invoice/${invoice.id}${s ? `?${s}` : ""}`;
  };
  const counters = payable ? (["all", "allocated", "unallocated"] as const) : (["all", "invoiced"] as const);
  const number = invoice.invoice_number ?? "Pending";
  const pg = lines.pagination;
  return (
    <div className="space-y-4" data-testid="invoice-page">
      <h1 className="text-xl font-semibold">
        {stateLabel(invoice.state)} {invoice.accounting_type} invoice {number}
      </h1>
      <AllocationOutcome />
      <dl className="card grid grid-cols-2 gap-2 text-sm md:grid-cols-4">
        <div>
          <dt className="text-slate-500">{payable ? "Carrier" : "Customer"}</dt>
          <dd>{(payable ? invoice.carrier_name : invoice.customer) ?? "—"}</dd>
        </div>
        <div>
          <dt className="text-slate-500">Invoice date</dt>
          <dd>{isoToDisplay(invoice.invoice_date) || "—"}</dd>
        </div>
        <div>
          <dt className="text-slate-500">Total</dt>
          <dd className="tabular-nums">${invoice.total.toFixed(2)}</dd>
        </div>
        <div>
          <dt className="text-slate-500">Total cost of lines</dt>
          <dd className="tabular-nums">${invoice.total_cost.toFixed(2)}</dd>
        </div>
        {invoice.emissions ? (
          <div data-testid="invoice-emissions">
            <dt className="text-slate-500">Emissions (kg CO2e)</dt>
            <dd className="tabular-nums">
              {formatKgCo2e(invoice.emissions.kg_co2e)} <span className="text-xs text-slate-600">not a charge{invoice.emissions.without_figure ? `; ${invoice.emissions.without_figure} of ${invoice.emissions.consignments} consignment(s) without a figure` : ""}</span>
            </dd>
          </div>
        ) : null}
        {payable && invoice.duplicates_caught ? (
          <div data-testid="duplicates-caught">
            <dt className="text-slate-500">Duplicates caught</dt>
            <dd className="tabular-nums">
              {invoice.duplicates_caught.count} · ${invoice.duplicates_caught.amount.toFixed(2)}
            </dd>
          </div>
        ) : null}
        {invoice.possible_duplicate_of ? (
          <div className="col-span-2">
            <dt className="text-slate-500">Duplicate check</dt>
            <dd className="font-semibold text-amber-800">
              <Link to={`/invoice/${invoice.possible_duplicate_of.invoice_id}`} className="underline">
                {invoice.possible_duplicate_of.message}
              </Link>
            </dd>
          </div>
        ) : null}
        {invoice.exported_at ? (
          <div>
            <dt className="text-slate-500">Exported</dt>
            <dd>{isoToDisplay(invoice.exported_at.slice(0, 10))}</dd>
          </div>
        ) : null}
      </dl>
      {payable && invoice.audit ? <InvoiceAudit figures={invoice.audit} /> : null}
      <div className="flex flex-wrap items-end gap-2">
        {invoice.original_file_name ? (
          <a href={`/api/invoices/${invoice.id}/original_file`} className="btn" download>
            {payable ? "Original file" : "PDF"}
          </a>
        ) : null}
        {canAdmin ? (
          <Form method="post" className="flex items-end gap-2">
            <label className="text-sm">
              <span className="sr-only">Export format</span>
              <select name="format" className="input" defaultValue="csv">
                <option value="csv">CSV</option>
                <option value="xlsx">XLSX</option>
                <option value="accounting">{payable ? "Accounting (bill)" : "Accounting (sales invoice)"}</option>
              </select>
            </label>
            <button type="submit" name="intent" value="export" className="btn">
              Export
            </button>
          </Form>
        ) : null}
        {canAdmin && payable ? (
          <Form method="post" action="/invoices/allocate">
            <input type="hidden" name="invoice_ids" value={invoice.id} />
            <input type="hidden" name="redirectTo" value={`/invoice/${invoice.id}`} />
            <button type="submit" className="btn">
              Allocate
            </button>
          </Form>
        ) : null}
      </div>
      {result?.message && !line ? (
        <div role={result.ok ? "status" : "alert"} className={`rounded border px-3 py-2 text-sm ${result.ok ? "border-green-300 bg-green-50" : "border-red-300 bg-red-50"}`} data-testid="invoice-message">
          {result.message} {result.download ? <a href={result.download}>Download the export</a> : null}
        </div>
      ) : null}
      <div className="flex flex-wrap items-end justify-between gap-2">
        <nav aria-label="Line states" className="flex gap-2">
          {counters.map((s) => (
            <Link key={s} to={withParams({ state: s === "all" ? null : s, page: null, detail: null })} aria-current={state === s ? "page" : undefined} className={`rounded border px-3 py-1 text-sm ${state === s ? "border-sky-600 bg-sky-50 font-semibold" : "border-slate-300"}`} data-testid={`line-count-${s}`}>
              {s.charAt(0).toUpperCase() + s.slice(1)} ({lines.meta.counts[s]})
            </Link>
          ))}
        </nav>
        <PageSizeForm label="Lines per page" value={perPage} />
      </div>
      {lines.invoice_details.length === 0 ? (
        <p className="card text-sm text-slate-600">{INVOICE_MESSAGES.noLines}</p>
      ) : (
        <div className="card overflow-x-auto p-0">
          <table className="w-full text-sm" data-testid="invoice-lines">
            <caption className="sr-only">Consignments of invoice {number}</caption>
            <thead className="border-b border-slate-200 text-left text-xs uppercase text-slate-500">
              <tr>
                {COLUMNS.map((c) => (
                  <th key={c} className="px-3 py-2">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {lines.invoice_details.map((d) => (
                <tr key={d.id} data-testid="line-row">
                  <td className="px-3 py-2 tabular-nums">{d.line_number}</td>
                  <td className="px-3 py-2">
                    <Link id={`line-${d.id}`} to={withParams({ detail: String(d.id) })} preventScrollReset className="text-sky-700 underline">
                      {d.consignment_number ?? "(none)"}
                    </Link>
                  </td>
                  <td className="px-3 py-2">{d.receiver_name}</td>
                  <td className="px-3 py-2">{isoToDisplay(d.despatch_date)}</td>
                  <td className="px-3 py-2 tabular-nums">{d.total_charge_weight ?? d.total_weight_in_uom ?? ""}</td>
                  <td className="px-3 py-2 tabular-nums">{d.total_volume_in_uom_cubed ?? ""}</td>
                  <td className="px-3 py-2 tabular-nums">${d.total_cost.toFixed(2)}</td>
                  <td className="px-3 py-2">{stateLabel(d.state)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pg.total_pages > 1 ? (
        <nav aria-label="Pages" className="flex gap-2 text-sm">
          {pg.current_page > 1 ? <Link to={withParams({ page: String(pg.current_page - 1), detail: null })}>Previous</Link> : null}
          <span>
            Page {pg.current_page} of {pg.total_pages}
          </span>
          {pg.current_page < pg.total_pages ? <Link to={withParams({ page: String(pg.current_page + 1), detail: null })}>Next</Link> : null}
        </nav>
      ) : null}
      {line && choices ? (
        <LineDetailDialog
          line={line}
          choices={choices}
          hrefFor={(d) => withParams({ detail: String(d) })}
          closeHref={withParams({ detail: null })}
          canEdit={canAdmin && payable && line.state !== "exported"}
          errors={result?.errors && !result.ok ? result.errors : {}}
          message={result?.ok ? result.message : undefined}
          redirectTo={withParams({})}
        />
      ) : null}
    </div>
  );
}
