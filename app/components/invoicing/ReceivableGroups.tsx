import { Link } from "@remix-run/react";
import { isoToDisplay } from "~/modules/invoices/schemas";
import type { ReceivableInvoice } from "~/modules/invoicing/receivable.server";

interface Group {
  customer_id: number | null;
  customer: string;
  invoices: ReceivableInvoice[];
  total: number;
  consignments: number;
}

const money = (n: number) => `$${n.toFixed(2)}`;

/**
 * Customer invoices grouped per customer (spec 3 "Invoices receivable"); each group expands
 * (details/summary, so it works without JavaScript). Each invoice opens its page and its PDF.
 */
export function ReceivableGroups({ groups }: { groups: Group[] }) {
  return (
    <div className="space-y-2" data-testid="receivable-groups">
      {groups.map((g) => (
        <details key={String(g.customer_id)} open className="card p-0" data-testid="receivable-group">
          <summary className="cursor-pointer px-3 py-2 font-semibold">
            {g.customer}{" "}
            <span className="font-normal text-slate-600">
              · {g.invoices.length} invoice{g.invoices.length === 1 ? "" : "s"} · {g.consignments} consignments · {money(g.total)}
            </span>
          </summary>
          <table className="w-full text-sm">
            <caption className="sr-only">Invoices of {g.customer}</caption>
            <thead className="border-y border-slate-200 text-left text-xs uppercase text-slate-500">
              <tr>
                <th className="px-3 py-2">Invoice number</th>
                <th className="px-3 py-2">Invoice date</th>
                <th className="px-3 py-2 text-right">Consignments</th>
                <th className="px-3 py-2 text-right">Subtotal</th>
                <th className="px-3 py-2 text-right">GST</th>
                <th className="px-3 py-2 text-right">Total</th>
                <th className="px-3 py-2">E-mailed</th>
                <th className="px-3 py-2">PDF</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {g.invoices.map((i) => {
                const number = i.invoice_number ?? "Pending";
                return (
                  <tr key={i.id} data-testid="receivable-row">
                    <td className="px-3 py-2">
                      <Link to={`/invoice/${i.id}`} className="text-sky-700 underline">
                        {number}
                      </Link>
                    </td>
                    <td className="px-3 py-2">{isoToDisplay(i.invoice_date)}</td>
                    <td className="px-3 py-2 text-right tabular-nums">{i.lines}</td>
                    <td className="px-3 py-2 text-right tabular-nums">{money(i.subtotal)}</td>
                    <td className="px-3 py-2 text-right tabular-nums">{money(i.gst)}</td>
                    <td className="px-3 py-2 text-right tabular-nums">{money(i.total)}</td>
                    <td className="px-3 py-2">{i.emailed_at ? "Yes" : "No"}</td>
                    <td className="px-3 py-2">
                      {i.has_pdf ? (
                        <a href={`/api/invoices/${i.id}/original_file`} className="text-sky-700 underline" aria-label={`PDF of invoice ${number}`}>
                          PDF
                        </a>
                      ) : (
                        "—"
                      )}
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
