import { DatePicker } from "~/components/DatePicker";
import { forPerson } from "~/modules/calendar/display-date";
import { TimeSelect } from "~/components/TimeSelect";
import type { ConsignmentJson } from "~/modules/consignments/consignments.server";
import { formatDate } from "~/modules/consignments/rules";
import type { Rate } from "~/modules/rating/engine";
import type { RuleDecision } from "~/modules/shipping-rules/evaluate";
import type { ConsignmentFormState } from "./useConsignmentFormState";

/** Carrier selection: Get rates, why rates cannot be had yet, the time slots a service needs, the rates to choose from. */
export function CarrierSelection({ f }: { f: ConsignmentFormState }) {
  const { c, today, country, errorFor, hints, rating, rateError, rates, chosenRate, setChosenRate, slots, setSlots } = f;
  return (
    <section className="card space-y-2" aria-label="Carrier selection" data-testid="rates">
      <div className="flex items-center justify-between">
        <h2 className="font-semibold">Carrier selection</h2>
        <button type="submit" name="intent" value="rate" className="btn" formNoValidate>
          Get rates
        </button>
      </div>
      {errorFor("carrier_name") && <p className="field-error">{errorFor("carrier_name")}</p>}
      {hints.length ? (
        <ul className="text-sm text-amber-800" data-testid="rating-hints">
          {hints.map((h) => (
            <li key={h}>{h}</li>
          ))}
        </ul>
      ) : null}
      {errorFor("sender_address.locality") || errorFor("receiver_address.locality") ? (
        <p className="text-sm text-red-700">{[errorFor("sender_address.locality"), errorFor("receiver_address.locality")].filter(Boolean).join(" · ")}</p>
      ) : null}
      {rating ? <p className="text-sm text-slate-500" role="status">Getting rates…</p> : null}
      {rateError ? <p className="text-sm text-red-700">{rateError}</p> : null}
      {(() => {
        // time slots, when the chosen service needs them (and rates are not being fetched)
        const needs = rates?.find((r) => `${r.code}:${r.service_code}` === chosenRate)?.timeslots;
        const wanted = (["pickup_at", "deliver_by", "deliver_at"] as const).filter(
          (k) => (k === "pickup_at" ? needs?.pickup : k === "deliver_by" ? needs?.deliver_by : needs?.deliver_at) || slots[k].date || slots[k].time || errorFor(k),
        );
        if (rating || wanted.length === 0) return null;
        const labels = { pickup_at: ["Pickup at", "Pickup"], deliver_by: ["Deliver by", "Deliver by"], deliver_at: ["Deliver at", "Deliver at"] } as const;
        // each slot a date in the site's format and a time in 15-minute steps; the server joins them
        return (
          <div className="grid gap-3 md:grid-cols-3" data-testid="time-slots">
            {wanted.map((k) => (
              <fieldset key={k} className="min-w-0">
                <legend className="sr-only">{labels[k][0]}</legend>
                <div className="grid grid-cols-[1fr_auto] gap-2">
                  <DatePicker
                    id={`${k}_date`}
                    name={`${k}_date`}
                    label={`${labels[k][1]} date`}
                    country={country}
                    today={today}
                    value={slots[k].date}
                    onChange={(date) => setSlots((t) => ({ ...t, [k]: { ...t[k], date } }))}
                    invalid={Boolean(errorFor(k))}
                    describedBy={errorFor(k) ? `${k}-error` : undefined}
                  />
                  <TimeSelect id={`${k}_time`} name={`${k}_time`} label={`${labels[k][1]} time`} value={slots[k].time} onChange={(time) => setSlots((t) => ({ ...t, [k]: { ...t[k], time } }))} invalid={Boolean(errorFor(k))} describedBy={errorFor(k) ? `${k}-error` : undefined} />
                </div>
                {errorFor(k) ? (
                  <p className="field-error" id={`${k}-error`}>
                    {forPerson(errorFor(k)!, country)}
                  </p>
                ) : null}
              </fieldset>
            ))}
          </div>
        );
      })()}
      <RateList rates={rates} chosen={chosenRate} onChoose={setChosenRate} savedRate={c && !rates ? c : null} country={country} />
    </section>
  );
}

/** The shipping rule that chose this rate. */
function ChosenByRule({ name }: { name: string }) {
  return (
    <span className="ml-2 rounded bg-amber-100 px-1.5 text-xs text-amber-900" data-testid="chosen-by-rule">
      chosen by rule {name}
    </span>
  );
}

function RateList({ rates, chosen, onChoose, savedRate, country }: { rates: Rate[] | null; chosen: string; onChoose: (key: string) => void; savedRate: ConsignmentJson | null; country: string }) {
  if (!rates) {
    // what the shipping rules decided, kept in the saved rating detail (docs/decisions/040)
    const rule = (savedRate?.rating_detail as { shipping_rule?: RuleDecision } | null | undefined)?.shipping_rule;
    if (savedRate?.carrier_code) {
      return (
        <div className="text-sm">
          <input type="hidden" name="rate" value={`${savedRate.carrier_code}:${savedRate.service_code}`} />
          <p>
            {savedRate.carrier_name} · {savedRate.service_name}: {savedRate.poa_carrier ? "POA" : savedRate.service_rate == null ? "NA" : `$${savedRate.service_rate.toFixed(2)}`}
            {savedRate.estimated_delivery_date ? ` · ETA ${formatDate(savedRate.estimated_delivery_date, country)}` : ""}
            {rule?.rule_name && rule.chosen?.toLowerCase() === `${savedRate.carrier_code}:${savedRate.service_code}`.toLowerCase() ? <ChosenByRule name={rule.rule_name} /> : null}
          </p>
          {rule?.fall_throughs.length ? (
            <ul className="text-xs text-slate-600" aria-label="Shipping rules passed over">
              {rule.fall_throughs.map((f) => (
                <li key={f.rule_id}>
                  Rule {f.rule_name} passed over: {f.reason}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      );
    }
    return <p className="text-sm text-slate-500">Rates appear once the addresses, date and every item line are complete.</p>;
  }
  if (rates.length === 0) return <p className="text-sm text-slate-600">No carrier service is available for this consignment.</p>;
  return (
    <div role="radiogroup" aria-label="Rates" className="divide-y divide-slate-100 rounded border border-slate-200" data-testid="rate-list">
      {rates.map((r) => {
        const key = `${r.code}:${r.service_code}`;
        return (
          <label key={key} className={`flex cursor-pointer items-center gap-3 px-3 py-2 text-sm ${chosen === key ? "bg-sky-50" : ""}`} data-testid="rate">
            <input type="radio" name="rate" value={key} checked={chosen === key} onChange={() => onChoose(key)} />
            <span className="flex-1">
              <span className="font-medium">{r.name}</span> · {r.service}
              {r.estimated_delivery_date ? <span className="ml-2 text-xs text-slate-600">ETA {formatDate(r.estimated_delivery_date, country)}</span> : null}
              {r.chosen_by_rule ? <ChosenByRule name={r.chosen_by_rule} /> : null}
            </span>
            <span className="tabular-nums font-semibold" data-testid="rate-total">
              {r.is_poa ? "POA" : r.is_na || r.total == null ? "NA" : `$${r.total.toFixed(2)}`}
            </span>
          </label>
        );
      })}
    </div>
  );
}
