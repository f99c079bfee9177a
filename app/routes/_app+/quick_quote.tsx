import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useMemo, useState } from "react";
import { PlaceChoiceList } from "~/components/PlaceChoiceList";
import { DatePicker } from "~/components/DatePicker";
import { Typeahead } from "~/components/Typeahead";
import { requireUser } from "~/modules/auth/guard.server";
import { userToday } from "~/modules/calendar/site-time";
import { nest, TYPED_PLACES_FIELD } from "~/modules/consignments/form";
import { quickQuoteFromForm, sitePlaces } from "~/modules/consignments/quick-quote.server";
import { formatDate } from "~/modules/consignments/rules";
import { displayDateToIso, forPerson, reexpressDate, typedDateProblem } from "~/modules/calendar/display-date";
import { apiFetch } from "~/utils/api-client";
import { useLiveRates } from "~/components/consignment/useLiveRates";
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

/** "Get quotes" without JavaScript: typed places resolved, then the same pricing as the live one. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireUser(context, request);
  const values = Object.fromEntries([...(await readPageForm(request)).entries()].filter((e): e is [string, string] => typeof e[1] === "string"));
  const outcome = await quickQuoteFromForm(context.db, user, values);
  return outcome.rates ? outcome : data(outcome, { status: 422 });
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

async function searchPlaces(query: string, country: string, signal: AbortSignal) {
  const res = await apiFetch<{ localities: Place[] }>(`/api/address_selection/search_locality?country=${encodeURIComponent(country)}&query=${encodeURIComponent(query)}`, { signal });
  return res.ok ? res.data.localities : [];
}

export default function QuickQuote() {
  const { today, sites, defaultSite } = useLoaderData<typeof loader>();
  const outcome = useActionData<typeof action>();
  const v = outcome?.values ?? {};
  const [site, setSite] = useState(v.site_code ?? defaultSite);
  const home = sites.find((s) => s.code === site);
  const country = home?.country ?? "AUSTRALIA";
  const siteToday = home?.today ?? today;
  const [date, setDate] = useState(v.despatch_date ?? formatDate(siteToday, country));
  const [sender, setSender] = useState<Place>({ locality: v.sender_locality ?? home?.locality ?? "", postcode: v.sender_postcode ?? home?.postcode ?? "" });
  const [receiver, setReceiver] = useState<Place>({ locality: v.receiver_locality ?? "", postcode: v.receiver_postcode ?? "" });
  const [lines, setLines] = useState<Line[]>(() => {
    const raw = (nest(Object.entries(v)).items as Line[] | undefined)?.filter(Boolean);
    return raw?.length ? raw : [emptyLine()];
  });
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  const payload = useMemo(() => {
    const iso = displayDateToIso(date, country);
    const ready = iso && sender.locality && sender.postcode && receiver.locality && receiver.postcode && lines.every((l) => Number(l.quantity) > 0 && Number(l.length) > 0 && Number(l.width) > 0 && Number(l.height) > 0 && Number(l.weight_in_uom) > 0);
    if (!ready) return null;
    return JSON.stringify({
      site_code: site,
      despatch_date: iso,
      sender_country: country,
      receiver_country: country,
      sender_locality: sender.locality,
      sender_postcode: sender.postcode,
      receiver_locality: receiver.locality,
      receiver_postcode: receiver.postcode,
      items: lines.map((l) => ({ quantity: Number(l.quantity), length: Number(l.length), width: Number(l.width), height: Number(l.height), weight_in_uom: Number(l.weight_in_uom) })),
    });
  }, [site, date, country, sender, receiver, lines]);

  const live = useLiveRates(payload, hydrated, outcome?.rates ?? null);
  const rates = live.rates;
  const error = typedDateProblem(date, country, "Despatch date") ?? live.error ?? (outcome?.message && !live.rates?.length ? outcome.message : null);
  const fieldError = (name: string) => outcome?.errors[name]?.[0];

  const setLine = (i: number, patch: Partial<Line>) => setLines((ls) => ls.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  const place = (side: "sender" | "receiver", value: Place, set: (p: Place) => void) => {
    const who = side === "sender" ? "Sender" : "Receiver";
    const choice = outcome?.places[side];
    return (
      <fieldset className="grid grid-cols-3 gap-2">
        <legend className="label">{side === "sender" ? "From" : "To"}</legend>
        <div>
          <label className="sr-only" htmlFor={`${side}_postcode`}>
            {who} postcode
          </label>
          <input id={`${side}_postcode`} name={`${side}_postcode`} className="input" inputMode="numeric" maxLength={5} placeholder="Postcode" value={value.postcode} onChange={(e) => set({ ...value, postcode: e.target.value.replace(/\D/g, "") })} />
          {fieldError(`${side}_postcode`) ? <p className="field-error">{fieldError(`${side}_postcode`)}</p> : null}
        </div>
        <div className="col-span-2">
          <Typeahead<Place>
            aria-label={`${who} locality`}
            name={`${side}_locality`}
            placeholder="Locality"
            value={value.locality}
            onChange={(t) => set({ ...value, locality: t })}
            search={(query, signal) => searchPlaces(query, country, signal)}
            render={(p) => `${p.locality} ${p.postcode}`}
            onPick={(p) => set({ locality: p.locality, postcode: p.postcode })}
            aria-invalid={Boolean(fieldError(`${side}_locality`))}
            aria-describedby={fieldError(`${side}_locality`) ? `${side}_locality-error` : undefined}
            testId={`${side}-locality`}
          />
          {fieldError(`${side}_locality`) ? (
            <p className="field-error" id={`${side}_locality-error`}>
              {fieldError(`${side}_locality`)}
            </p>
          ) : null}
        </div>
        {choice ? (
          <div className="col-span-3">
            <PlaceChoiceList choice={choice} legend={`${who} locality: choose one`} onPick={(p) => set({ locality: p.locality, postcode: p.postcode })} testId={`${side}-place-choice`} />
          </div>
        ) : null}
      </fieldset>
    );
  };

  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold">Quick quote</h1>
      <Form method="post" className="card space-y-4" noValidate>
        {/* until JavaScript takes over, localities are typed: the server resolves them */}
        {hydrated ? null : <input type="hidden" name={TYPED_PLACES_FIELD} value="1" />}
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
                // the date typed so far, written again in the new site's format
                setDate((d) => reexpressDate(d, country, next?.country));
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
          <DatePicker id="despatch_date" name="despatch_date" label="Despatch date" country={country} today={siteToday} notBefore={siteToday} value={date} onChange={setDate} />
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
              <th>
                <span className="sr-only">Remove</span>
              </th>
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
          {forPerson(error, country)}
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
