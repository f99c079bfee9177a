/** Carrier, customer, site and service selects by code: the scope of zones, exports and imports. */
export interface ReferenceLists {
  carriers: Array<{ id: number; code: string; name: string; services: Array<{ code: string; name: string }> }>;
  customers: Array<{ id: number; code: string; name: string; sites: Array<{ code: string; name: string }> }>;
}

type ScopeKey = "carrier_code" | "customer_code" | "site_code" | "service_code";

function CodeSelect(props: {
  id: string;
  name: ScopeKey;
  label: string;
  blank: string;
  options: Array<{ code: string; name: string }>;
  value?: string;
  required?: boolean;
}) {
  return (
    <div>
      <label htmlFor={props.id} className="label">
        {props.label}
      </label>
      <select id={props.id} name={props.name} defaultValue={props.value ?? ""} required={props.required} className="input">
        <option value="">{props.blank}</option>
        {props.options.map((o) => (
          <option key={`${o.code}-${o.name}`} value={o.code}>
            {o.name} ({o.code})
          </option>
        ))}
      </select>
    </div>
  );
}

export function ScopeFields({
  lists,
  values,
  idPrefix,
  requireCarrier = true,
}: {
  lists: ReferenceLists;
  values: Partial<Record<ScopeKey, string>>;
  idPrefix: string;
  requireCarrier?: boolean;
}) {
  const carrier = lists.carriers.find((c) => c.code === values.carrier_code);
  const customer = lists.customers.find((c) => c.code === values.customer_code);
  // with a carrier or customer chosen, only its services or sites; else all, named by owner
  const services = carrier ? carrier.services : lists.carriers.flatMap((c) => c.services.map((s) => ({ ...s, name: `${c.name}: ${s.name}` })));
  const sites = customer ? customer.sites : lists.customers.flatMap((c) => c.sites.map((s) => ({ ...s, name: `${c.code}: ${s.name}` })));
  return (
    <div className="grid gap-3 sm:grid-cols-4">
      <CodeSelect id={`${idPrefix}-carrier`} name="carrier_code" label="Carrier" blank="Choose a carrier" options={lists.carriers} value={values.carrier_code} required={requireCarrier} />
      <CodeSelect id={`${idPrefix}-customer`} name="customer_code" label="Customer" blank="Any customer" options={lists.customers} value={values.customer_code} />
      <CodeSelect id={`${idPrefix}-site`} name="site_code" label="Site" blank="Any site" options={sites} value={values.site_code} />
      <CodeSelect id={`${idPrefix}-service`} name="service_code" label="Service" blank="Any service" options={services} value={values.service_code} />
    </div>
  );
}
