import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import { carrierAccounts, carriers, services, siteServices, sites } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { forbiddenMessage } from "../auth/guard.server";
import { canUpdateSiteServices } from "../auth/roles";
import { customerForStaff } from "../tenancy/customers.server";
import { AppError } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { idSchema } from "../../utils/ids";



const codes = z.preprocess((v) => (typeof v === "string" ? v.split(",").filter(Boolean) : v), z.array(z.string().trim()).default([]));

export async function searchSiteServices(db: DbOrTx, user: CurrentUser, customerId: number, raw: unknown = {}) {
  await customerForStaff(db, user, customerId);
  const f = parseOrThrow(z.object({ site_codes: codes, service_codes: codes, group_by: z.enum(["site", "service"]).default("site") }), raw ?? {});
  const rows = await db
    .select({ ss: siteServices, site: sites, service: services, carrier: carriers, account: carrierAccounts })
    .from(siteServices)
    .innerJoin(sites, eq(sites.id, siteServices.siteId))
    .innerJoin(services, eq(services.id, siteServices.serviceId))
    .innerJoin(carriers, eq(carriers.id, services.carrierId))
    .leftJoin(carrierAccounts, eq(carrierAccounts.id, siteServices.carrierAccountId))
    .where(
      and(
        eq(sites.customerId, customerId),
        f.site_codes.length ? inArray(sql`lower(${sites.code})`, f.site_codes.map((c) => c.toLowerCase())) : undefined,
        f.service_codes.length ? inArray(sql`lower(${services.code})`, f.service_codes.map((c) => c.toLowerCase())) : undefined,
      ),
    )
    .orderBy(...(f.group_by === "site" ? [asc(sites.name), asc(carriers.name), asc(services.name)] : [asc(carriers.name), asc(services.name), asc(sites.name)]));
  return {
    site_services: rows.map(({ ss, site, service, carrier, account }) => ({
      id: ss.id,
      site_code: site.code,
      site_name: site.name,
      carrier_code: carrier.code,
      carrier_name: carrier.name,
      service_code: service.code,
      service_name: service.name,
      carrier_service_code: `${carrier.code}:${service.code}`,
      code: `${site.code}:${carrier.code}:${service.code}`,
      rate_code: ss.rateCode,
      markup: Number(ss.markup),
      surcharges_markup: Number(ss.surchargesMarkup),
      enabled: ss.enabled,
      provider_account: account?.accountNumber ?? null,
      options: ss.options,
    })),
    group_by: f.group_by,
  };
}

const rowSchema = z.object({
  site_code: z.string().trim().min(1, "Site is required"),
  carrier_code: z.string().trim().min(1, "Carrier is required"),
  service_code: z.string().trim().min(1, "Service is required"),
  rate_code: z.string().trim().max(40).nullable().optional(),
  markup: z.coerce.number({ error: "Markup must be a number" }).min(-100).max(1000).default(0),
  surcharges_markup: z.coerce.number({ error: "Surcharges markup must be a number" }).min(-100).max(1000).default(0),
  enabled: z.coerce.boolean().default(true),
});

/** Assigns carrier services to sites (or updates the assignment), in one transaction. */
export async function saveSiteServices(db: DbOrTx, user: CurrentUser, customerId: number, raw: unknown) {
  await customerForStaff(db, user, customerId);
  // viewing is for the team; changing needs admin, super_admin or devs (spec 2: admin only, with a permission)
  if (!canUpdateSiteServices(user)) throw new AppError("forbidden", forbiddenMessage(user));
  const body = raw && typeof raw === "object" && "site_services" in raw ? raw : { site_services: [raw] };
  const { site_services } = parseOrThrow(z.object({ site_services: z.array(rowSchema).min(1, "Nothing to save") }), body);
  return db.transaction(async (tx) => {
    const ids: number[] = [];
    for (const [i, r] of site_services.entries()) {
      const [site] = await tx.select().from(sites).where(and(eq(sites.customerId, customerId), sql`lower(${sites.code}) = ${r.site_code.toLowerCase()}`));
      if (!site) throw new AppError("invalid", `Unknown site ${r.site_code}`, { [`site_services.${i}.site_code`]: [`Unknown site ${r.site_code}`] });
      const [found] = await tx
        .select({ service: services, carrier: carriers })
        .from(services)
        .innerJoin(carriers, eq(carriers.id, services.carrierId))
        .where(and(sql`lower(${carriers.code}) = ${r.carrier_code.toLowerCase()}`, sql`lower(${services.code}) = ${r.service_code.toLowerCase()}`));
      if (!found) throw new AppError("invalid", `Unknown service ${r.carrier_code}:${r.service_code}`, { [`site_services.${i}.service_code`]: [`Unknown service ${r.carrier_code}:${r.service_code}`] });
      const [account] = await tx
        .select({ id: carrierAccounts.id })
        .from(carrierAccounts)
        .where(and(eq(carrierAccounts.siteId, site.id), eq(carrierAccounts.carrierId, found.carrier.id), eq(carrierAccounts.active, true)))
        .limit(1);
      const [row] = await tx
        .insert(siteServices)
        .values({
          siteId: site.id,
          serviceId: found.service.id,
          carrierAccountId: account?.id ?? null,
          rateCode: r.rate_code ?? null,
          markup: String(r.markup),
          surchargesMarkup: String(r.surcharges_markup),
          enabled: r.enabled,
        })
        .onConflictDoUpdate({
          target: [siteServices.siteId, siteServices.serviceId],
          set: { rateCode: r.rate_code ?? null, markup: String(r.markup), surchargesMarkup: String(r.surcharges_markup), enabled: r.enabled },
        })
        .returning({ id: siteServices.id });
      ids.push(row!.id);
    }
    return { saved: ids };
  });
}

export async function deleteSiteServices(db: DbOrTx, user: CurrentUser, customerId: number, raw: unknown) {
  await customerForStaff(db, user, customerId);
  // viewing is for the team; changing needs admin, super_admin or devs (spec 2: admin only, with a permission)
  if (!canUpdateSiteServices(user)) throw new AppError("forbidden", forbiddenMessage(user));
  const { ids } = parseOrThrow(z.object({ ids: z.array(idSchema("ids must be site service ids")).min(1, "Choose what to delete") }), raw);
  const own = await db
    .select({ id: siteServices.id })
    .from(siteServices)
    .innerJoin(sites, eq(sites.id, siteServices.siteId))
    .where(and(eq(sites.customerId, customerId), inArray(siteServices.id, ids)));
  if (!own.length) return { deleted: [] };
  await db.delete(siteServices).where(inArray(siteServices.id, own.map((o) => o.id)));
  return { deleted: own.map((o) => o.id) };
}
