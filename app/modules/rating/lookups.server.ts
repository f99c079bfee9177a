import { asc, eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { carriers, customers, services, sites } from "../../../db/schema";

/** Codes for the staff screens' selects: carriers with services, customers with sites. */
export async function referenceLists(db: DbOrTx) {
  const [carrierRows, serviceRows, customerRows, siteRows] = await Promise.all([
    db.select({ id: carriers.id, code: carriers.code, name: carriers.name }).from(carriers).orderBy(asc(carriers.name)),
    db.select({ id: services.id, carrierId: services.carrierId, code: services.code, name: services.name }).from(services).orderBy(asc(services.name)),
    db.select({ id: customers.id, code: customers.code, name: customers.name }).from(customers).orderBy(asc(customers.name)),
    db.select({ id: sites.id, customerId: sites.customerId, code: sites.code, name: sites.name }).from(sites).where(eq(sites.active, true)).orderBy(asc(sites.name)),
  ]);
  return {
    carriers: carrierRows.map((c) => ({ ...c, services: serviceRows.filter((s) => s.carrierId === c.id) })),
    customers: customerRows.map((c) => ({ ...c, sites: siteRows.filter((s) => s.customerId === c.id) })),
  };
}
