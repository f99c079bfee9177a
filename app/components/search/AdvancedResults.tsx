import { Link } from "@remix-run/react";
import { formatDisplayDate } from "~/modules/calendar/display-date";
import { ADVANCED_SORTS, DEFAULT_ADVANCED_SORT, NO_RESULTS, REFINE, nextSort, stateText, type AdvancedRow, type AdvancedSort } from "~/modules/search/search";

interface Props {
  result: { consignments: AdvancedRow[]; meta: { truncated: boolean; query: { sort: AdvancedSort; dir: "asc" | "desc" } } };
  /** the criteria as in the URL: a header's link keeps them and changes the sort */
  criteria: Record<string, string | undefined>;
  country: string;
}

const money = (n: number | null) => (n == null ? "" : `$${n.toFixed(2)}`);

/** The advanced search's rows: sortable headers (links, so the sort lives in the URL), a link per active row. */
export function AdvancedResults({ result, criteria, country }: Props) {
  const { sort, dir } = result.meta.query;
  const sortHref = (key: AdvancedSort) => {
    const next = nextSort({ sort, dir }, key);
    const q = new URLSearchParams(Object.entries(criteria).filter((e): e is [string, string] => Boolean(e[1])));
    q.set("sort", next.sort);
    q.set("dir", next.dir);
    return `/advanced?${q.toString()}`;
  };
  if (!result.consignments.length) {
    return (
      <div className="card">
        <p className="text-sm text-slate-600" role="status">
          {NO_RESULTS}
        </p>
      </div>
    );
  }
  const cell = "px-3 py-1.5";
  return (
    <div className="card space-y-2 p-0">
      <p className="px-3 pt-2 text-sm text-slate-600" role="status" data-testid="result-count">
        {result.consignments.length} consignment{result.consignments.length === 1 ? "" : "s"}
        {result.meta.truncated ? `. ${REFINE}` : ""}
      </p>
      <div className="overflow-x-auto">
        <table className="w-full text-sm" data-testid="advanced-results">
          <caption className="sr-only">Search results{sort !== DEFAULT_ADVANCED_SORT || dir !== "desc" ? `, sorted by ${ADVANCED_SORTS[sort]} ${dir === "asc" ? "ascending" : "descending"}` : ""}</caption>
          <thead className="border-b border-slate-200 text-left text-xs uppercase text-slate-500">
            <tr>
              {(Object.keys(ADVANCED_SORTS) as AdvancedSort[]).map((key) => (
                <th key={key} className={`${cell} ${key === "total_quantity" ? "text-right" : ""}`} aria-sort={sort === key ? (dir === "asc" ? "ascending" : "descending") : undefined}>
                  <Link to={sortHref(key)} className="hover:text-sky-800" preventScrollReset>
                    {ADVANCED_SORTS[key]}
                    {sort === key ? <span aria-hidden>{dir === "asc" ? " ▲" : " ▼"}</span> : null}
                  </Link>
                </th>
              ))}
              <th className={cell}>Custom reference</th>
              <th className={cell}>Receiver locality</th>
              <th className={`${cell} text-right`}>Rate</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {result.consignments.map((r) => (
              <tr key={r.id} data-testid="advanced-row" data-id={r.id}>
                <td className={cell}>
                  {/* inactive (deleted, merged) consignments are shown without a link (spec 1 section 4) */}
                  {r.url ? (
                    <Link to={r.url} className="text-sky-700 underline">
                      {r.consignment_number}
                    </Link>
                  ) : (
                    r.consignment_number
                  )}
                </td>
                <td className={cell}>{r.reference}</td>
                <td className={cell}>{r.receiver_name}</td>
                <td className={cell}>{formatDisplayDate(r.despatch_date, country)}</td>
                <td className={cell}>{stateText(r.state)}</td>
                <td className={cell}>{r.carrier_name}</td>
                <td className={cell}>{r.service_name}</td>
                <td className={`${cell} text-right`}>{r.total_quantity}</td>
                <td className={cell}>{r.custom_reference}</td>
                <td className={cell}>{[r.receiver_locality, r.receiver_postcode].filter(Boolean).join(" ")}</td>
                <td className={`${cell} text-right`}>{money(r.service_rate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
