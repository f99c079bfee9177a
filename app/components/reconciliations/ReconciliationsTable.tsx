import { Link } from "@remix-run/react";
import { useRef } from "react";
import { REASON_LABELS, type ColumnFilter, type OrderColumn } from "~/modules/reconciliation/list-schemas";
import type { ReconciliationRow } from "~/modules/reconciliation/list.server";

export const money = (n: number) => `${n < 0 ? "-" : ""}$${Math.abs(n).toFixed(2)}`;

const COLUMNS: Array<{ key: ColumnFilter; label: string; numeric?: boolean }> = [
  { key: "consignment_number", label: "Consignment number" },
  { key: "invoice_number", label: "Invoice number" },
  { key: "from_zone", label: "From zone" },
  { key: "to_zone", label: "To zone" },
  { key: "weight", label: "Weight", numeric: true },
  { key: "margin", label: "Margin", numeric: true },
  { key: "discrepancy", label: "Buy discrepancy", numeric: true },
];

/**
 * The list's table: a sort link and a filter input per column (the inputs belong to the filter
 * form by its id; typing submits it after 300 ms of quiet, spec 3 section 9), row checkboxes for
 * the bulk form, and the row's links (consignment, invoice, view).
 */
export function ReconciliationsTable({
  rows,
  filters,
  order,
  sortHref,
  filterFormId,
  bulkFormId,
  selectable,
  onTyped,
  onSelect,
}: {
  rows: ReconciliationRow[];
  filters: Partial<Record<ColumnFilter, string | number>>;
  order: { by: OrderColumn; direction: "asc" | "desc" };
  sortHref: (column: OrderColumn, direction: "asc" | "desc") => string;
  filterFormId: string;
  bulkFormId: string;
  selectable: boolean;
  onTyped: () => void;
  onSelect: () => void;
}) {
  const table = useRef<HTMLTableElement>(null);
  const selectAll = (checked: boolean) => {
    table.current?.querySelectorAll<HTMLInputElement>("input[name=ids]").forEach((box) => (box.checked = checked));
    onSelect();
  };
  return (
    <div className="card overflow-x-auto p-0">
      <table ref={table} className="w-full text-sm" data-testid="reconciliations">
        <caption className="sr-only">Reconciliations</caption>
        <thead className="border-b border-slate-200 text-left text-xs text-slate-500">
          <tr>
            {selectable ? (
              <th className="px-3 py-2">
                <input type="checkbox" aria-label="Select all reconciliations" onChange={(e) => selectAll(e.currentTarget.checked)} data-testid="select-all" />
              </th>
            ) : null}
            {COLUMNS.map((c) => {
              const sorted = order.by === c.key ? order.direction : null;
              const next = sorted === "asc" ? "desc" : "asc";
              return (
                <th key={c.key} className="px-3 py-2 uppercase" aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}>
                  <Link to={sortHref(c.key, next)} className="text-sky-700 underline" aria-label={`Sort by ${c.label}, ${next === "asc" ? "ascending" : "descending"}`}>
                    {c.label}
                    {sorted ? <span aria-hidden>{sorted === "asc" ? " ▲" : " ▼"}</span> : null}
                  </Link>
                </th>
              );
            })}
            <th className="px-3 py-2 uppercase">Issues</th>
            <th className="px-3 py-2">
              <span className="sr-only">View</span>
            </th>
          </tr>
          <tr>
            {selectable ? <td /> : null}
            {COLUMNS.map((c) => (
              <td key={c.key} className="px-3 pb-2">
                <input
                  form={filterFormId}
                  name={c.key}
                  defaultValue={filters[c.key] ?? ""}
                  inputMode={c.numeric ? "decimal" : undefined}
                  aria-label={`Filter by ${c.label}`}
                  className="input w-full min-w-20 py-1 text-xs"
                  onInput={onTyped}
                  data-testid={`filter-${c.key}`}
                />
              </td>
            ))}
            <td />
            <td />
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => {
            const number = r.consignment_number ?? "(none)";
            return (
              <tr key={r.id} data-testid="reconciliation-row">
                {selectable ? (
                  <td className="px-3 py-2">
                    <input type="checkbox" name="ids" value={r.id} form={bulkFormId} aria-label={`Choose ${number}`} onChange={onSelect} />
                  </td>
                ) : null}
                <td className="px-3 py-2">
                  {r.consignment_id ? (
                    <Link to={`/consignment/${r.consignment_id}`} className="text-sky-700 underline">
                      {number}
                    </Link>
                  ) : (
                    number
                  )}
                </td>
                <td className="px-3 py-2">
                  <Link to={`/invoice/${r.invoice_id}`} className="text-sky-700 underline">
                    {r.invoice_number ?? "Pending"}
                  </Link>
                </td>
                <td className="px-3 py-2">{r.from_zone}</td>
                <td className="px-3 py-2">{r.to_zone}</td>
                <td className="px-3 py-2 tabular-nums">{r.weight ?? ""}</td>
                <td className="px-3 py-2 tabular-nums">{money(r.margin)}</td>
                <td className="px-3 py-2 tabular-nums">{money(r.discrepancy_amount)}</td>
                <td className="px-3 py-2">{r.reason_categories.map((c) => REASON_LABELS[c]).join(", ")}</td>
                <td className="px-3 py-2">
                  <Link to={`/reconciliation/${r.id}`} className="btn py-1" aria-label={`View ${number}`}>
                    View
                  </Link>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
