import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useMemo, useState } from "react";
import { Typeahead } from "~/components/Typeahead";
import { requireUser } from "~/modules/auth/guard.server";
import { userToday } from "~/modules/calendar/site-time";
import { nest, parseDisplayDate } from "~/modules/consignments/form";
import { quickQuote, sitePlaces } from "~/modules/consignments/quick-quote.server";
import { formatDate } from "~/modules/consignments/rules";
import type { Rate } from "~/modules/rating/engine";
import { apiFetch } from "~/utils/api-client";
import { useLiveRates } from "~/components/consignment/useLiveRates";
import { AppError } from "~/utils/errors";
import { readPageForm } from "~/utils/http.server";

export const meta: MetaFunction = () => [{ title: "Quick quote · FreightDesk" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireUser(context, request);
  return {
    today: userToday(user),
    // the sender starts at the site's own place
    sites: await sitePlaces(context.db, user),
    defaultSite: user.sites.find((s) => s.id === user.defaultSiteId)?.code ?? user.sites[0]?.code ?? "",
  };
}

/** "Get quotes" without JavaScript: the same pricing as the live one. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireUser(context, request);
  const values = Object.fromEntries([...(await readPageForm(request)).entries()].filter((e): e is [string, string] => typeof e[1] === "string"));
  const raw = nest(Object.entries(values));
  const country = user.sites.find((s) => s.code === values.site_code)?.country;
  try {
    const response = await quickQuote(context.db, user, { ...raw, despatch_date: parseDisplayDate(values.despatch_date ?? "", country) });
    return { values, rates: response.carriers, errors: {} as Record<string, string[]> };
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return data({ values, rates: [] as Rate[], errors: e.fieldErrors }, { status: 422 });
  }
}

interface Place {
  locality: string;
  postcode: string;
}
interface Line {
  quantity: string;
  length: string;
  width: string;
  height: string;
  weight_in_uom: string;
}
const emptyLine = (): Line => ({ quantity: "1", length: "", width: "", height: "", weight_in_uom: "" });

async function searchPlaces(query: string, signal: AbortSignal) {
  const res = await apiFetch<{ localities: Place[] }>(`/api/address_selection/search_locality?query=${encodeURIComponent(query)}`, { signal });
  return res.ok ? res.data.localities : [];
}

export default function QuickQuote() {
  const { today, sites, defaultSite } = useLoaderData<typeof loader>();
  const outcome = useActionData<typeof action>();
  const v = outcome?.values ?? {};
  const [site, setSite] = useState(v.site_code ?? defaultSite);
  const country = sites.find((s) => s.code === site)?.country ?? "AUSTRALIA";
  const [date, setDate] = useState(v.despatch_date ?? formatDate(today, country));
  const home = sites.find((s) => s.code === site);
  const [sender, setSender] = useState<Place>({ locality: v.sender_locality ?? home?.locality ?? "", postcode: v.sender_postcode ?? home?.postcode ?? "" });
  const [receiver, setReceiver] = useState<Place>({ locality: v.receiver_locality ?? "", postcode: v.receiver_postcode ?? "" });
  const [lines, setLines] = useState<Line[]>(() => {
    const raw = (nest(Object.entries(v)).items as Line[] | undefined)?.filter(Boolean);
    return raw?.length ? raw : [emptyLine()];
  });
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  const payload = useMemo(() => {
    const iso = parseDisplayDate(date, country);
    const ready = /^\d{4}-\d{2}-\d{2}$/.test(iso) && sender.locality && sender.postcode && receiver.locality && receiver.postcode && lines.every((l) => Number(l.quantity) > 0 && Number(l.length) > 0 && Number(l.width) > 0 && Number(l.height) > 0 && Number(l.weight_in_uom) > 0);
    if (!ready) return null;
    return JSON.stringify({
      site_code: site,
      despatch_date: iso,
      sender_locality: sender.locality,
      sender_postcode: sender.postcode,
      receiver_locality: receiver.locality,
      receiver_postcode: receiver.postcode,
      items: lines.map((l) => ({ quantity: Number(l.quantity), length: Number(l.length), width: Number(l.width), height: Number(l.height), weight_in_uom: Number(l.weight_in_uom) })),
    });
  }, [site, date, country, sender, receiver, lines]);

  const live = useLiveRates(payload, hydrated, outcome?.rates ?? null);
  const rates = live.rates;
  const error = live.error ?? (outcome && Object.keys(outcome.errors).length && !live.rates?.length ? Object.values(outcome.errors)[0]![0]! : null);

  const setLine = (i: number, patch: Partial<Line>) => setLines((ls) => ls.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  const place = (side: "sender" | "receiver", value: Place, set: (p: Place) => void) => (
    <fieldset className="grid grid-cols-3 gap-2">
      <legend className="label">{side === "sender" ? "From" : "To"}</legend>
      <div>
        <label className="sr-only" htmlFor={`${side}_postcode`}>
          {side === "sender" ? "Sender" : "Receiver"} postcode
        </label>
        <input id={`${side}_postcode`} name={`${side}_postcode`} className="input" inputMode="numeric" maxLength={5} placeholder="Postcode" value={value.postcode} onChange={(e) => set({ ...value, postcode: e.target.value.replace(/\D/g, "") })} />
      </div>
      <div className="col-span-2">
        <Typeahead<Place>
          aria-label={`${side === "sender" ? "Sender" : "Receiver"} locality`}
          name={`${side}_locality`}
          placeholder="Locality"
          value={value.locality}
          onChange={(t) => set({ ...value, locality: t })}
          search={searchPlaces}
          render={(p) => `${p.locality} ${p.postcode}`}
          onPick={(p) => set({ locality: p.locality, postcode: p.postcode })}
          testId={`${side}-locality`}
        />
      </div>
    </fieldset>
  );

  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold">Quick quote</h1>
      <Form method="post" className="card space-y-4" noValidate>
        <div className="grid gap-3 md:grid-cols-4">
          <div>
            <label className="label" htmlFor="site_code">
              Site
            </label>
            <select
              id="site_code"
              name="site_code"
              className="input"
              value={site}
              onChange={(e) => {
                const next = sites.find((s) => s.code === e.target.value);
                setSite(e.target.value);
                if (next) setSender({ locality: next.locality ?? "", postcode: next.postcode ?? "" });
              }}
            >
              {sites.map((s) => (
                <option key={s.code} value={s.code}>
                  {s.name}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label className="label" htmlFor="despatch_date">
              Despatch date
            </label>
            <input id="despatch_date" name="despatch_date" className="input" maxLength={10} value={date} onChange={(e) => setDate(e.target.value)} placeholder={country === "UNITED STATES OF AMERICA" ? "MM/DD/YYYY" : "DD/MM/YYYY"} />
          </div>
        </div>
        <div className="grid items-end gap-3 md:grid-cols-[1fr_auto_1fr]">
          {place("sender", sender, setSender)}
          <button
            type="button"
            className="btn mb-0.5"
            aria-label="Swap sender and receiver"
            onClick={() => {
              setSender(receiver);
              setReceiver(sender);
            }}
          >
            ⇄
          </button>
          {place("receiver", receiver, setReceiver)}
        </div>
        <table className="w-full text-sm">
          <thead className="text-left text-xs text-slate-500">
            <tr>
              <th>Qty</th>
              <th>L (cm)</th>
              <th>W (cm)</th>
              <th>H (cm)</th>
              <th>Weight (kg)</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {lines.map((l, i) => (
              <tr key={i} data-testid="quick-line">
                {(["quantity", "length", "width", "height", "weight_in_uom"] as const).map((f) => (
                  <td key={f} className="pr-1">
                    <input
                      aria-label={`${f === "weight_in_uom" ? "Weight" : f[0]!.toUpperCase() + f.slice(1)} line ${i + 1}`}
                      name={`items.${i}.${f}`}
                      className="input"
                      inputMode={f === "weight_in_uom" ? "decimal" : "numeric"}
                      maxLength={f === "quantity" ? 2 : f === "weight_in_uom" ? 5 : 4}
                      value={l[f]}
                      onChange={(e) => setLine(i, { [f]: f === "weight_in_uom" ? e.target.value.replace(/[^\d.]/g, "") : e.target.value.replace(/\D/g, "") })}
                    />
                  </td>
                ))}
                <td>
                  <button type="button" className="btn px-2" aria-label={`Remove line ${i + 1}`} disabled={lines.length === 1} onClick={() => setLines((ls) => ls.filter((_, j) => j !== i))}>
                    ×
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="flex gap-2">
          <button type="button" className="btn" onClick={() => setLines((ls) => [...ls, emptyLine()])}>
            Add item line
          </button>
          <button type="submit" className="btn-primary">
            Get quotes
          </button>
        </div>
      </Form>
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
      {rates ? (
        <section className="card p-0" aria-label="Quotes" data-testid="quick-quotes">
          {rates.length === 0 ? (
            <p className="p-4 text-sm text-slate-600">No carrier service is available between these places.</p>
          ) : (
            <ul className="divide-y divide-slate-100">
              {rates.map((r) => (
                <li key={`${r.code}:${r.service_code}`} className="flex items-center justify-between px-4 py-2 text-sm" data-testid="quick-quote">
                  <span>
                    <span className="font-medium">{r.name}</span> · {r.service}
                    {r.estimated_delivery_date ? <span className="ml-2 text-xs text-slate-500">ETA {formatDate(r.estimated_delivery_date, country)}</span> : null}
                  </span>
                  <span className="font-semibold tabular-nums">{r.is_poa ? "POA" : r.is_na || r.total == null ? "NA" : `$${r.total.toFixed(2)}`}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}
    </div>
  );
}
