/** Carrier, customer, site and service selects by code: the scope of zones, exports and imports. */
export interface ReferenceLists {
  carriers: Array<{ id: number; code: string; name: string; services: Array<{ code: string; name: string }> }>;
  customers: Array<{ id: number; code: string; name: string; sites: Array<{ code: string; name: string }> }>;
}

export function ScopeFields({
  lists,
  values,
  idPrefix,
  requireCarrier = true,
}: {
  lists: ReferenceLists;
  values: Partial<Record<"carrier_code" | "customer_code" | "site_code" | "service_code", string>>;
  idPrefix: string;
  requireCarrier?: boolean;
}) {
  const carrier = lists.carriers.find((c) => c.code === values.carrier_code);
  const customer = lists.customers.find((c) => c.code === values.customer_code);
  const services = carrier ? carrier.services : lists.carriers.flatMap((c) => c.services.map((s) => ({ ...s, name: `${c.name}: ${s.name}` })));
  const sites = customer ? customer.sites : lists.customers.flatMap((c) => c.sites.map((s) => ({ ...s, name: `${c.code}: ${s.name}` })));
  return (
    <div className="grid gap-3 sm:grid-cols-4">
      <div>
        <label htmlFor={`${idPrefix}-carrier`} className="label">
          Carrier
        </label>
        <select id={`${idPrefix}-carrier`} name="carrier_code" defaultValue={values.carrier_code ?? ""} required={requireCarrier} className="input">
          <option value="">Choose a carrier</option>
          {lists.carriers.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name} ({c.code})
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${idPrefix}-customer`} className="label">
          Customer
        </label>
        <select id={`${idPrefix}-customer`} name="customer_code" defaultValue={values.customer_code ?? ""} className="input">
          <option value="">Any customer</option>
          {lists.customers.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name} ({c.code})
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${idPrefix}-site`} className="label">
          Site
        </label>
        <select id={`${idPrefix}-site`} name="site_code" defaultValue={values.site_code ?? ""} className="input">
          <option value="">Any site</option>
          {sites.map((s) => (
            <option key={`${s.code}-${s.name}`} value={s.code}>
              {s.name} ({s.code})
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${idPrefix}-service`} className="label">
          Service
        </label>
        <select id={`${idPrefix}-service`} name="service_code" defaultValue={values.service_code ?? ""} className="input">
          <option value="">Any service</option>
          {services.map((s) => (
            <option key={`${s.code}-${s.name}`} value={s.code}>
              {s.name} ({s.code})
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
