import type { ReactNode } from "react";
import { costCategoryLabel } from "~/modules/invoices/schemas";

type Cost = { category: string; description: string; amount: number };
type Address = { name?: string | null; address_line_1?: string | null; locality?: string | null; region?: string | null; postcode?: string | null; country?: string | null } | null;

const money = (n: number) => `$${n.toFixed(2)}`;

/** a total and what it includes, e.g. ["Total (excluding GST)", 12.5] */
export type TotalRow = [label: string, amount: number];

function Costs({ costs, totals }: { costs: Cost[]; totals: TotalRow[] }) {
  if (!costs.length) return <p className="text-sm text-slate-600">No costs.</p>;
  return (
    <table className="w-full text-sm">
      <caption className="sr-only">Costs</caption>
      <thead className="text-left text-xs uppercase text-slate-500">
        <tr>
          <th className="py-1">Category</th>
          <th className="py-1">Description</th>
          <th className="py-1 text-right">Amount</th>
        </tr>
      </thead>
      <tbody>
        {costs.map((c, i) => (
          <tr key={i}>
            <td className="py-1">{costCategoryLabel(c.category)}</td>
            <td className="py-1">{c.description}</td>
            <td className="py-1 text-right tabular-nums">{c.amount.toFixed(2)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        {totals.map(([label, amount], i) => (
          <tr key={label} className={`font-semibold ${i === 0 ? "border-t border-slate-200" : ""}`}>
            <td className="py-1" colSpan={2}>
              {label}
            </td>
            <td className="py-1 text-right tabular-nums">{money(amount)}</td>
          </tr>
        ))}
      </tfoot>
    </table>
  );
}

function AddressBlock({ address }: { address: Address }) {
  if (!address) return <p className="text-sm text-slate-600">Not known.</p>;
  return (
    <address className="text-sm not-italic">
      {[address.name, address.address_line_1, [address.locality, address.region, address.postcode].filter(Boolean).join(" "), address.country].filter(Boolean).map((l, i) => (
        <span key={i} className="block">
          {l}
        </span>
      ))}
    </address>
  );
}

/**
 * One of the detail's three panels (consignment, invoice or customer invoice, re-rating), each
 * with its costs, rating info and the sender and receiver addresses in collapsible sections
 * (details/summary: open and closed by keyboard, no script needed).
 */
export function DetailPanel({
  title,
  status,
  disabled = false,
  costs,
  total,
  totals,
  info,
  sender,
  receiver,
  testId,
  children,
}: {
  title: string;
  status?: ReactNode;
  disabled?: boolean;
  costs: Cost[];
  total: number;
  /** the totals rows when more than the one without GST (each saying what it includes) */
  totals?: TotalRow[];
  info: Array<[string, ReactNode]>;
  sender: Address;
  receiver: Address;
  testId: string;
  children?: ReactNode;
}) {
  return (
    <section className={`card space-y-2 ${disabled ? "opacity-60" : ""}`} aria-labelledby={`${testId}-title`} aria-disabled={disabled || undefined} data-testid={testId}>
      <h2 id={`${testId}-title`} className="font-semibold">
        {title}
      </h2>
      {status}
      {children}
      <details open>
        <summary className="cursor-pointer text-sm font-medium">Costs</summary>
        <Costs costs={costs} totals={totals ?? [["Total (excluding GST)", total]]} />
      </details>
      <details>
        <summary className="cursor-pointer text-sm font-medium">Rating info</summary>
        <dl className="grid grid-cols-2 gap-1 text-sm">
          {info.map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="text-slate-500">{k}</dt>
              <dd className="tabular-nums">{v ?? "—"}</dd>
            </div>
          ))}
        </dl>
      </details>
      <details>
        <summary className="cursor-pointer text-sm font-medium">Sender address</summary>
        <AddressBlock address={sender} />
      </details>
      <details>
        <summary className="cursor-pointer text-sm font-medium">Receiver address</summary>
        <AddressBlock address={receiver} />
      </details>
    </section>
  );
}
