import { Form } from "@remix-run/react";
import { TextField } from "~/components/Field";
import type { TestResult } from "~/modules/shipping-rules/screen.server";

type Errors = Record<string, string[] | undefined>;

/** 'Test a consignment': a receiver and one item line, rated with the saved rules; shows the rule matched and the rate. */
export function TestPanel({ sites, itemTypes, result, errors, busy }: { sites: Array<{ code: string; name: string }>; itemTypes: Array<{ id: number; description: string | null }>; result?: TestResult; errors: Errors; busy: boolean }) {
  const chosen = result?.chosen;
  return (
    <section className="card space-y-3" aria-labelledby="test-title">
      <h2 id="test-title" className="font-semibold">
        Test a consignment
      </h2>
      <Form method="post" className="space-y-3">
        <div className="grid gap-3 sm:grid-cols-4">
          <div>
            <label htmlFor="t_site_code" className="label">
              From site
            </label>
            <select id="t_site_code" name="t_site_code" className="input">
              {sites.map((s) => (
                <option key={s.code} value={s.code}>
                  {s.name}
                </option>
              ))}
            </select>
          </div>
          <TextField name="t_receiver_locality" label="Receiver suburb" errors={errors} required />
          <TextField name="t_receiver_postcode" label="Receiver postcode" errors={errors} required />
          <TextField name="t_receiver_region" label="Receiver state" errors={errors} />
          <div>
            <label htmlFor="t_receiver_address_type" className="label">
              Address type
            </label>
            <select id="t_receiver_address_type" name="t_receiver_address_type" className="input">
              <option value="business">Business</option>
              <option value="residential">Residential</option>
            </select>
          </div>
          <TextField name="t_quantity" label="Items" inputMode="numeric" defaultValue="1" errors={errors} />
          <TextField name="t_weight" label="Weight" inputMode="decimal" errors={errors} required />
          <TextField name="t_length" label="Length" inputMode="decimal" defaultValue="10" errors={errors} />
          <TextField name="t_width" label="Width" inputMode="decimal" defaultValue="10" errors={errors} />
          <TextField name="t_height" label="Height" inputMode="decimal" defaultValue="10" errors={errors} />
          {itemTypes.length > 0 && (
            <div>
              <label htmlFor="t_item_type" className="label">
                Item type
              </label>
              <select id="t_item_type" name="t_item_type" className="input">
                <option value="">None</option>
                {itemTypes.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.description ?? `#${t.id}`}
                  </option>
                ))}
              </select>
            </div>
          )}
          <TextField name="t_reference" label="Reference" errors={errors} />
          <TextField name="t_declared_value" label="Declared value" inputMode="decimal" errors={errors} />
          <label className="flex items-center gap-2 self-end text-sm">
            <input type="checkbox" name="t_dangerous_goods" />
            Dangerous goods
          </label>
        </div>
        <button type="submit" name="intent" value="test" className="btn" disabled={busy}>
          Test
        </button>
      </Form>
      {result && (
        <div role="status" data-testid="rule-test-result" className="space-y-1 text-sm">
          <p>
            {result.rule?.rule_name ? (
              <>
                Matched rule <strong>{result.rule.rule_name}</strong>: {result.rule.reason}
              </>
            ) : (
              "No rule matched."
            )}
          </p>
          {result.rule?.fall_throughs.map((f) => (
            <p key={f.rule_id}>
              Passed over {f.rule_name}: {f.reason}
            </p>
          ))}
          <p>{chosen ? `Rate: ${chosen.name}${chosen.total != null ? ` $${chosen.total.toFixed(2)}` : ""}${chosen.estimated_delivery_date ? `, delivery ${chosen.estimated_delivery_date}` : ""}` : "No service can carry this consignment."}</p>
        </div>
      )}
    </section>
  );
}
