import { Form, Link } from "@remix-run/react";
import { useEffect, useState, type ReactNode } from "react";
import { FieldError, FormErrors } from "~/components/Field";
import { AllocationRuleTester, AllocationRuleTestForm } from "~/components/finance/AllocationRuleTester";
import { ServerDialog } from "~/components/finance/ServerDialog";
import type { LineDetail } from "~/modules/invoices/details.server";
import { costCategoryLabel, isoToDisplay } from "~/modules/invoices/schemas";
import { apiFetch } from "~/utils/api-client";

type Choice = { id: number; name: string };

/** The payable fields the modal edits, in the spec's order (spec 3 "Invoice detail modal"). */
const TEXT_FIELDS: Array<[keyof LineDetail & string, string]> = [
  ["sender_name", "Sender name"],
  ["sender_locality", "Sender locality"],
  ["sender_region", "Sender state"],
  ["sender_postcode", "Sender postcode"],
  ["sender_zone", "Sender zone"],
  ["receiver_name", "Receiver name"],
  ["receiver_locality", "Receiver locality"],
  ["receiver_region", "Receiver state"],
  ["receiver_postcode", "Receiver postcode"],
  ["receiver_zone", "Receiver zone"],
  ["account_number", "Account number"],
  ["parent_account_number", "Parent account"],
  ["payer", "Payer"],
  ["reference", "Reference"],
  ["service_description", "Service description"],
  ["despatch_date", "Despatch date"],
  ["total_quantity", "Quantity"],
  ["total_weight_in_uom", "Dead weight"],
  ["total_charge_weight", "Charge weight"],
  ["total_volume_in_uom_cubed", "Volume"],
  ["total_cost", "Total cost"],
];

/**
 * The invoice detail modal, rendered by the server for `?detail=<id>` so it works before
 * JavaScript. Payable variant: pages through the invoice's lines, edits the line, picks customer,
 * site and service (or Unquoted), lists its costs and places the allocation rule tester.
 * Reconciliation variant (`costEditor` given): the line's fields read only and, in place of the
 * cost list and the payable buttons, the editor of its costs (its own form, with Save and Close).
 */
export function LineDetailDialog({
  line,
  choices,
  hrefFor,
  closeHref,
  canEdit,
  errors,
  message,
  redirectTo,
  costEditor,
  returnFocusId,
}: {
  line: LineDetail;
  choices: { customers: Choice[]; sites: Choice[]; services: Choice[] };
  hrefFor: (detailId: number) => string;
  closeHref: string;
  canEdit: boolean;
  errors: Record<string, string[]>;
  message?: string;
  redirectTo: string;
  /** the reconciliation variant's cost editor */
  costEditor?: ReactNode;
  returnFocusId?: string;
}) {
  const reconciliation = costEditor != null;
  const p = line.position;
  const [sites, setSites] = useState(choices.sites);
  // each load (another line, a save) brings the chosen customer's sites afresh
  useEffect(() => setSites(choices.sites), [choices.sites]);
  const value = (k: string) => {
    const v = (line as unknown as Record<string, unknown>)[k];
    return k === "despatch_date" ? isoToDisplay(v as string | null) : v == null ? "" : String(v);
  };
  const pager = (to: number | null, label: string, rel: string) =>
    to == null || to === line.id ? (
      <span className="btn opacity-50" aria-disabled="true">
        {label}
      </span>
    ) : (
      <Link to={hrefFor(to)} className="btn" preventScrollReset replace data-pager={rel}>
        {label}
      </Link>
    );
  return (
    <ServerDialog title={`Consignment ${line.consignment_number ?? "(none)"}`} closeHref={closeHref} returnFocusId={returnFocusId ?? `line-${line.id}`} testId="line-dialog" wide>
      {reconciliation ? null : (
      <nav aria-label="Invoice lines" className="flex flex-wrap items-center gap-2 text-sm">
        {pager(p.first, "First", "first")}
        {pager(p.previous, "Previous", "previous")}
        <span data-testid="line-position" aria-live="polite">
          {p.index} of {p.total}
        </span>
        {pager(p.next, "Next", "next")}
        {pager(p.last, "Last", "last")}
        <span className="ml-auto text-slate-600">State: {line.state.replaceAll("_", " ")}</span>
      </nav>
      )}
      {message ? (
        <p role="status" className="rounded border border-green-300 bg-green-50 px-3 py-2 text-sm" data-testid="line-message">
          {message}
        </p>
      ) : null}
      <FormErrors errors={errors.base} />
      {/* keyed by line: paging keeps the dialog (and focus on Next) but the fields must be the new line's */}
      {/* the reconciliation variant shows the line's fields as text (no tab stops that cannot be
          used) outside any form, so its cost editor's form is not nested */}
      {reconciliation ? (
        <dl className="grid grid-cols-2 gap-2 text-sm md:grid-cols-4" data-testid="line-fields">
          {TEXT_FIELDS.map(([k, label]) => (
            <div key={k}>
              <dt className="text-slate-500">{label}</dt>
              <dd>{value(k) || "—"}</dd>
            </div>
          ))}
          <div>
            <dt className="text-slate-500">Dangerous goods</dt>
            <dd>{line.dangerous_goods ? "Yes" : "No"}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Customer</dt>
            <dd>{line.customer_name ?? "—"}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Site</dt>
            <dd>{line.site_name ?? "—"}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Service</dt>
            <dd>{line.unquoted ? "Unquoted" : (line.service_name ?? "—")}</dd>
          </div>
        </dl>
      ) : (
      <Form key={line.id} method="post" replace preventScrollReset>
        <input type="hidden" name="detail_id" value={line.id} />
        <fieldset disabled={!canEdit} className="grid grid-cols-2 gap-3 md:grid-cols-4">
          <legend className="sr-only">Line fields</legend>
          {TEXT_FIELDS.map(([k, label]) => (
            <div key={k}>
              <label htmlFor={`f-${k}`} className="label">
                {label}
              </label>
              <input id={`f-${k}`} name={k} defaultValue={value(k)} className="input" maxLength={k === "despatch_date" ? 10 : 255} placeholder={k === "despatch_date" ? "dd/mm/yyyy" : undefined} aria-invalid={errors[k] ? true : undefined} aria-describedby={errors[k] ? `f-${k}-error` : undefined} />
              <FieldError id={`f-${k}-error`} errors={errors[k]} />
            </div>
          ))}
          <div className="flex items-end gap-2">
            <input id="f-dangerous_goods" type="checkbox" name="dangerous_goods" value="true" defaultChecked={line.dangerous_goods} />
            <label htmlFor="f-dangerous_goods">Dangerous goods</label>
          </div>
          <div>
            <label htmlFor="f-customer_id" className="label">
              Customer
            </label>
            <select
              id="f-customer_id"
              name="customer_id"
              defaultValue={line.customer_id ?? ""}
              className="input"
              aria-invalid={errors.customer_id ? true : undefined}
              aria-describedby={errors.customer_id ? "f-customer_id-error" : undefined}
              onChange={(e) => {
                // the site list follows the customer; without JavaScript it follows on save
                const id = e.currentTarget.value;
                if (!id) return setSites([]);
                void apiFetch<Choice[] | { sites: Choice[] }>(`/api/customers/${id}/sites`).then((r) => {
                  if (r.ok) setSites((Array.isArray(r.data) ? r.data : r.data.sites).map((s) => ({ id: s.id, name: s.name })));
                });
              }}
            >
              <option value="">None</option>
              {choices.customers.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
            <FieldError id="f-customer_id-error" errors={errors.customer_id} />
          </div>
          <div>
            <label htmlFor="f-site_id" className="label">
              Site
            </label>
            <select id="f-site_id" name="site_id" defaultValue={line.site_id ?? ""} className="input" aria-invalid={errors.site_id ? true : undefined} aria-describedby={errors.site_id ? "f-site_id-error" : undefined}>
              <option value="">None</option>
              {sites.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
            <FieldError id="f-site_id-error" errors={errors.site_id} />
          </div>
          <div>
            <label htmlFor="f-service_id" className="label">
              Service
            </label>
            <select id="f-service_id" name="service_id" defaultValue={line.unquoted ? "unquoted" : (line.service_id ?? "")} className="input" aria-invalid={errors.service_id ? true : undefined} aria-describedby={errors.service_id ? "f-service_id-error" : undefined}>
              <option value="">None</option>
              <option value="unquoted">Unquoted</option>
              {choices.services.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
            <FieldError id="f-service_id-error" errors={errors.service_id} />
          </div>
        </fieldset>
        <h3 className="mt-4 font-semibold">Costs</h3>
        {line.costs.length ? (
          <table className="w-full text-sm" data-testid="line-costs">
            <caption className="sr-only">Costs of this line</caption>
            <thead className="text-left text-xs uppercase text-slate-500">
              <tr>
                <th className="py-1">Category</th>
                <th className="py-1">Description</th>
                <th className="py-1 text-right">Amount</th>
              </tr>
            </thead>
            <tbody>
              {line.costs.map((c) => (
                <tr key={c.id}>
                  <td className="py-1">{costCategoryLabel(c.category)}</td>
                  <td className="py-1">{c.description}</td>
                  <td className="py-1 text-right tabular-nums">{c.amount.toFixed(2)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="text-sm text-slate-600">No costs.</p>
        )}
        <AllocationRuleTester invoiceDetailId={line.id} carrierId={line.carrier_id} />
        <div className="mt-4 flex justify-end gap-2">
          <Link to={closeHref} className="btn" replace preventScrollReset>
            Close
          </Link>
          {canEdit ? (
            <>
              <input type="hidden" name="invoice_ids" value={line.invoice_id} />
              <input type="hidden" name="redirectTo" value={redirectTo} />
              <button type="submit" name="intent" value="save_line" className="btn-primary">
                Save
              </button>
              <button type="submit" formAction="/invoices/allocate" className="btn">
                Allocate
              </button>
            </>
          ) : null}
        </div>
      </Form>
      )}
      {reconciliation ? null : <AllocationRuleTestForm invoiceDetailId={line.id} />}
      {costEditor}
    </ServerDialog>
  );
}
