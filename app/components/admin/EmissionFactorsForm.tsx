import { Form } from "@remix-run/react";
import { TextField } from "~/components/Field";
import { factorField, MODE_LABELS, TRANSPORT_MODES } from "~/modules/emissions/factors-form";
import type { CarrierFactorsJson } from "~/modules/emissions/factors.server";

/**
 * A carrier's own emission intensity per mode (docs/decisions/041): a blank factor uses the
 * default shown. Saving recomputes the carrier's consignments in the background.
 */
export function EmissionFactorsForm({ factors, errors, values, busy }: { factors: CarrierFactorsJson; errors: Record<string, string[]>; values: Record<string, string> | null; busy: boolean }) {
  return (
    <Form method="post" className="card space-y-3" aria-labelledby="emission-factors-heading">
      <h2 id="emission-factors-heading" className="font-semibold">
        Emission factors
      </h2>
      <p className="text-sm text-slate-700">g CO2e per tonne-km, well-to-wheel. Leave a factor blank to use the default; saving recomputes this carrier&apos;s consignments.</p>
      {TRANSPORT_MODES.map((m) => {
        const f = factors.factors[m];
        const g = factorField(m, "g_per_tkm");
        const source = factorField(m, "source");
        return (
          <fieldset key={m} className="grid gap-2 sm:grid-cols-2">
            <legend className="label">{MODE_LABELS[m]}</legend>
            <TextField name={g} label={`${MODE_LABELS[m]} factor (g CO2e/t-km)`} errors={errors} inputMode="decimal" defaultValue={values?.[g] ?? (f.own ? String(f.g_per_tkm) : "")} placeholder={String(f.default_g_per_tkm)} hint={`Default ${f.default_g_per_tkm}`} />
            <TextField name={source} label={`${MODE_LABELS[m]} factor source`} errors={errors} maxLength={200} defaultValue={values?.[source] ?? (f.own ? f.source : "")} />
          </fieldset>
        );
      })}
      <button type="submit" name="intent" value="emission_factors" className="btn-primary" disabled={busy}>
        Save emission factors
      </button>
    </Form>
  );
}
