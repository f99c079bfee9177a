import { Breadcrumbs } from "~/components/Breadcrumbs";
import { Link } from "@remix-run/react";
import { LEVEL_LABELS, preferencesPath, STATE_LABELS } from "~/modules/notifications/configs";
import type { PreferencesPageData } from "~/modules/notifications/preferences.server";

const KIND: Record<string, string> = { customer: "Customer", site: "Site", account: "Carrier account" };

/**
 * At a customer or a site: the carrier accounts under it with a template of their own for this
 * notification, each to be chosen for the change too (spec 2: at least one while there are any).
 * A disclosure, open when the choice was refused.
 */
export function AccountChooser({ accounts, selected, error, query }: { accounts: PreferencesPageData["customAccounts"]; selected?: number[]; error?: string; query: string }) {
  const errorId = "selected_account_ids-error";
  return (
    <details className="rounded border border-slate-200" open={Boolean(error)}>
      <summary className="cursor-pointer px-3 py-2 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-500">
        Accounts with their own template ({accounts.length}): choose which take this change too
      </summary>
      <fieldset className="space-y-1 px-3 pb-3" aria-describedby={error ? errorId : undefined}>
        <legend className="mb-1 text-sm text-slate-700">Apply these changes to these accounts too (at least one)</legend>
        {accounts.map((a) => (
          <div key={a.id} className="flex flex-wrap items-center gap-2 text-sm">
            <label className="flex items-center gap-2">
              <input type="checkbox" name="selected_account_ids" value={a.id} defaultChecked={selected?.includes(a.id)} />
              {a.label} · {a.siteName} {a.enabled ? "" : "(turned off)"}
            </label>
            <Link to={`${a.path}?${query}`} className="text-sky-700 underline">
              <span className="sr-only">{a.label}&apos;s </span>own template
            </Link>
          </div>
        ))}
        {error ? (
          <p id={errorId} className="field-error">
            {error}
          </p>
        ) : null}
      </fieldset>
    </details>
  );
}

/** Every level of the customer, with the template that applies there for this notification (most specific wins). */
export function LevelsTable({ data, query }: { data: PreferencesPageData; query: string }) {
  const { levels, selected, parent } = data;
  if (!selected) return null;
  return (
    <section className="card overflow-x-auto" aria-labelledby="levels-heading">
      <h2 id="levels-heading" className="mb-1 font-semibold">
        Where {selected.typeName} on {STATE_LABELS[selected.state].toLowerCase()} applies
      </h2>
      <p className="mb-2 text-sm text-slate-600">The most specific template applies: a carrier account&apos;s, else its site&apos;s, else the customer&apos;s. One turned off sends nothing there.</p>
      <table className="w-full text-sm">
        <thead className="text-left text-slate-600">
          <tr>
            <th scope="col" className="py-1">
              Level
            </th>
            <th scope="col">Kind</th>
            <th scope="col">Template used</th>
            <th scope="col">Sent</th>
          </tr>
        </thead>
        <tbody>
          {levels.map((l) => {
            const here = l.type === parent.type && l.id === parent.id;
            return (
              <tr key={`${l.type}-${l.id}`} className={`border-t border-slate-100 ${here ? "bg-sky-50" : ""}`}>
                <th scope="row" className="py-1 text-left font-normal" style={{ paddingLeft: `${l.depth * 1.25}rem` }}>
                  <Link to={`${l.path}?${query}`} aria-current={here ? "page" : undefined} className="text-sky-700 underline">
                    {l.label}
                  </Link>
                  {l.active ? null : <span className="text-slate-600"> (inactive)</span>}
                </th>
                <td>{KIND[l.type]}</td>
                <td>{l.applies ? (l.applies.label === "its own" ? "Its own" : `Inherited: ${l.applies.label}`) : "None"}</td>
                <td>{l.applies ? (l.applies.enabled ? "Yes" : "No (turned off)") : "No"}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

/** The templates this level has of its own, each a link to edit it. */
export function SetHere({ data }: { data: PreferencesPageData }) {
  const { setHere, parent, path } = data;
  return (
    <section className="card" aria-labelledby="set-here-heading">
      <h2 id="set-here-heading" className="mb-1 font-semibold">
        Templates of this {LEVEL_LABELS[parent.type]}&apos;s own
      </h2>
      {setHere.length === 0 ? (
        <p className="text-sm text-slate-600">None: every notification here uses the levels above, if they have one.</p>
      ) : (
        <ul className="list-inside list-disc text-sm">
          {setHere.map((c) => (
            <li key={`${c.typeId}-${c.state}`}>
              <Link to={`${path}?type=${c.typeId}&state=${c.state}`} className="text-sky-700 underline">
                {c.typeName} · {STATE_LABELS[c.state]}
              </Link>
              {c.enabled ? "" : " (turned off)"}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Customer › site › account, each a link to its own preferences. */
export function Breadcrumb({ data, query }: { data: PreferencesPageData; query: string }) {
  const { parent } = data;
  const crumbs = [{ label: parent.customerName, url: `${preferencesPath(parent.customerId)}?${query}` }];
  if (parent.siteId) crumbs.push({ label: parent.siteName ?? "", url: `${preferencesPath(parent.customerId, parent.siteId)}?${query}` });
  if (parent.type === "account") crumbs.push({ label: parent.label, url: `${data.path}?${query}` });
  return <Breadcrumbs crumbs={crumbs} />;
}
