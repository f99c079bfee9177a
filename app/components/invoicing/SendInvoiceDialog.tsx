import { Form, Link, useSubmit } from "@remix-run/react";
import { useRef, useState } from "react";
import { FieldError } from "~/components/Field";
import { ServerDialog } from "~/components/finance/ServerDialog";
import { isoToDisplay } from "~/modules/invoices/schemas";
import type { InvoiceableFilters, InvoiceableLine } from "~/modules/invoicing/receivable.server";
import { clickSelect, toggleAll } from "~/modules/invoicing/selection";
import { ScheduleFields } from "./ScheduleFields";

const COLUMNS = [
  ["consignment_number", "Consignment"],
  ["customer", "Customer"],
  ["receiver_name", "Receiver"],
  ["reference", "Reference"],
  ["despatch_date", "Despatch date"],
  ["total_cost", "Carrier cost"],
] as const;
const FILTERS = [
  ["consignment_number", "Consignment number", "text"],
  ["receiver_name", "Receiver name", "text"],
  ["despatch_date", "Despatch date", "date"],
  ["reference", "Reference", "text"],
] as const;

/**
 * The Send invoice modal (spec 3 "Invoices receivable"): the invoiceable lines with checkboxes
 * (shift-click for a range, select all), sortable columns, filters (debounced 300 ms with
 * JavaScript; a Filter button without), a detail per row, and the selection invoiced now or
 * scheduled. URL state (modal=invoice, l_ filters), so it works before JavaScript.
 */
export function SendInvoiceDialog({
  lines,
  filters,
  message,
  keep,
  closeHref,
  sortHref,
  errors,
  country,
  today,
  earliest,
}: {
  lines: InvoiceableLine[];
  filters: InvoiceableFilters;
  message: string | null;
  /** the page's own filters, carried by the modal's filter form */
  keep: Record<string, string>;
  closeHref: string;
  sortHref: (column: string) => string;
  errors: Record<string, string[]>;
  country: string;
  /** today in the reader's clock, and the first date a single run may take */
  today: string;
  earliest: string;
}) {
  const ids = lines.map((l) => l.id);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const anchor = useRef<number | null>(null);
  const submit = useSubmit();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const all = ids.length > 0 && ids.every((id) => selected.has(id));
  const onFilterInput = (form: HTMLFormElement) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => submit(form, { replace: true, preventScrollReset: true }), 300);
  };
  return (
    <ServerDialog title="Send invoice" closeHref={closeHref} returnFocusId="open-invoice" testId="send-invoice" wide>
      <Form method="get" className="flex flex-wrap items-end gap-2" aria-label="Invoiceable consignment filter" onInput={(e) => onFilterInput(e.currentTarget)}>
        {Object.entries(keep).map(([k, v]) => (
          <input key={k} type="hidden" name={k} value={v} />
        ))}
        <input type="hidden" name="modal" value="invoice" />
        <input type="hidden" name="l_order_by" value={filters.order_by} />
        <input type="hidden" name="l_order_direction" value={filters.order_direction} />
        {FILTERS.map(([name, label, type]) => (
          <div key={name} className="w-40">
            <label htmlFor={`l_${name}`} className="label">
              {label}
            </label>
            <input id={`l_${name}`} name={`l_${name}`} type={type} defaultValue={filters[name] ?? ""} className="input" />
          </div>
        ))}
        <button type="submit" className="btn">
          Filter
        </button>
      </Form>
      <Form method="post" className="space-y-3">
        {message ? (
          <p className="text-sm text-slate-600" data-testid="no-invoiceable">
            {message}
          </p>
        ) : (
          <table className="w-full text-sm" data-testid="invoiceable-lines">
            <caption className="sr-only">Invoiceable consignments</caption>
            <thead className="border-y border-slate-200 text-left text-xs uppercase text-slate-500">
              <tr>
                <th className="w-8 px-2 py-2">
                  <input type="checkbox" aria-label="Select all" checked={all} onChange={() => setSelected(toggleAll(ids, selected))} />
                </th>
                {COLUMNS.map(([col, label]) => {
                  const active = filters.order_by === col;
                  return (
                    <th key={col} className="px-2 py-2" aria-sort={active ? (filters.order_direction === "asc" ? "ascending" : "descending") : undefined}>
                      <Link to={sortHref(col)} replace preventScrollReset className="underline-offset-2 hover:underline">
                        {label}
                        {active ? <span aria-hidden>{filters.order_direction === "asc" ? " ▲" : " ▼"}</span> : null}
                      </Link>
                    </th>
                  );
                })}
                <th className="px-2 py-2">Carrier invoice</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {lines.map((l, index) => (
                <tr key={l.id} data-testid="invoiceable-row">
                  <td className="px-2 py-1 align-top">
                    <input
                      type="checkbox"
                      name="invoice_detail_ids"
                      value={l.id}
                      aria-label={`Choose consignment ${l.consignment_number ?? l.id}`}
                      checked={selected.has(l.id)}
                      onClick={(e) => {
                        const checked = e.currentTarget.checked;
                        setSelected(clickSelect(ids, selected, index, checked, anchor.current, e.shiftKey));
                        anchor.current = index;
                      }}
                      onChange={() => {}}
                    />
                  </td>
                  <td className="px-2 py-1 align-top">
                    <details>
                      <summary className="cursor-pointer">{l.consignment_number ?? "—"}</summary>
                      <dl className="mt-1 grid grid-cols-2 gap-x-2 text-xs text-slate-600">
                        <dt>Sender</dt>
                        <dd>{l.sender_name ?? "—"}</dd>
                        <dt>Receiver</dt>
                        <dd>{[l.receiver_name, l.receiver_locality, l.receiver_postcode].filter(Boolean).join(", ") || "—"}</dd>
                        <dt>Service</dt>
                        <dd>{l.service_description ?? "—"}</dd>
                        <dt>Charge weight</dt>
                        <dd>{l.total_charge_weight ?? "—"}</dd>
                      </dl>
                    </details>
                  </td>
                  <td className="px-2 py-1 align-top">{l.customer}</td>
                  <td className="px-2 py-1 align-top">{l.receiver_name}</td>
                  <td className="px-2 py-1 align-top">{l.reference}</td>
                  <td className="px-2 py-1 align-top">{isoToDisplay(l.despatch_date)}</td>
                  <td className="px-2 py-1 text-right align-top tabular-nums">${l.total_cost.toFixed(2)}</td>
                  <td className="px-2 py-1 align-top" data-testid="carrier-invoice">
                    {l.carrier_invoice_number ?? "—"} <span className="text-slate-600">{isoToDisplay(l.carrier_invoice_date)}</span>
                    {l.possible_duplicate ? <span className="ml-1 text-xs font-semibold text-amber-800">Possible duplicate</span> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <FieldError id="invoice_detail_ids-error" errors={errors.invoice_detail_ids ?? errors["options.invoice_detail_ids"]} />
        <p className="text-sm" aria-live="polite" data-testid="selected-count">
          {selected.size} selected
        </p>
        <details className="text-sm">
          <summary className="cursor-pointer">Bill a charge again (rebill)</summary>
          <p className="mt-1 text-slate-600">A consignment&apos;s charge is billed to its customer once. To bill it again, say why.</p>
          <label className="mt-1 flex items-center gap-2">
            <input type="checkbox" name="rebill" value="true" /> Rebill charges already billed
          </label>
          <label className="mt-1 block">
            Rebill note
            <input type="text" name="note" maxLength={255} className="input mt-1 w-full" aria-describedby="note-error" />
          </label>
          <FieldError id="note-error" errors={errors.note} />
        </details>
        <div className="flex flex-wrap justify-end gap-2">
          <Link to={closeHref} className="btn" replace>
            Cancel
          </Link>
          <button type="submit" name="intent" value="invoice" className="btn-primary">
            Invoice selected
          </button>
        </div>
        <ScheduleFields errors={errors} country={country} today={today} earliest={earliest} />
      </Form>
    </ServerDialog>
  );
}
