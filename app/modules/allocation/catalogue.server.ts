/**
 * What Lookup rules look values up in, loaded once per carrier (and, for consignments, once per
 * set of values) so the engine answers 50,000 lines from memory.
 */
import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { rowsOf } from "../../utils/sql-rows";
import { norm, type Catalogue, type Found } from "./engine";
import type { LookupModel } from "./schemas";

type Index = Map<string, Found[]>;

function add(index: Index, key: unknown, found: Found) {
  const k = norm(key);
  if (!k) return;
  const list = index.get(k);
  if (list) list.push(found);
  else index.set(k, [found]);
}

export interface LoadedCatalogue {
  lookup: Catalogue;
  siteCustomer: (siteId: number) => number | null;
}

/**
 * Customers and sites (any carrier's lines may name them), and the carrier's accounts and
 * services; consignments of the carrier whose numbers are among `consignmentValues`.
 */
export async function loadCatalogue(db: DbOrTx, carrierId: number, consignmentValues: string[]): Promise<LoadedCatalogue> {
  const indexes = new Map<string, Index>();
  const ix = (model: LookupModel, field: string) => {
    const key = `${model}.${field}`;
    let i = indexes.get(key);
    if (!i) indexes.set(key, (i = new Map()));
    return i;
  };
  const customers = rowsOf<{ id: number; name: string; code: string }>(await db.execute(sql`select id, name, code from customers where not disabled`));
  for (const c of customers) {
    add(ix("Customer", "name"), c.name, { customerId: c.id });
    add(ix("Customer", "code"), c.code, { customerId: c.id });
  }
  const sites = rowsOf<{ id: number; customer_id: number; name: string; code: string }>(await db.execute(sql`select id, customer_id, name, code from sites where active`));
  const siteCustomers = new Map<number, number>();
  for (const s of sites) {
    siteCustomers.set(s.id, s.customer_id);
    add(ix("Site", "name"), s.name, { customerId: s.customer_id, siteId: s.id });
    add(ix("Site", "code"), s.code, { customerId: s.customer_id, siteId: s.id });
  }
  const accounts = rowsOf<{ site_id: number; customer_id: number; service_id: number | null; account_number: string; prefix: string; reference: string | null }>(
    await db.execute(sql`
      select a.site_id, s.customer_id, a.service_id, a.account_number, a.consignment_number_prefix as prefix, a.carrier_customer_reference as reference
      from carrier_accounts a join sites s on s.id = a.site_id where a.carrier_id = ${carrierId} and a.active`),
  );
  for (const a of accounts) {
    const found = { customerId: a.customer_id, siteId: a.site_id, serviceId: a.service_id };
    add(ix("Account", "account_number"), a.account_number, found);
    add(ix("Account", "carrier_customer_reference"), a.reference, found);
  }
  // longest prefix first: 'SX1' is a closer match than 'SX'
  const prefixes = accounts.filter((a) => norm(a.prefix)).sort((a, b) => b.prefix.length - a.prefix.length);
  const services = rowsOf<{ id: number; name: string; code: string; by_code: string | null; by_name: string | null }>(
    await db.execute(sql`select id, name, code, service_code_by_carrier as by_code, service_name_by_carrier as by_name from services where carrier_id = ${carrierId}`),
  );
  for (const s of services) {
    add(ix("CarrierService", "name"), s.name, { serviceId: s.id });
    add(ix("CarrierService", "code"), s.code, { serviceId: s.id });
    add(ix("CarrierService", "service_code_by_carrier"), s.by_code, { serviceId: s.id });
    add(ix("CarrierService", "service_name_by_carrier"), s.by_name, { serviceId: s.id });
  }
  const wanted = [...new Set(consignmentValues.map(norm).filter(Boolean))];
  if (wanted.length) {
    const found = rowsOf<{ number: string; customer_id: number; site_id: number; service_id: number | null }>(
      await db.execute(sql`
        select c.consignment_number as number, c.customer_id, c.site_id, c.service_id
        from consignments c join carrier_accounts a on a.id = c.carrier_account_id
        where a.carrier_id = ${carrierId} and c.state not in ('deleted', 'merged', 'cancelled')
          and lower(c.consignment_number) in (select jsonb_array_elements_text(${JSON.stringify(wanted)}::jsonb))`),
    );
    for (const c of found) add(ix("Consignment", "consignment_number"), c.number, { customerId: c.customer_id, siteId: c.site_id, serviceId: c.service_id });
  }
  return {
    lookup: (model, field, value) => {
      if (model === "Account" && field === "consignment_number_prefix") {
        const a = prefixes.find((p) => value.startsWith(norm(p.prefix)));
        return a ? [{ customerId: a.customer_id, siteId: a.site_id, serviceId: a.service_id }] : [];
      }
      return indexes.get(`${model}.${field}`)?.get(value) ?? [];
    },
    siteCustomer: (siteId) => siteCustomers.get(siteId) ?? null,
  };
}
