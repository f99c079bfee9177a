import type { AuditFigures as Figures } from "~/modules/invoices/audit.server";

const money = (n: number) => `$${n.toFixed(2)}`;
const pct = (f: Figures) => (f.matched_automatically_pct == null ? "—" : `${f.matched_automatically_pct.toFixed(1)}%`);

/** What the invoice audit found and won back (decision 029): one row per carrier, or one invoice's. */
export const AUDIT_COLUMNS = ["Lines", "Matched automatically", "Discrepancy found", "Disputed", "Recovered", "Duplicates caught"] as const;

function cells(f: Figures) {
  return [
    String(f.lines),
    `${f.matched_automatically} (${pct(f)})`,
    money(f.discrepancy_found),
    money(f.disputed),
    money(f.recovered),
    `${f.duplicates_caught.count} · ${money(f.duplicates_caught.amount)}`,
  ];
}

/** Per carrier over the list's period, under the payable list. */
export function CarrierAuditTable({ rows, period }: { rows: Array<Figures & { carrier_name: string; carrier_id: number | null }>; period: string }) {
  if (!rows.length) return null;
  return (
    <section aria-labelledby="audit-heading" className="card space-y-2" data-testid="carrier-audit">
      <h2 id="audit-heading" className="text-base font-semibold">
        Audit, {period}
      </h2>
      <div className="overflow-x-auto">
        <table className="w-full text-sm">
          <caption className="sr-only">What the invoice audit found and recovered per carrier, over every invoice the filters pick</caption>
          <thead>
            <tr className="text-left text-slate-600">
              <th scope="col">Carrier</th>
              {AUDIT_COLUMNS.map((c) => (
                <th key={c} scope="col" className="text-right">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.carrier_id ?? "none"} className="border-t">
                <th scope="row" className="text-left font-normal">
                  {r.carrier_name}
                </th>
                {cells(r).map((v, i) => (
                  <td key={AUDIT_COLUMNS[i]} className="text-right tabular-nums">
                    {v}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** One carrier invoice's figures, as terms beside its header. */
export function InvoiceAudit({ figures }: { figures: Figures }) {
  const values = cells(figures);
  return (
    <section aria-labelledby="invoice-audit-heading" className="card space-y-2" data-testid="invoice-audit">
      <h2 id="invoice-audit-heading" className="text-base font-semibold">
        Audit
      </h2>
      <dl className="grid grid-cols-2 gap-2 text-sm md:grid-cols-6">
        {AUDIT_COLUMNS.map((c, i) => (
          <div key={c}>
            <dt className="text-slate-500">{c}</dt>
            <dd className="tabular-nums">{values[i]}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
