import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { carriers, customers, services, sites } from "../../../db/schema";
import { AppError } from "../../utils/errors";

/** Carrier, customer, site and service named by code (as imports and exports name them). */
export async function resolveCodes(
  db: DbOrTx,
  codes: { carrier_code: string; customer_code?: string | null; site_code?: string | null; service_code?: string | null },
) {
  const errors: Record<string, string[]> = {};
  const [carrier] = await db.select().from(carriers).where(sql`lower(${carriers.code}) = ${codes.carrier_code.toLowerCase()}`);
  if (!carrier) errors.carrier_code = [`Unknown carrier ${codes.carrier_code}`];
  let customer: typeof customers.$inferSelect | undefined;
  if (codes.customer_code) {
    [customer] = await db.select().from(customers).where(sql`lower(${customers.code}) = ${codes.customer_code.toLowerCase()}`);
    if (!customer) errors.customer_code = [`Unknown customer ${codes.customer_code}`];
  }
  let site: typeof sites.$inferSelect | undefined;
  if (codes.site_code) {
    if (!customer) errors.site_code = ["A site needs its customer"];
    else {
      [site] = await db
        .select()
        .from(sites)
        .where(and(eq(sites.customerId, customer.id), sql`lower(${sites.code}) = ${codes.site_code.toLowerCase()}`));
      if (!site) errors.site_code = [`Unknown site ${codes.site_code} for ${customer.code}`];
    }
  }
  let service: typeof services.$inferSelect | undefined;
  if (codes.service_code && carrier) {
    [service] = await db
      .select()
      .from(services)
      .where(and(eq(services.carrierId, carrier.id), sql`lower(${services.code}) = ${codes.service_code.toLowerCase()}`));
    if (!service) errors.service_code = [`Unknown service ${codes.service_code} for ${carrier.code}`];
  }
  if (Object.keys(errors).length) throw new AppError("invalid", Object.values(errors)[0]![0]!, errors);
  return { carrier: carrier!, customer, site, service };
}
