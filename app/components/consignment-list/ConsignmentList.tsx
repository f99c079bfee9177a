import { Form, Link, useActionData, useFetcher, useLoaderData, useRevalidator } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { Alerts, type Alert } from "~/components/Alerts";
import { JobProgress } from "~/components/JobProgress";
import { despatchRunning } from "~/modules/despatch/progress";
import type { listAction, listLoader } from "~/modules/consignments/list-screen.server";
import { EMPTY_LIST, canDespatchIn, canPrintLabelsIn, listUrl, selectRange, sortBy, toggleGroup, type GroupKey } from "~/modules/consignments/list";
import { AutoLabelsDialog } from "./AutoLabelsDialog";
import { GroupTable } from "./GroupTable";
import { ListFilters } from "./ListFilters";
import { ListToolbar } from "./ListToolbar";
import type { DespatchInfo, Job, Row } from "./types";
import { useListActions } from "./useListActions";

/** Keys of the list (shown in its footer, and in the README). */
export const LIST_SHORTCUTS = [
  { keys: "Space", action: "Select (Shift+Space or Shift+click: a range)" },
  { keys: "↑ ↓", action: "Previous / next row" },
  { keys: "Alt+L", action: "Print Labels" },
  { keys: "Alt+D", action: "Despatch" },
  { keys: "Alt+M", action: "Despatch + Print Manifest" },
] as const;

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** The /consignments screen (spec 1 section 2): filters, grouped rows to select, and the actions on the selection. */
export function ConsignmentList() {
  const data = useLoaderData<typeof listLoader>();
  const outcome = useActionData<typeof listAction>();
  const { view, groups } = data;
  const revalidator = useRevalidator();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  const [selected, setSelected] = useState<Set<number>>(new Set());
  const anchor = useRef<{ group: GroupKey; id: number } | null>(null);
  const [alerts, setAlerts] = useState<Alert[]>([]);
  const addAlerts = useCallback((...more: Alert[]) => setAlerts((list) => [...list, ...more]), []);
  const [autoOpen, setAutoOpen] = useState(false);

  // "Show more" with JavaScript adds the next page under the rows shown
  const more = useFetcher<typeof listLoader>();
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

  const { job, manifestUrl, paused, printLabels, despatch, despatchDone } = useListActions({ filter: view.filter, selectedRef, setSelected, addAlerts, revalidator, autoOpen });

  const serverJob = !job && data.job ? data.job : null;
  const serverManifests = serverJob?.printManifest && serverJob.status.status === "complete" ? ((serverJob.status.info as DespatchInfo | null)?.manifest_ids ?? []) : [];
  const manifestLink = manifestUrl ?? (serverManifests.length ? `/print/despatch_manifest_report?ids=${serverManifests.join(",")}` : null);
  const siteId = data.sites.find((s) => s.code === view.site)?.id ?? "all";
  // the list's site (or the user's own for all sites): whose clock the printed times follow
  const clock = data.sites.find((s) => s.code === (view.site ?? data.homeSite));
  const alertList: Alert[] = [...(outcome?.alert ? [outcome.alert as Alert] : []), ...(data.reinstated ? [{ type: "success" as const, message: `${plural(data.reinstated, "consignment")} reinstated.` }] : []), ...alerts];

  return (
    <div className="space-y-4" data-testid="consignment-list" data-hydrated={hydrated ? "true" : undefined}>
      <ListToolbar canBulkUpload={data.canBulkUpload} printable={printable} despatchable={despatchable} paused={paused} hydrated={hydrated} printLabels={printLabels} despatch={despatch} setAutoOpen={setAutoOpen} />

      <ListFilters data={data} hydrated={hydrated} countryOf={countryOf} />

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
      <AutoLabelsDialog open={autoOpen} onClose={() => setAutoOpen(false)} siteId={siteId} dateFilter={view.dateFilter} timeZone={clock?.timezone ?? null} country={clock?.country ?? "AUSTRALIA"} onPrinted={() => revalidator.revalidate()} />
    </div>
  );
}
