/**
 * The /allocation_rules screen's reads and its form's translation into the /api body, so the
 * screen and the calls share one set of rules (schemas.ts, rules.server.ts).
 */
import { asc, eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { carriers, customers, services, sites } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { canAdministerInvoices, financeScope } from "../invoices/access";
import { listRules } from "./rules.server";

export async function rulesScreen(db: DbOrTx, user: CurrentUser, carrierCode: string | null) {
  const carrierList = await db.select({ code: carriers.code, name: carriers.name, id: carriers.id }).from(carriers).orderBy(asc(carriers.name));
  const carrier = carrierList.find((c) => c.code === carrierCode) ?? null;
  if (!carrier) return { carriers: carrierList, carrier: null, rules: [], customers: [], sites: [], services: [], canEdit: canAdministerInvoices(user) };
  const scope = financeScope(user);
  const own = (column: typeof customers.id | typeof sites.customerId) => (scope.kind === "all" ? undefined : eq(column, scope.customerId));
  const [rules, customerList, siteList, serviceList] = await Promise.all([
    listRules(db, user, carrier.code),
    // a customer's finance user (read only) is shown their own customer and sites, no other's (decision 022)
    db.select({ id: customers.id, code: customers.code, name: customers.name }).from(customers).where(own(customers.id)).orderBy(asc(customers.name)),
    db.select({ id: sites.id, code: sites.code, name: sites.name, customerCode: customers.code }).from(sites).innerJoin(customers, eq(customers.id, sites.customerId)).where(own(sites.customerId)).orderBy(asc(customers.code), asc(sites.code)),
    db.select({ id: services.id, code: services.code, name: services.name }).from(services).where(eq(services.carrierId, carrier.id)).orderBy(asc(services.name)),
  ]);
  return { carriers: carrierList, carrier, rules, customers: customerList, sites: siteList, services: serviceList, canEdit: canAdministerInvoices(user) };
}

/** The editor's form as the /api body: one select names the lookup target as "Model.field". */
export function ruleBodyFromForm(form: FormData, carrierCode: string) {
  const get = (k: string) => {
    const v = form.get(k);
    return typeof v === "string" ? v : "";
  };
  const type = get("type");
  const [model, field] = get("to_matcher").split(".");
  return {
    type,
    carrier_code: carrierCode,
    customer_id: get("customer_id") || null,
    allocation_model: get("allocation_model"),
    next_rule: get("next_rule") || null,
    options:
      type === "Mapping"
        ? { from_matcher: { field: get("field"), text: get("text") }, to_id: get("to_id") }
        : { from_matcher: { field: get("field") }, to_matcher: { model: model ?? "", field: field ?? "" } },
  };
}
