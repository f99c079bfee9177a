import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useFetcher, useLoaderData, useRevalidator, useSubmit } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState, type ChangeEvent, type KeyboardEvent } from "react";
import { Alerts, type Alert } from "~/components/Alerts";
import { JobProgress, type JobStatusJson } from "~/components/JobProgress";
import { despatchRunning } from "~/modules/despatch/progress";
import { AutoLabelsDialog } from "~/components/consignment-list/AutoLabelsDialog";
import { printLabelDocument, printerFor, showIn, waitForManifests } from "~/components/consignment-list/printing";
import { listAction, listLoader } from "~/modules/consignments/list-screen.server";
import {
  DATE_FILTERS,
  DATE_FILTER_LABELS,
  DESPATCH_PAUSE_MS,
  EMPTY_LIST,
  NO_MANIFESTS,
  SORTS,
  WIDE_COUNT,
  canDespatchIn,
  stateLabel,
  canPrintLabelsIn,
  listUrl,
  manifestFailed,
  selectRange,
  sortBy,
  toggleGroup,
  type GroupKey,
  type ListFilter,
  type SortKey,
} from "~/modules/consignments/list";
import { formatDate } from "~/modules/consignments/rules";
import { printMessages } from "~/modules/printing/messages";
import { apiFetch } from "~/utils/api-client";

export const meta: MetaFunction = () => [{ title: "Consignments · FreightDesk" }];

/** /consignments/{filter?}/{dateFilter?}: the consignment lists (spec 1 section 2). */
// functions, not module-level calls: the browser bundle keeps top-level calls, and *.server is empty there
export function loader(args: LoaderFunctionArgs) {
  return listLoader(args);
}
export function action(args: ActionFunctionArgs) {
  return listAction(args);
}

/** Keys of the list (shown in its footer, and in the README). */
export const LIST_SHORTCUTS = [
  { keys: "Space", action: "Select (Shift+Space or Shift+click: a range)" },
  { keys: "↑ ↓", action: "Previous / next row" },
  { keys: "Alt+L", action: "Print Labels" },
  { keys: "Alt+D", action: "Despatch" },
  { keys: "Alt+M", action: "Despatch + Print Manifest" },
] as const;

type Data = ReturnType<typeof useLoaderData<typeof loader>>;
type Row = NonNullable<Data["groups"][number]["rows"]>[number];

interface DespatchInfo {
  manifest_ids?: number[];
  auspost_manifest_ids?: number[];
  despatched?: number[];
  failed?: number[];
}
type Job = JobStatusJson & { info?: DespatchInfo | null };

const COUNTERS: { filter: ListFilter; label: string; count?: "not_ready" | "labels_to_print" | "ready" }[] = [
  { filter: "metadata", label: "All" },
  { filter: "incomplete", label: "Not Ready", count: "not_ready" },
  { filter: "labels_to_print", label: "Labels to print", count: "labels_to_print" },
  { filter: "complete", label: "Ready to despatch", count: "ready" },
  { filter: "despatched", label: "Despatched" },
  { filter: "failed", label: "Failed" },
];

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

export default function ConsignmentList() {
  const data = useLoaderData<typeof loader>();
  const outcome = useActionData<typeof action>();
  const { view, counters, groups } = data;
  const submit = useSubmit();
  const revalidator = useRevalidator();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  const [selected, setSelected] = useState<Set<number>>(new Set());
  const anchor = useRef<{ group: GroupKey; id: number } | null>(null);
  const [alerts, setAlerts] = useState<Alert[]>([]);
  const addAlerts = useCallback((...more: Alert[]) => setAlerts((list) => [...list, ...more]), []);
  const [job, setJob] = useState<{ id: string; printManifest: boolean; tab: Window | null } | null>(null);
  const [manifestUrl, setManifestUrl] = useState<string | null>(null);
  const [paused, setPaused] = useState(false);
  const [autoOpen, setAutoOpen] = useState(false);

  // "Show more" with JavaScript adds the next page under the rows shown
  const more = useFetcher<typeof loader>();
  const [extra, setExtra] = useState<Partial<Record<GroupKey, { rows: Row[]; next: string | null }>>>({});
  const moreFor = useRef<GroupKey | null>(null);
  useEffect(() => setExtra({}), [data]);
  useEffect(() => {
    const key = moreFor.current;
    if (more.state !== "idle" || !more.data || !key) return;
    moreFor.current = null;
    const g = more.data.groups.find((x) => x.key === key);
    setExtra((e) => ({ ...e, [key]: { rows: [...(e[key]?.rows ?? []), ...(g?.rows ?? [])], next: g?.next ?? null } }));
  }, [more.state, more.data]);
  const rowsOf = (key: GroupKey, rows: Row[] | null) => [...(rows ?? []), ...(extra[key]?.rows ?? [])];
  const nextOf = (key: GroupKey, next: string | null) => (extra[key] ? extra[key]!.next : next);

  // what is no longer listed (deleted, despatched, another filter) is no longer selected
  useEffect(() => {
    const visible = new Set(groups.flatMap((g) => (g.rows ?? []).map((r) => r.id)));
    setSelected((s) => new Set([...s].filter((id) => visible.has(id))));
  }, [groups]);

  const selectedRef = useRef(selected);
  selectedRef.current = selected;
  const countryOf = (siteCode: string) => data.sites.find((s) => s.code === siteCode)?.country ?? "AUSTRALIA";
  const printable = canPrintLabelsIn(view.filter);
  const despatchable = canDespatchIn(view.filter);

  const toggle = (key: GroupKey, order: number[], id: number, shift: boolean) => {
    const checked = !selectedRef.current.has(id);
    const from = shift && anchor.current?.group === key ? anchor.current.id : null;
    setSelected((s) => selectRange(order, s, from, id, checked));
    anchor.current = { group: key, id };
  };

  const printLabels = useCallback(async () => {
    if (!canPrintLabelsIn(view.filter)) return;
    const ids = [...selectedRef.current];
    if (!ids.length) return addAlerts({ type: "error", message: "No consignments have been selected." });
    // opened now, while the key press or click still counts as the user's
    const tab = window.open("about:blank", "_blank");
    const printer = await printerFor("Label", "consignment", ids);
    if (!printer.ok) {
      tab?.close();
      return addAlerts({ type: "error", message: printer.message });
    }
    const doc = await printLabelDocument(ids, printer.data.printer.format);
    if (!doc.ok) {
      tab?.close();
      return addAlerts({ type: "error", message: doc.message });
    }
    showIn(tab, doc.url);
    addAlerts({ type: "info", message: `${printMessages.sent(doc.labels)} (${printer.data.printer.name})` });
    revalidator.revalidate();
  }, [view.filter, addAlerts, revalidator]);

  const despatch = useCallback(
    async (printManifest: boolean) => {
      if (!canDespatchIn(view.filter) || paused) return;
      const ids = [...selectedRef.current];
      const tab = printManifest && ids.length ? window.open("about:blank", "_blank") : null;
      setPaused(true);
      setTimeout(() => setPaused(false), DESPATCH_PAUSE_MS);
      const res = await apiFetch<{ job_id: string }>("/api/consignments/despatch_all", { method: "PUT", json: { ids } });
      if (!res.ok) {
        tab?.close();
        // a selection that cannot all be despatched is refused with a warning (spec 1 section 5)
        return addAlerts({ type: res.status === 409 ? "warning" : "error", message: res.message });
      }
      setManifestUrl(null);
      setJob({ id: res.data.job_id, printManifest, tab });
    },
    [view.filter, paused, addAlerts],
  );

  /** The end of a despatch: its errors, the no-manifest warning, then the manifests to print. */
  const despatchDone = async (done: Job, printManifest: boolean, tab: Window | null) => {
    const info = done.info ?? {};
    const manifests = info.manifest_ids ?? [];
    // the All view keeps despatched rows listed: untick them so Despatch is not offered for them again
    const gone = new Set(Array.isArray(info.despatched) ? info.despatched : []);
    if (gone.size) setSelected((s) => new Set([...s].filter((id) => !gone.has(id))));
    const next: Alert[] = [];
    if (done.status === "failed") {
      next.push({ type: "error", message: done.message || "Despatch failed." }, ...done.errors.map((message) => ({ type: "error" as const, message })));
      setJob(null);
    }
    if (!manifests.length) next.push({ type: "warning", message: NO_MANIFESTS });
    addAlerts(...next);
    revalidator.revalidate();
    if (!printManifest || !manifests.length) {
      tab?.close();
      return;
    }
    const { failed } = await waitForManifests(info.auspost_manifest_ids ?? [], { stopped: false });
    if (failed.length) addAlerts(...failed.map((id) => ({ type: "error" as const, message: manifestFailed(id) })));
    const printer = await printerFor("Manifest", "manifest", manifests);
    if (!printer.ok) {
      tab?.close();
      return addAlerts({ type: "error", message: printer.message });
    }
    if (tab) showIn(tab, printer.data.url);
    else setManifestUrl(printer.data.url);
    addAlerts({ type: "info", message: `${printMessages.sent(manifests.length, "manifest")} (${printer.data.printer.name})` });
  };

  // Alt shortcuts work anywhere on the list (not while the Auto Labels dialog is open)
  const keys = useRef({ printLabels, despatch, autoOpen });
  keys.current = { printLabels, despatch, autoOpen };
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey || keys.current.autoOpen) return;
      const key = e.code.replace(/^Key/, "").toLowerCase() || e.key.toLowerCase();
      if (key === "d" || key === "m") {
        e.preventDefault();
        void keys.current.despatch(key === "m");
      } else if (key === "l") {
        e.preventDefault();
        void keys.current.printLabels();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  // the site and date selects remember the choice (a POST) as soon as they change
  const filterTimer = useRef<ReturnType<typeof setTimeout>>();
  const onFilterChange = (e: ChangeEvent<HTMLFormElement>) => {
    if (!hydrated) return;
    const form = e.currentTarget;
    clearTimeout(filterTimer.current);
    filterTimer.current = setTimeout(() => submit(form, { preventScrollReset: true }), 50);
  };

  const serverJob = !job && data.job ? data.job : null;
  const serverManifests = serverJob?.printManifest && serverJob.status.status === "complete" ? ((serverJob.status.info as DespatchInfo | null)?.manifest_ids ?? []) : [];
  const manifestLink = manifestUrl ?? (serverManifests.length ? `/print/despatch_manifest_report?ids=${serverManifests.join(",")}` : null);
  const siteId = data.sites.find((s) => s.code === view.site)?.id ?? "all";
  const alertList: Alert[] = [...(outcome?.alert ? [outcome.alert as Alert] : []), ...(data.reinstated ? [{ type: "success" as const, message: `${plural(data.reinstated, "consignment")} reinstated.` }] : []), ...alerts];

  return (
    <div className="space-y-4" data-testid="consignment-list" data-hydrated={hydrated ? "true" : undefined}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-xl font-semibold">Consignments</h1>
        <div role="toolbar" aria-label="Consignment actions" className="flex flex-wrap gap-2">
          <Link to="/" className="btn-primary">
            New
          </Link>
          <button type="submit" form="consignment-list-form" name="intent" value="delete" className="btn">
            Delete
          </button>
          {data.canBulkUpload ? (
            <Link to="/bulk_upload" className="btn">
              Bulk Uploader
            </Link>
          ) : null}
          <button
            type="submit"
            form="consignment-list-form"
            formAction="/print/labels"
            formMethod="post"
            formTarget="_blank"
            className="btn"
            disabled={!printable}
            title={printable ? undefined : "Labels cannot be printed for consignments that are not ready"}
            aria-keyshortcuts="Alt+L"
            onClick={
              hydrated
                ? (e) => {
                    e.preventDefault();
                    void printLabels();
                  }
                : undefined
            }
          >
            Print Labels
          </button>
          <button type="button" className="btn" disabled={!hydrated} onClick={() => setAutoOpen(true)}>
            Auto Labels
          </button>
          {(["despatch", "despatch_manifest"] as const).map((intent) => (
            <button
              key={intent}
              type="submit"
              form="consignment-list-form"
              name="intent"
              value={intent}
              className={intent === "despatch" ? "btn-primary" : "btn"}
              disabled={!despatchable || paused}
              title={despatchable ? undefined : "Consignments in this list cannot be despatched yet"}
              aria-keyshortcuts={intent === "despatch" ? "Alt+D" : "Alt+M"}
              onClick={
                hydrated
                  ? (e) => {
                      e.preventDefault();
                      void despatch(intent === "despatch_manifest");
                    }
                  : undefined
              }
            >
              {intent === "despatch" ? "Despatch" : "Despatch + Print Manifest"}
            </button>
          ))}
        </div>
      </div>

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

      <Alerts alerts={alertList} />
      {data.deleted.length ? (
        <div role="status" className="flex items-center justify-between rounded border border-sky-300 bg-sky-50 px-3 py-2 text-sm text-sky-900" data-testid="deleted">
          <span>{`${plural(data.deleted.length, "consignment")} deleted.`}</span>
          <Form method="post" preventScrollReset>
            <input type="hidden" name="ids" value={data.deleted.join(",")} />
            <button type="submit" name="intent" value="reinstate" className="btn">
              Undo
            </button>
          </Form>
        </div>
      ) : null}
      {job ? <JobProgress key={job.id} jobId={job.id} running={despatchRunning} onDone={(j) => void despatchDone(j as Job, job.printManifest, job.tab)} /> : null}
      {serverJob ? (
        <div className="space-y-1">
          <JobProgress key={serverJob.id} jobId={serverJob.id} running={despatchRunning} initial={serverJob.status as Job} onDone={(j) => void despatchDone(j as Job, serverJob.printManifest, null)} />
          {serverJob.status.status === "queued" || serverJob.status.status === "working" ? (
            <Link to={listUrl(view, { job: serverJob.id, ...(serverJob.printManifest ? { print_manifest: "1" } : {}) })} className="text-sm text-sky-700 underline" preventScrollReset>
              Refresh
            </Link>
          ) : null}
        </div>
      ) : null}
      {manifestLink ? (
        <p className="text-sm">
          <a href={manifestLink} target="_blank" rel="noreferrer" className="text-sky-700 underline">
            Print manifest
          </a>
        </p>
      ) : null}

      <Form method="post" id="consignment-list-form" preventScrollReset className="space-y-3">
        {groups.length === 0 ? (
          <p className="card text-sm text-slate-600" data-testid="empty">
            {EMPTY_LIST}
          </p>
        ) : (
          groups.map((g) => {
            const isOpen = view.open.includes(g.key);
            const rows = rowsOf(g.key, g.rows);
            const order = rows.map((r) => r.id);
            const chosen = order.filter((id) => selected.has(id)).length;
            const next = nextOf(g.key, g.next);
            return (
              <section key={g.key} className="card p-0" aria-labelledby={`group-${g.key}`} data-testid={`group-${g.key}`}>
                <div className="flex items-center justify-between gap-2 px-3 py-2">
                  <Link
                    id={`group-${g.key}`}
                    to={listUrl(toggleGroup(view, g.key))}
                    aria-expanded={isOpen}
                    className="flex items-center gap-2 font-medium text-slate-800 hover:text-sky-800"
                    preventScrollReset
                    replace
                  >
                    <span aria-hidden className="w-3">
                      {isOpen ? "▾" : "▸"}
                    </span>
                    {g.label}
                    <span className="rounded-full bg-slate-100 px-2 text-xs tabular-nums" data-testid="group-count">
                      {g.count}
                    </span>
                  </Link>
                  {isOpen && chosen ? <span className="text-xs text-slate-500">{chosen} selected</span> : null}
                </div>
                {isOpen ? (
                  <GroupTable
                    groupKey={g.key}
                    label={g.label}
                    rows={rows}
                    selected={selected}
                    showItemReferences={data.showItemReferences}
                    showState={view.filter === "metadata"}
                    sortHref={(key) => listUrl(sortBy(view, key))}
                    sort={view.sort}
                    dir={view.dir}
                    countryOf={countryOf}
                    onToggle={(id, shift) => toggle(g.key, order, id, shift)}
                    onToggleAll={(on) =>
                      setSelected((s) => {
                        const n = new Set(s);
                        for (const id of order) {
                          if (on) n.add(id);
                          else n.delete(id);
                        }
                        return n;
                      })
                    }
                  />
                ) : null}
                {isOpen && (next || view.after[g.key]) ? (
                  <div className="flex gap-4 border-t border-slate-100 px-3 py-2 text-sm">
                    {next ? (
                      <Link
                        to={listUrl({ ...view, after: { ...view.after, [g.key]: next } })}
                        className="text-sky-700 underline"
                        preventScrollReset
                        onClick={
                          hydrated
                            ? (e) => {
                                e.preventDefault();
                                if (more.state !== "idle") return;
                                moreFor.current = g.key;
                                more.load(listUrl({ ...view, open: [g.key], after: { [g.key]: next } }));
                              }
                            : undefined
                        }
                      >
                        {more.state !== "idle" && moreFor.current === g.key ? "Loading..." : "Show more"}
                      </Link>
                    ) : null}
                    {view.after[g.key] ? (
                      <Link to={listUrl({ ...view, after: Object.fromEntries(Object.entries(view.after).filter(([k]) => k !== g.key)) })} className="text-sky-700 underline" preventScrollReset>
                        First rows
                      </Link>
                    ) : null}
                  </div>
                ) : null}
              </section>
            );
          })
        )}
      </Form>

      <footer className="text-xs text-slate-500" data-testid="shortcuts">
        {LIST_SHORTCUTS.map((s) => (
          <span key={s.keys} className="mr-3">
            <kbd className="rounded border border-slate-300 bg-slate-50 px-1">{s.keys}</kbd> {s.action}
          </span>
        ))}
      </footer>
      <AutoLabelsDialog open={autoOpen} onClose={() => setAutoOpen(false)} siteId={siteId} dateFilter={view.dateFilter} onPrinted={() => revalidator.revalidate()} />
    </div>
  );
}

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

function GroupTable(props: {
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
