import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { Alerts } from "~/components/Alerts";
import { DatePicker } from "~/components/DatePicker";
import { formatDisplayDate, parseDisplayDate } from "~/modules/calendar/display-date";
import { requireStaff } from "~/modules/auth/guard.server";
import { todayIn, userSite } from "~/modules/calendar/site-time";
import type { Rate } from "~/modules/rating/engine";
import { rateConsignment } from "~/modules/rating/rating.server";
import { AppError } from "~/utils/errors";
import { readPageForm } from "~/utils/http.server";

export const meta: MetaFunction = () => [{ title: "Price check · FreightDesk" }];

const LINES = 3;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireStaff(context, request);
  // each site's today: the despatch date may not be before it; it is typed in the user's format (their clock)
  return { sites: user.sites.map((s) => ({ ...s, today: todayIn(s.timezone) })), defaultSite: userSite(user)?.code ?? "", customer: user.customer.name, dateFormat: user.clock.dateFormat };
}

/** Staff type in a consignment and see every service's price with its full breakdown. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireStaff(context, request);
  const f = Object.fromEntries(await readPageForm(request)) as Record<string, string>;
  const items = Array.from({ length: LINES }, (_, i) => ({
    quantity: f[`items.${i}.quantity`],
    length: f[`items.${i}.length`],
    width: f[`items.${i}.width`],
    height: f[`items.${i}.height`],
    weight_in_uom: f[`items.${i}.weight`],
    dangerous_goods: f[`items.${i}.dg`] === "on",
  })).filter((it, i) => i === 0 || it.quantity);
  try {
    const response = await rateConsignment(context.db, user, {
      despatch_date: parseDisplayDate(f.despatch_date ?? "", user.clock.dateFormat),
      site_code: f.site_code,
      sender_locality: f.sender_locality,
      sender_postcode: f.sender_postcode,
      sender_country: f.sender_country || "AUSTRALIA",
      receiver_locality: f.receiver_locality,
      receiver_postcode: f.receiver_postcode,
      receiver_country: f.receiver_country || "AUSTRALIA",
      receiver_address_type: f.residential === "on" ? "residential" : "business",
      return_type: f.is_return === "on" ? "return" : null,
      items,
    });
    return { values: f, rates: response.carriers, selected: response.selected_index, errors: null as Record<string, string[]> | null };
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return data({ values: f, rates: [] as Rate[], selected: null as number | null, errors: e.fieldErrors }, { status: 422 });
  }
}

const money = (n: number | null | undefined) => (n == null ? "—" : n.toFixed(2));

function Breakdown({ rate, chosen, country }: { rate: Rate; chosen: boolean; country: string }) {
  const d = rate.rating_detail;
  return (
    <article className={`card ${chosen ? "ring-2 ring-sky-600" : ""}`} data-testid="price-check-rate" aria-label={`${rate.name} ${rate.service}`}>
      <header className="flex items-baseline justify-between">
        <h2 className="font-semibold">
          {rate.name} · {rate.service} <span className="text-xs text-slate-500">({rate.code}/{rate.service_code})</span>
        </h2>
        <p className="text-lg font-semibold tabular-nums">
          {rate.is_poa ? "POA" : rate.is_na ? "NA" : `$${money(rate.total)}`}
          {chosen && <span className="ml-2 rounded bg-sky-100 px-1.5 text-xs text-sky-800">selected ({rate.rule_applied})</span>}
        </p>
      </header>
      {!d ? (
        <p className="mt-1 text-sm text-slate-600">No lane between these zones on this date: price on application.</p>
      ) : (
        <div className="mt-2 grid gap-3 text-sm md:grid-cols-3">
          <dl className="grid grid-cols-2 gap-x-2">
            <dt className="text-slate-500">Zones</dt>
            <dd>
              {d.from_zone} → {d.to_zone}
            </dd>
            <dt className="text-slate-500">Rate code</dt>
            <dd>{d.rate_code}</dd>
            <dt className="text-slate-500">Card from</dt>
            <dd>{formatDisplayDate(d.lane?.effectiveFrom, country)}</dd>
            <dt className="text-slate-500">Dead weight</dt>
            <dd>{d.dead_weight}</dd>
            <dt className="text-slate-500">Cubic weight</dt>
            <dd>
              {d.cubic_weight} ({d.volume} × {d.lane?.cubicFactor})
            </dd>
            <dt className="text-slate-500">Charge weight</dt>
            <dd>{d.charge_weight}</dd>
            <dt className="text-slate-500">Lane</dt>
            <dd>
              {d.lane?.basic} + {d.lane?.perKg}/kg + {d.lane?.perItem}/item, min {d.lane?.minimum}
            </dd>
            <dt className="text-slate-500">Fuel levy</dt>
            <dd>{d.fuel_percentage}%</dd>
            <dt className="text-slate-500">Markup</dt>
            <dd>
              {d.markup}% / surcharges {d.surcharge_markup}%
            </dd>
            <dt className="text-slate-500">Delivery</dt>
            <dd>{formatDisplayDate(rate.estimated_delivery_date, country)}</dd>
          </dl>
          {(["buy", "sell"] as const).map((side) => (
            <table key={side} className="w-full">
              <caption className="text-left font-medium capitalize">{side}</caption>
              <tbody>
                {d[side].map((l) => (
                  <tr key={l.category} className="border-t border-slate-100">
                    <td className="py-0.5">{l.description}</td>
                    <td className="text-right tabular-nums">{money(l.amount)}</td>
                  </tr>
                ))}
                <tr className="border-t border-slate-300 font-semibold">
                  <td>Total</td>
                  <td className="text-right tabular-nums">{money(side === "buy" ? d.total_buy : d.total_sell_incl_gst)}</td>
                </tr>
              </tbody>
            </table>
          ))}
        </div>
      )}
    </article>
  );
}

export default function PriceCheck() {
  const { sites, defaultSite, customer, dateFormat } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const v = (result?.values ?? {}) as Record<string, string>;
  const [siteCode, setSiteCode] = useState(v.site_code ?? defaultSite);
  const site = sites.find((s) => s.code === siteCode) ?? sites[0];
  const country = dateFormat;
  const [date, setDate] = useState(v.despatch_date ?? formatDisplayDate(site?.today, country));
  const navigation = useNavigation();
  const errors = result?.errors ? Object.entries(result.errors).map(([field, messages]) => ({ type: "error" as const, message: `${field}: ${messages[0]}` })) : [];
  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold">Price check</h1>
      <p className="text-sm text-slate-600">
        Rates a consignment from a site of {customer} with every service, and shows why each price is what it is. Nothing is saved.
      </p>
      <Alerts alerts={errors} />
      <Form method="post" className="card space-y-3" aria-label="Price check">
        <div className="grid gap-3 sm:grid-cols-4">
          <div>
            <label htmlFor="site_code" className="label">
              Site
            </label>
            <select
              id="site_code"
              name="site_code"
              value={siteCode}
              onChange={(e) => {
                setSiteCode(e.target.value);
              }}
              className="input"
            >
              {sites.map((s) => (
                <option key={s.id} value={s.code}>
                  {s.name} ({s.code})
                </option>
              ))}
            </select>
          </div>
          <DatePicker id="despatch_date" name="despatch_date" label="Despatch date" country={country} today={site?.today ?? ""} notBefore={site?.today} required value={date} onChange={setDate} />
        </div>
        <div className="grid gap-3 sm:grid-cols-6">
          {(["sender", "receiver"] as const).map((side) => (
            <fieldset key={side} className="contents">
              <div className="sm:col-span-2">
                <label htmlFor={`${side}_locality`} className="label capitalize">
                  {side} locality
                </label>
                <input id={`${side}_locality`} name={`${side}_locality`} defaultValue={v[`${side}_locality`]} required className="input" />
              </div>
              <div>
                <label htmlFor={`${side}_postcode`} className="label capitalize">
                  {side} postcode
                </label>
                <input id={`${side}_postcode`} name={`${side}_postcode`} defaultValue={v[`${side}_postcode`]} required className="input" />
              </div>
            </fieldset>
          ))}
        </div>
        <table className="text-sm">
          <thead className="text-left text-slate-500">
            <tr>
              <th>Qty</th>
              <th>Length</th>
              <th>Width</th>
              <th>Height</th>
              <th>Dead weight</th>
              <th>DG</th>
            </tr>
          </thead>
          <tbody>
            {Array.from({ length: LINES }, (_, i) => (
              <tr key={i}>
                {(["quantity", "length", "width", "height", "weight"] as const).map((k) => (
                  <td key={k} className="pr-2">
                    <input
                      name={`items.${i}.${k}`}
                      aria-label={`Line ${i + 1} ${k}`}
                      inputMode="decimal"
                      defaultValue={v[`items.${i}.${k}`]}
                      className="input w-24"
                      required={i === 0}
                    />
                  </td>
                ))}
                <td>
                  <input type="checkbox" name={`items.${i}.dg`} aria-label={`Line ${i + 1} dangerous goods`} defaultChecked={v[`items.${i}.dg`] === "on"} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="flex gap-4 text-sm">
          <label className="flex items-center gap-1">
            <input type="checkbox" name="residential" defaultChecked={v.residential === "on"} /> Residential receiver
          </label>
          <label className="flex items-center gap-1">
            <input type="checkbox" name="is_return" defaultChecked={v.is_return === "on"} /> Return
          </label>
        </div>
        <button type="submit" className="btn-primary" disabled={navigation.state === "submitting"}>
          {navigation.state === "submitting" ? "Rating..." : "Get rates"}
        </button>
      </Form>
      {result && !result.errors && (
        <section className="space-y-3" aria-label="Rates">
          {result.rates.length === 0 ? <p className="text-sm text-slate-500">No service of this site rates this consignment.</p> : null}
          {result.rates.map((r, i) => (
            <Breakdown key={r.site_service_id} rate={r} chosen={i === result.selected} country={sites.find((s) => s.code === result.values.site_code)?.country ?? country} />
          ))}
        </section>
      )}
    </div>
  );
}
