import { Link } from "@remix-run/react";
import type { InvoiceJson } from "~/modules/invoices/list.server";
import { isoToDisplay } from "~/modules/invoices/schemas";

interface Group {
  carrier_id: number | null;
  carrier_name: string;
  invoices: InvoiceJson[];
  total_cost: number;
  consignments: number;
}

const STATE_LABEL: Record<string, string> = { unallocated: "Unallocated", allocation_failure: "Allocation failed", allocated: "Allocated", exported: "Exported" };
export const stateLabel = (s: string) => STATE_LABEL[s] ?? s.charAt(0).toUpperCase() + s.slice(1).replaceAll("_", " ");

/**
 * Payable invoices grouped per carrier; each group expands (details/summary, so it works
 * without JavaScript). Row checkboxes name `invoice_ids`, the field the bulk actions read.
 */
export function InvoiceGroups({ groups, selectable }: { groups: Group[]; selectable: boolean }) {
  return (
    <div className="space-y-2" data-testid="invoice-groups">
      {groups.map((g) => (
        <details key={String(g.carrier_id)} open className="card p-0" data-testid="invoice-group">
          <summary className="cursor-pointer px-3 py-2 font-semibold">
            {g.carrier_name} <span className="font-normal text-slate-600">· {g.invoices.length} invoice{g.invoices.length === 1 ? "" : "s"} · {g.consignments} consignments · ${g.total_cost.toFixed(2)}</span>
          </summary>
          <table className="w-full text-sm">
            <caption className="sr-only">Invoices of {g.carrier_name}</caption>
            <thead className="border-y border-slate-200 text-left text-xs uppercase text-slate-500">
              <tr>
                {selectable ? <th className="w-8 px-3 py-2"><span className="sr-only">Choose</span></th> : null}
                <th className="px-3 py-2">Invoice number</th>
                <th className="px-3 py-2">Invoice date</th>
                <th className="px-3 py-2">State</th>
                <th className="px-3 py-2 text-right">Consignments</th>
                <th className="px-3 py-2 text-right">Allocated</th>
                <th className="px-3 py-2 text-right">Total</th>
                <th className="px-3 py-2 text-right">Cost</th>
                <th className="px-3 py-2"><span className="sr-only">Reconciliation</span></th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {g.invoices.map((i) => {
                const number = i.invoice_number ?? "Pending";
                return (
                  <tr key={i.id} data-testid="invoice-row">
                    {selectable ? (
                      <td className="px-3 py-2">
                        <input type="checkbox" name="invoice_ids" value={i.id} aria-label={`Choose invoice ${number}`} />
                      </td>
                    ) : null}
                    <td className="px-3 py-2">
                      <Link to={`/invoice/${i.id}`} className="text-sky-700 underline">
                        {number}
                      </Link>
                      {i.possible_duplicate_of ? (
                        <p className="text-xs font-semibold text-amber-800" data-testid="possible-duplicate">
                          {i.possible_duplicate_of.message}
                        </p>
                      ) : null}
                    </td>
                    <td className="px-3 py-2">{isoToDisplay(i.invoice_date)}</td>
                    <td className="px-3 py-2">{stateLabel(i.state)}</td>
                    <td className="px-3 py-2 text-right tabular-nums">{i.invoice_details_count}</td>
                    <td className="px-3 py-2 text-right tabular-nums">{i.invoice_details_allocated_count}</td>
                    <td className="px-3 py-2 text-right tabular-nums">${i.total.toFixed(2)}</td>
                    <td className="px-3 py-2 text-right tabular-nums">${i.total_cost.toFixed(2)}</td>
                    <td className="px-3 py-2 text-right">
                      {i.state === "allocated" ? (
                        <Link to={`/invoices/${i.id}/reconciliations`} aria-label={`Reconciliations of invoice ${number}`} className="text-sky-700">
                          <span aria-hidden>→</span>
                        </Link>
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </details>
      ))}
    </div>
  );
}
