import { Form } from "@remix-run/react";
import { FieldError } from "~/components/Field";
import { DATE_FILTERS, DATE_FILTER_LABELS, type DateFilter } from "~/modules/invoices/schemas";

/**
 * The invoice lists' filters (spec 3 "Invoices payable" and "Invoices receivable"): carrier
 * (payable), customer (staff only) and invoice date; a GET form, so every choice lives in the URL. From and to count for Custom.
 */
export function InvoiceFilters({
  filters,
  choices,
  errors,
}: {
  filters: { carrier_id: string; customer_id: string; date: DateFilter; from: string; to: string; state: string };
  choices: { carriers: { id: number; name: string }[]; customers: { id: number; name: string }[] };
  errors: Record<string, string[]>;
}) {
  const select = (name: "carrier_id" | "customer_id", label: string, options: { id: number; name: string }[]) => (
    <div className="w-56">
      <label htmlFor={name} className="label">
        {label}
      </label>
      <select id={name} name={name} defaultValue={filters[name]} className="input" aria-invalid={errors[name] ? true : undefined} aria-describedby={errors[name] ? `${name}-error` : undefined}>
        <option value="">All</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
      <FieldError id={`${name}-error`} errors={errors[name]} />
    </div>
  );
  return (
    <Form method="get" className="card flex flex-wrap items-start gap-3" aria-label="Invoice filter">
      {/* the receivable list has no carrier: it passes none */}
      {choices.carriers.length ? select("carrier_id", "Carrier", choices.carriers) : null}
      {choices.customers.length ? select("customer_id", "Customer", choices.customers) : null}
      <div className="w-44">
        <label htmlFor="date" className="label">
          Invoice date
        </label>
        <select id="date" name="date" defaultValue={filters.date} className="input">
          {DATE_FILTERS.map((d) => (
            <option key={d} value={d}>
              {DATE_FILTER_LABELS[d]}
            </option>
          ))}
        </select>
      </div>
      {(["from", "to"] as const).map((k) => (
        <div key={k} className="w-40">
          <label htmlFor={`date-${k}`} className="label">
            {k === "from" ? "From (custom)" : "To (custom)"}
          </label>
          <input id={`date-${k}`} type="date" name={k} defaultValue={filters[k]} className="input" aria-invalid={errors[k] ? true : undefined} aria-describedby={errors[k] ? `${k}-error` : undefined} />
          <FieldError id={`${k}-error`} errors={errors[k]} />
        </div>
      ))}
      {filters.state ? <input type="hidden" name="state" value={filters.state} /> : null}
      <button type="submit" className="btn-primary mt-6">
        Show
      </button>
    </Form>
  );
}
