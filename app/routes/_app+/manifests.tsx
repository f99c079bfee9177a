import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useSubmit } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState, type ChangeEvent } from "react";
import { Alerts, type Alert } from "~/components/Alerts";
import { DatePicker } from "~/components/DatePicker";
import { PrintButton } from "~/components/consignment/PrintButton";
import { requireUser } from "~/modules/auth/guard.server";
import { displayDateToIso, parseDisplayDate } from "~/modules/calendar/display-date";
import { isRealDate } from "~/modules/calendar/dates";
import { todayIn } from "~/modules/calendar/site-time";
import { formatDate, formatVolume, formatWeight } from "~/modules/consignments/rules";
import { listManifests, printableIds } from "~/modules/despatch/manifests.server";
import { printerFor } from "~/modules/printing/printers.server";
import { AppError } from "~/utils/errors";
import { MAX_ID } from "~/utils/ids";

export const meta: MetaFunction = () => [{ title: "Manifests · FreightDesk" }];

const NOTHING_SELECTED = "Select the manifests to print.";
const NO_CONSIGNMENTS = "The selected manifests have no consignments.";

/**
 * Without JavaScript the print buttons submit this same GET form (?print=manifests|connotes&m=ids):
 * the loader answers with the document for the user's printer of that kind. Nothing changes.
 */
async function printRedirect(context: LoaderFunctionArgs["context"], user: Awaited<ReturnType<typeof requireUser>>["user"], kind: "manifests" | "connotes", selected: number[]) {
  if (!selected.length) return NOTHING_SELECTED;
  try {
    const ids = await printableIds(context.db, user, [...new Set(selected)], kind);
    if (!ids.length) return NO_CONSIGNMENTS;
    const type = kind === "connotes" ? "Connote" : "Manifest";
    const { url } = await printerFor(context.db, user, { type, printable_type: kind === "connotes" ? "consignment" : "manifest", printable_id: ids.join(",") });
    throw redirect(url);
  } catch (e) {
    if (e instanceof AppError) return e.message;
    throw e;
  }
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireUser(context, request);
  const q = new URL(request.url).searchParams;
  const print = q.get("print");
  const printError =
    print === "manifests" || print === "connotes"
      ? await printRedirect(
          context,
          user,
          print,
          q.getAll("m").map(Number).filter((n) => Number.isInteger(n) && n > 0 && n <= MAX_ID),
        )
      : null;
  // the dates are typed in the user's own format (the address carries YYYY-MM-DD, also read), today in their zone
  const dates = { country: user.clock.dateFormat, today: todayIn(user.clock.timeZone) };
  const typed = (k: "from" | "to") => (q.get(k) == null ? null : parseDisplayDate(q.get(k)!, dates.country));
  const list = await listManifests(context.db, user, { site: q.get("site"), from: typed("from"), to: typed("to"), open: q.get("open") });
  // from after to was corrected: the address says what is shown
  const moved = (["from", "to"] as const).some((k) => q.get(k) && q.get(k) !== list.filters[k]);
  if (moved && !Object.keys(list.errors).length && !print) throw redirect(`/manifests?${filterQuery(list.filters)}`);
  return {
    list,
    sites: user.sites.map((s) => ({ id: s.id, name: s.name })),
    dates,
    alert: printError ? ({ type: "error", message: printError } as Alert) : null,
  };
}

/** A filter date in the site's format; one in error stays as it was entered. */
const shownDate = (v: string, country: string) => (isRealDate(v) ? formatDate(v, country) : v);

function filterQuery(f: { site: string; from: string; to: string; open: number[] }) {
  const p = new URLSearchParams();
  if (f.site) p.set("site", f.site);
  p.set("from", f.from);
  p.set("to", f.to);
  if (f.open.length) p.set("open", f.open.join(","));
  return p.toString();
}

export default function Manifests() {
  const { list, sites, alert, dates } = useLoaderData<typeof loader>();
  const { filters, errors, groups, consignments } = list;
  const submit = useSubmit();
  const [hydrated, setHydrated] = useState(false);
  const [selected, setSelected] = useState<number[]>([]);
  const [clientAlerts, setClientAlerts] = useState<Alert[]>([]);
  const printForm = useRef<HTMLFormElement>(null);
  const all = useMemo(() => groups.flatMap((g) => g.manifests), [groups]);
  const alerts = useMemo(() => [...(alert ? [alert] : []), ...clientAlerts], [alert, clientAlerts]);

  useEffect(() => {
    setHydrated(true);
    // boxes ticked before the script loaded count too
    const ticked = printForm.current ? [...printForm.current.querySelectorAll<HTMLInputElement>("input[name=m]:checked")].map((i) => Number(i.value)) : [];
    setSelected(ticked);
  }, []);
  // a new list (other filters) starts with nothing selected
  useEffect(() => setSelected((s) => s.filter((id) => all.some((m) => m.id === id))), [all]);

  const toggle = (ids: number[], on: boolean) => setSelected((s) => (on ? [...new Set([...s, ...ids])] : s.filter((id) => !ids.includes(id))));
  const consignmentIds = all.filter((m) => selected.includes(m.id)).flatMap((m) => m.consignments_ids);
  const openHref = (id: number) =>
    `/manifests?${filterQuery({ ...filters, open: filters.open.includes(id) ? filters.open.filter((o) => o !== id) : [...filters.open, id] })}`;

  // the dates as typed, in the site's format; a date in error stays as it was entered
  const [range, setRange] = useState({ from: shownDate(filters.from, dates.country), to: shownDate(filters.to, dates.country) });
  useEffect(() => setRange({ from: shownDate(filters.from, dates.country), to: shownDate(filters.to, dates.country) }), [filters.from, filters.to, dates.country]);
  const apply = (next: { site: string; from: string; to: string }) => submit(new URLSearchParams(filterQuery({ ...next, open: [] })), { method: "get", preventScrollReset: true });

  // With the script: a changed filter applies at once (a date once it is whole); a from after the to (or a to before the from) moves the other date.
  const onDate = (k: "from" | "to", text: string) => {
    const next = { ...range, [k]: text };
    const [from, to] = [displayDateToIso(next.from, dates.country), displayDateToIso(next.to, dates.country)];
    if (from && to) {
      const [f, t] = from <= to ? [from, to] : k === "from" ? [from, from] : [to, to];
      setRange({ from: formatDate(f, dates.country), to: formatDate(t, dates.country) });
      apply({ site: filters.site, from: f, to: t });
    } else setRange(next);
  };
  const onFilterChange = (e: ChangeEvent<HTMLFormElement>) => {
    const target = e.target as unknown as HTMLInputElement | HTMLSelectElement;
    if (target.name !== "site") return; // the dates apply through onDate
    apply({ site: target.value, from: displayDateToIso(range.from, dates.country) ?? filters.from, to: displayDateToIso(range.to, dates.country) ?? filters.to });
  };

  const dateError = errors.to?.[0] ?? errors.from?.[0];
  return (
    <div className="space-y-4" data-testid="manifests-screen" data-hydrated={hydrated ? "true" : undefined}>
      <h1 className="text-xl font-semibold">Manifests</h1>
      <Alerts alerts={alerts} />

      <Form method="get" className="card flex flex-wrap items-start gap-3" aria-label="Manifest filter" onChange={onFilterChange}>
        <div className="w-56">
          <label htmlFor="site" className="label">
            Site
          </label>
          <select id="site" name="site" defaultValue={filters.site} key={`site-${filters.site}`} className="input" aria-invalid={errors.site ? true : undefined} aria-describedby={errors.site ? "site-error" : undefined}>
            <option value="">All</option>
            {sites.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
          {errors.site ? (
            <p id="site-error" className="field-error">
              {errors.site[0]}
            </p>
          ) : null}
        </div>
        <div>
          <div className="flex gap-3">
            {(["from", "to"] as const).map((k) => (
              <DatePicker
                key={k}
                className="w-48"
                id={k}
                name={k}
                label={k === "from" ? "From" : "To"}
                buttonLabel={`Choose the ${k} date`}
                country={dates.country}
                today={dates.today}
                required
                value={range[k]}
                onChange={(text) => onDate(k, text)}
                invalid={Boolean(errors[k] || dateError)}
                describedBy={dateError ? "date-error" : undefined}
              />
            ))}
          </div>
          {dateError ? (
            <p id="date-error" className="field-error" data-testid="date-error">
              {dateError}
            </p>
          ) : null}
        </div>
        <button type="submit" className="btn-primary mt-6">
          Show
        </button>
      </Form>

      {Object.keys(errors).length ? null : (
        <Form method="get" ref={printForm} aria-label="Manifests" className="space-y-4">
          {/* the filters travel with a script-less print, so an error comes back to the same list */}
          {filters.site ? <input type="hidden" name="site" value={filters.site} /> : null}
          <input type="hidden" name="from" value={filters.from} />
          <input type="hidden" name="to" value={filters.to} />
          {filters.open.length ? <input type="hidden" name="open" value={filters.open.join(",")} /> : null}
          <div className="flex items-center gap-2">
            {hydrated ? (
              <>
                {consignmentIds.length ? (
                  <PrintButton type="Connote" ids={consignmentIds} label="Print connote" noun="consignment note" onAlert={(a) => setClientAlerts((l) => [...l, a])} />
                ) : (
                  <button type="button" className="btn" disabled>
                    Print connote
                  </button>
                )}
                {selected.length ? (
                  <PrintButton type="Manifest" ids={selected} label="Print Manifests" noun="manifest" onAlert={(a) => setClientAlerts((l) => [...l, a])} />
                ) : (
                  <button type="button" className="btn" disabled>
                    Print Manifests
                  </button>
                )}
              </>
            ) : (
              <>
                <button type="submit" name="print" value="connotes" className="btn" disabled={!all.length}>
                  Print connote
                </button>
                <button type="submit" name="print" value="manifests" className="btn" disabled={!all.length}>
                  Print Manifests
                </button>
              </>
            )}
            {hydrated && selected.length ? <span className="text-sm text-slate-600">{selected.length} selected</span> : null}
          </div>

          {groups.length === 0 ? (
            <div className="card">
              <p className="text-sm text-slate-600">There are no manifests to display.</p>
            </div>
          ) : (
            groups.map((g) => {
              const ids = g.manifests.map((m) => m.id);
              const allTicked = ids.every((id) => selected.includes(id));
              return (
                <details key={g.carrier_name} open className="card p-0" data-testid="manifest-group">
                  <summary className="flex cursor-pointer items-center gap-2 border-b border-slate-200 bg-slate-50 px-3 py-2 font-semibold">
                    {g.carrier_name}
                    <span className="text-sm font-normal text-slate-500">
                      ({g.manifests.length} manifest{g.manifests.length === 1 ? "" : "s"})
                    </span>
                  </summary>
                  <div className="overflow-x-auto">
                    <table className="w-full text-sm" data-testid="manifests">
                      <thead className="border-b border-slate-200 text-left text-xs uppercase text-slate-500">
                        <tr>
                          <th className="w-8 px-3 py-2">
                            {hydrated ? (
                              <input type="checkbox" aria-label={`Select all ${g.carrier_name} manifests`} checked={allTicked} onChange={(e) => toggle(ids, e.target.checked)} />
                            ) : null}
                          </th>
                          <th className="px-3 py-2">Manifest</th>
                          <th className="px-3 py-2">Carrier</th>
                          <th className="px-3 py-2">Despatch time</th>
                          <th className="px-3 py-2 text-right">Consignments</th>
                          <th className="px-3 py-2 text-right">Items</th>
                          <th className="px-3 py-2 text-right">Weight</th>
                          <th className="px-3 py-2 text-right">Volume</th>
                          <th className="px-3 py-2 text-right">Hazardous goods</th>
                          <th className="px-3 py-2">
                            <span className="sr-only">Despatch failed</span>
                          </th>
                        </tr>
                      </thead>
                      <tbody className="divide-y divide-slate-100">
                        {g.manifests.map((m) => {
                          const open = filters.open.includes(m.id);
                          const members = consignments[m.id] ?? [];
                          return [
                            <tr key={m.id} data-testid="manifest-row" data-manifest-id={m.id} className={m.failed_despatch ? "bg-red-50" : undefined}>
                              <td className="px-3 py-2">
                                <input
                                  type="checkbox"
                                  name="m"
                                  value={m.id}
                                  aria-label={`Select manifest ${m.number}`}
                                  {...(hydrated ? { checked: selected.includes(m.id), onChange: (e: ChangeEvent<HTMLInputElement>) => toggle([m.id], e.target.checked) } : {})}
                                />
                              </td>
                              <td className="whitespace-nowrap px-3 py-2">
                                <Link
                                  to={openHref(m.id)}
                                  preventScrollReset
                                  className="text-sky-700 underline"
                                  aria-expanded={open}
                                  aria-label={`${open ? "Hide" : "Show"} consignments of ${m.number}`}
                                >
                                  <span aria-hidden>{open ? "▾" : "▸"}</span> {m.number}
                                </Link>
                              </td>
                              <td className="px-3 py-2">{m.carrier_name}</td>
                              <td className="whitespace-nowrap px-3 py-2">{m.despatch_time_local}</td>
                              <td className="px-3 py-2 text-right tabular-nums">{m.total_consignments}</td>
                              <td className="px-3 py-2 text-right tabular-nums">{m.total_items}</td>
                              <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">{formatWeight(m.total_weight, m.som)}</td>
                              <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">{formatVolume(m.total_volume, m.som)}</td>
                              <td className="px-3 py-2 text-right tabular-nums">{m.hazardous_goods || ""}</td>
                              <td className="px-3 py-2">
                                {m.failed_despatch ? (
                                  <span className="rounded bg-red-700 px-1.5 py-0.5 text-xs font-semibold text-white" title={m.failure_reason ?? undefined} data-testid="failed-despatch">
                                    Despatch failed
                                  </span>
                                ) : null}
                              </td>
                            </tr>,
                            open ? (
                              <tr key={`${m.id}-consignments`} data-testid="manifest-consignments">
                                <td />
                                <td colSpan={9} className="px-3 pb-3">
                                  {members.length === 0 ? (
                                    <p className="text-sm text-slate-600">There are no consignments to display.</p>
                                  ) : (
                                    <table className="w-full text-sm" aria-label={`Consignments of ${m.number}`}>
                                      <thead className="text-left text-xs uppercase text-slate-500">
                                        <tr>
                                          <th className="py-1 pr-3">Consignment</th>
                                          <th className="py-1 pr-3">Receiver</th>
                                          <th className="py-1 pr-3">Reference</th>
                                          <th className="py-1 pr-3 text-right">Items</th>
                                          <th className="py-1 pr-3 text-right">Weight</th>
                                          <th className="py-1 pr-3">State</th>
                                        </tr>
                                      </thead>
                                      <tbody>
                                        {members.map((c) => (
                                          <tr key={c.id} className="border-t border-slate-100">
                                            <td className="py-1 pr-3">
                                              {c.url ? (
                                                <Link to={c.url} className="text-sky-700 underline">
                                                  {c.consignment_number ?? "Pending"}
                                                </Link>
                                              ) : (
                                                (c.consignment_number ?? "Pending")
                                              )}
                                            </td>
                                            <td className="py-1 pr-3">{c.party_name}</td>
                                            <td className="py-1 pr-3">{c.reference}</td>
                                            <td className="py-1 pr-3 text-right tabular-nums">{c.item_count}</td>
                                            <td className="whitespace-nowrap py-1 pr-3 text-right tabular-nums">{formatWeight(c.total_weight, c.som)}</td>
                                            <td className="py-1 pr-3">{c.state.replace(/_/g, " ")}</td>
                                          </tr>
                                        ))}
                                      </tbody>
                                    </table>
                                  )}
                                </td>
                              </tr>
                            ) : null,
                          ];
                        })}
                      </tbody>
                    </table>
                  </div>
                </details>
              );
            })
          )}
          {list.truncated ? <p className="text-sm text-slate-600">Only the first 1000 manifests are shown: choose a site or fewer days.</p> : null}
        </Form>
      )}
    </div>
  );
}
