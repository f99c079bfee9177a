import { Form, Link, useSubmit } from "@remix-run/react";
import { useRef, type ChangeEvent } from "react";
import { DATE_FILTERS, DATE_FILTER_LABELS, WIDE_COUNT, listUrl, type ListFilter } from "~/modules/consignments/list";
import { formatDate } from "~/modules/consignments/rules";
import type { ListData } from "./types";

const COUNTERS: { filter: ListFilter; label: string; count?: "not_ready" | "labels_to_print" | "ready" }[] = [
  { filter: "metadata", label: "All" },
  { filter: "incomplete", label: "Not Ready", count: "not_ready" },
  { filter: "labels_to_print", label: "Labels to print", count: "labels_to_print" },
  { filter: "complete", label: "Ready to despatch", count: "ready" },
  { filter: "despatched", label: "Despatched" },
  { filter: "failed", label: "Failed" },
];

/** The site and despatch date filters (remembered as the user's options), and the lists with their counters. */
export function ListFilters({ data, hydrated, countryOf }: { data: ListData; hydrated: boolean; countryOf: (siteCode: string) => string }) {
  const { view, counters } = data;
  const submit = useSubmit();
  // the site and date selects remember the choice (a POST) as soon as they change
  const filterTimer = useRef<ReturnType<typeof setTimeout>>();
  const onFilterChange = (e: ChangeEvent<HTMLFormElement>) => {
    if (!hydrated) return;
    const form = e.currentTarget;
    clearTimeout(filterTimer.current);
    filterTimer.current = setTimeout(() => submit(form, { preventScrollReset: true }), 50);
  };

  return (
    <div className="flex flex-wrap items-end justify-between gap-3">
      <Form method="post" className="flex flex-wrap items-end gap-3" onChange={onFilterChange} key={`${view.site}-${view.dateFilter}`} preventScrollReset>
        <input type="hidden" name="intent" value="filters" />
        <input type="hidden" name="filter" value={view.filter} />
        <label className="text-sm">
          <span className="label">Current site</span>
          <select name="site" defaultValue={view.site ?? "all"} className="input">
            <option value="all">All</option>
            {data.sites.map((s) => (
              <option key={s.code} value={s.code}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          <span className="label">Despatch date</span>
          <select name="dateFilter" defaultValue={view.dateFilter} className="input">
            {DATE_FILTERS.map((f) => (
              <option key={f} value={f}>
                {DATE_FILTER_LABELS[f]}
              </option>
            ))}
          </select>
        </label>
        {hydrated ? null : (
          <button type="submit" className="btn">
            Apply
          </button>
        )}
        <span className="pb-2 text-xs text-slate-500" data-testid="date-range">
          {formatDate(data.range.start, countryOf(view.site ?? ""))}
          {data.range.end !== data.range.start ? ` – ${formatDate(data.range.end, countryOf(view.site ?? ""))}` : ""}
        </span>
      </Form>
      <nav aria-label="Consignment filters" className="flex flex-wrap gap-1">
        {COUNTERS.map((c) => {
          const n = c.count ? counters[c.count] : null;
          const current = view.filter === c.filter;
          return (
            <Link
              key={c.filter}
              to={listUrl({ ...view, filter: c.filter, after: {} })}
              aria-current={current ? "page" : undefined}
              className={`inline-flex items-center gap-2 rounded border px-3 py-1.5 text-sm ${current ? "border-sky-700 bg-sky-700 text-white" : "border-slate-300 bg-white hover:bg-slate-50"}`}
              data-testid={`filter-${c.filter}`}
            >
              {c.label}
              {n != null ? (
                <span
                  className={`rounded-full px-2 text-center text-xs font-semibold tabular-nums ${n >= WIDE_COUNT ? "counter-wide min-w-[4.5rem]" : "min-w-[2rem]"} ${current ? "bg-white text-sky-800" : "bg-slate-100 text-slate-800"}`}
                  data-testid={`count-${c.filter}`}
                  data-wide={n >= WIDE_COUNT ? "true" : undefined}
                >
                  {n}
                </span>
              ) : null}
            </Link>
          );
        })}
      </nav>
    </div>
  );
}
