import { Link } from "@remix-run/react";
import type { KeyboardEvent } from "react";
import { SORTS, stateLabel, type GroupKey, type SortKey } from "~/modules/consignments/list";
import { formatDate } from "~/modules/consignments/rules";
import type { Row } from "./types";

const COLUMNS: { key: SortKey; align?: "right" }[] = [
  { key: "consignment_number" },
  { key: "party_name" },
  { key: "despatch_date" },
  { key: "reference" },
  { key: "item_count", align: "right" },
  { key: "weight", align: "right" },
  { key: "volume", align: "right" },
  { key: "hazardous" },
];

/** One open group of the list: its rows with a checkbox each, sortable columns. */
export function GroupTable(props: {
  groupKey: GroupKey;
  label: string;
  rows: Row[];
  selected: Set<number>;
  showItemReferences: boolean;
  /** the All view mixes every state, so it says each row's */
  showState: boolean;
  sort: SortKey;
  dir: "asc" | "desc";
  sortHref: (key: SortKey) => string;
  countryOf: (siteCode: string) => string;
  onToggle: (id: number, shift: boolean) => void;
  onToggleAll: (on: boolean) => void;
}) {
  const { rows, selected } = props;
  const all = rows.length > 0 && rows.every((r) => selected.has(r.id));
  const some = rows.some((r) => selected.has(r.id));
  // the arrow keys move between the rows' checkboxes of the group
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    const boxes = [...(e.currentTarget.closest("tbody")?.querySelectorAll<HTMLInputElement>("input[name=ids]") ?? [])];
    const at = boxes.indexOf(e.currentTarget);
    const to = boxes[at + (e.key === "ArrowDown" ? 1 : -1)];
    if (to) {
      e.preventDefault();
      to.focus();
    }
  };
  return (
    <div className="overflow-x-auto border-t border-slate-200">
      <table className="w-full text-sm">
        <thead className="bg-slate-50 text-left text-xs uppercase text-slate-500">
          <tr>
            <th className="w-8 px-3 py-2">
              <input
                type="checkbox"
                aria-label={`Select all in ${props.label}`}
                checked={all}
                ref={(el) => {
                  if (el) el.indeterminate = some && !all;
                }}
                onChange={(e) => props.onToggleAll(e.currentTarget.checked)}
              />
            </th>
            {COLUMNS.map((c) => {
              const current = props.sort === c.key;
              return (
                <th key={c.key} className={`px-3 py-2 ${c.align === "right" ? "text-right" : ""}`} aria-sort={current ? (props.dir === "asc" ? "ascending" : "descending") : undefined}>
                  <Link to={props.sortHref(c.key)} className="hover:text-sky-800" preventScrollReset replace>
                    {SORTS[c.key].label}
                    {current ? <span aria-hidden>{props.dir === "asc" ? " ▲" : " ▼"}</span> : null}
                  </Link>
                </th>
              );
            })}
            {props.showState ? <th className="px-3 py-2">State</th> : null}
            {props.showItemReferences ? <th className="px-3 py-2">Item refs</th> : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => {
            const on = selected.has(r.id);
            return (
              <tr key={r.id} className={on ? "bg-sky-50" : undefined} data-testid="consignment-row" data-id={r.id}>
                <td className="select-none px-3 py-1.5">
                  <input
                    type="checkbox"
                    name="ids"
                    value={r.id}
                    checked={on}
                    aria-label={`Select ${r.consignment_number} ${r.party_name_full}`.trim()}
                    onChange={(e) => props.onToggle(r.id, (e.nativeEvent as MouseEvent).shiftKey === true)}
                    onKeyDown={onKeyDown}
                  />
                </td>
                <td className="px-3 py-1.5">
                  <Link to={r.url} className="text-sky-700 underline">
                    {r.consignment_number}
                  </Link>
                </td>
                <td className="px-3 py-1.5" title={r.party_name_full !== r.party_name ? r.party_name_full : undefined}>
                  {r.party_name}
                </td>
                <td className="px-3 py-1.5 tabular-nums">{formatDate(r.despatch_date, props.countryOf(r.site_code))}</td>
                <td className="px-3 py-1.5" title={r.reference_full !== r.reference ? r.reference_full : undefined}>
                  {r.reference}
                </td>
                <td className="px-3 py-1.5 text-right tabular-nums">{r.item_count}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{r.weight}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{r.volume}</td>
                <td className="px-3 py-1.5">{r.hazardous ? "Yes" : ""}</td>
                {props.showState ? (
                  <td className="px-3 py-1.5" data-testid="row-state">
                    {stateLabel(r.state, r.labels_printed)}
                  </td>
                ) : null}
                {props.showItemReferences ? (
                  <td className="px-3 py-1.5">
                    {r.item_references ? (
                      <span
                        title={r.item_references}
                        aria-label={`Item references: ${r.item_references}`}
                        className="inline-flex h-4 w-4 cursor-help items-center justify-center rounded-full border border-slate-400 text-[10px] font-semibold text-slate-600"
                        data-testid="item-references"
                      >
                        i
                      </span>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
