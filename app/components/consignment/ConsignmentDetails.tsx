import { DatePicker } from "~/components/DatePicker";
import { forPerson, typedDateProblem } from "~/modules/calendar/display-date";
import type { ScreenData } from "~/modules/consignments/screen.server";
import { emptyAddress, type AddressState } from "./AddressFields";
import { addressFrom } from "./form-values";
import type { ConsignmentFormState } from "./useConsignmentFormState";

/** The consignment screen's first section: reference, despatch date, the customer's own reference, site. */
export function ConsignmentDetails({ f, data }: { f: ConsignmentFormState; data: ScreenData }) {
  const { c, v, country, siteAddress, today, siteCode, changeSite, reference, setReference, despatchDate, setDespatchDate, customReference, setCustomReference, setSender, setReceiver, errorFor } = f;
  // a whole date that is none in the site's format says so at once (it is not rated); the server's word in the site's format
  const saved = errorFor("despatch_date");
  const dateError = typedDateProblem(despatchDate, country, "Despatch date") ?? (saved ? forPerson(saved, country) : undefined);
  return (
    <section className="card grid gap-3 md:grid-cols-4" aria-label="Consignment details">
      <div>
        <label className="label" htmlFor="reference">
          Reference
        </label>
        <input id="reference" name="reference" className="input" maxLength={255} value={reference} onChange={(e) => setReference(e.target.value)} placeholder={data.customer.placeholders.reference ?? ""} autoFocus={!c} />
        {errorFor("reference") && <p className="field-error">{errorFor("reference")}</p>}
      </div>
      <div>
        {/* a despatch date before today at the site cannot be picked (spec 1 section 9) */}
        <DatePicker
          id="despatch_date"
          name="despatch_date"
          label="Despatch date"
          country={country}
          today={today}
          notBefore={today}
          value={despatchDate}
          onChange={setDespatchDate}
          invalid={Boolean(dateError)}
          describedBy={dateError ? "despatch_date-error" : undefined}
        />
        {dateError && (
          <p className="field-error" id="despatch_date-error">
            {dateError}
          </p>
        )}
      </div>
      <div>
        <label className="label" htmlFor="custom_reference">
          {data.customer.customReferenceLabel}
        </label>
        {data.customer.customReferenceChoices ? (
          <select id="custom_reference" name="custom_reference" className="input" value={customReference} onChange={(e) => setCustomReference(e.target.value)} aria-invalid={Boolean(errorFor("custom_reference"))}>
            <option value="">Choose…</option>
            {data.customer.customReferenceChoices.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        ) : (
          <input id="custom_reference" name="custom_reference" className="input" value={customReference} onChange={(e) => setCustomReference(e.target.value)} placeholder={data.customer.placeholders.custom_reference ?? ""} />
        )}
        {errorFor("custom_reference") && <p className="field-error">{errorFor("custom_reference")}</p>}
      </div>
      <div>
        <label className="label" htmlFor="site_code">
          Site
        </label>
        <select
          id="site_code"
          name="site_code"
          className="input"
          value={siteCode}
          onChange={(e) => {
            // the site's own end follows the site, unless it was changed by hand
            const next = data.sites.find((x) => x.code === e.target.value);
            const nextAddress = addressFrom(next?.address, emptyAddress());
            const untouched = (a: AddressState) => a.name === siteAddress.name && a.postcode === siteAddress.postcode;
            if (v.returnType === "return") setReceiver((a) => (untouched(a) ? nextAddress : a));
            else if (!v.returnType) setSender((a) => (untouched(a) ? nextAddress : a));
            changeSite(e.target.value);
          }}
        >
          {data.sites.map((s) => (
            <option key={s.code} value={s.code}>
              {s.name}
            </option>
          ))}
        </select>
      </div>
    </section>
  );
}
