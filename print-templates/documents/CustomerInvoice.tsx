/**
 * A customer (receivable) invoice as A4 (issue 19 point 6): number, date, customer and billing
 * address; its lines with consignment number, despatch date, receiver, reference and their charges
 * by cost category ("Fuel levy" for fuel_charge, spec 3); subtotal, GST and total.
 */
import { renderToStaticMarkup } from "react-dom/server";
import type { PostalAddress } from "../../db/schema/tenancy";
import { costCategoryLabel, isoToDisplay } from "../../app/modules/invoices/schemas";
import { DocumentHead, documentHtml } from "./Documents";
import { formatKgCo2e } from "../../app/modules/emissions/method";

export interface CustomerInvoiceDocument {
  number: string;
  date: string | null;
  customerName: string;
  customerCode: string;
  billingAddress: PostalAddress | null;
  subtotal: string;
  gst: string;
  total: string;
  /** "GST", or null where none is charged (US) */
  taxName: string | null;
  /** the consignments' well-to-wheel kg CO2e (docs/decisions/041): a total line after the money, never a charge */
  emissions: { kg_co2e: number; consignments: number; without_figure: number } | null;
  lines: Array<{
    consignmentNumber: string | null;
    despatchDate: string | null;
    receiver: string;
    reference: string | null;
    charges: Array<{ category: string; description: string; amount: string }>;
    total: string;
  }>;
}

function Address({ a }: { a: PostalAddress | null }) {
  if (!a) return null;
  return (
    <div className="box">
      <div className="caption">Bill to</div>
      {[a.name, a.address_line_1, a.address_line_2, a.address_line_3, a.address_line_4].filter(Boolean).map((l, i) => (
        <div key={i}>{l}</div>
      ))}
      <div>{[a.sublocality, a.locality, a.region, a.postcode].filter(Boolean).join(" ")}</div>
      <div>{a.country}</div>
    </div>
  );
}

function CustomerInvoice({ d }: { d: CustomerInvoiceDocument }) {
  return (
    <section className="page">
      <DocumentHead title="Tax invoice" number={d.number}>
        <div className="strong">Invoice {d.number}</div>
        <div>Date {isoToDisplay(d.date)}</div>
        <div>
          {d.customerName} ({d.customerCode})
        </div>
      </DocumentHead>
      <Address a={d.billingAddress} />
      <table className="items">
        <thead>
          <tr>
            <th>Consignment</th>
            <th>Date</th>
            <th>Receiver</th>
            <th>Reference</th>
            <th>Charges</th>
            <th>Amount</th>
          </tr>
        </thead>
        <tbody>
          {d.lines.map((l, i) => (
            <tr key={i}>
              <td>{l.consignmentNumber}</td>
              <td>{isoToDisplay(l.despatchDate)}</td>
              <td>{l.receiver}</td>
              <td>{l.reference}</td>
              <td>
                {l.charges.map((c, j) => (
                  <div key={j}>
                    {costCategoryLabel(c.category)}: {c.amount}
                  </div>
                ))}
              </td>
              <td>{l.total}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th colSpan={5}>Subtotal</th>
            <th>{d.subtotal}</th>
          </tr>
          <tr>
            <th colSpan={5}>{d.taxName ?? "Tax (none charged)"}</th>
            <th>{d.gst}</th>
          </tr>
          <tr>
            <th colSpan={5}>Total</th>
            <th>{d.total}</th>
          </tr>
          {d.emissions && d.emissions.consignments > 0 ? (
            <tr>
              <th colSpan={5}>
                Emissions (kg CO2e), well-to-wheel, not a charge
                {d.emissions.without_figure ? ` (${d.emissions.without_figure} of ${d.emissions.consignments} consignments without a figure)` : ""}
              </th>
              <th>{formatKgCo2e(d.emissions.kg_co2e)}</th>
            </tr>
          ) : null}
        </tfoot>
      </table>
    </section>
  );
}

export function renderCustomerInvoiceHtml(d: CustomerInvoiceDocument): string {
  return documentHtml(`Invoice ${d.number}`, renderToStaticMarkup(<CustomerInvoice d={d} />));
}
