import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import { carriers, surchargeSets } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { customerForStaff } from "../tenancy/customers.server";
import { AppError, notFound } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { idSchema } from "../../utils/ids";

const amount = z.coerce.number({ error: "Must be a number" }).min(0, "Must be 0 or more");
const amountSchema = z.object({ surcharge: amount, is_percentage: z.coerce.boolean().default(false), add_fuel_levy: z.coerce.boolean().default(false) });
const optionalAmount = amountSchema.nullable().optional().default(null);

const setSchema = z.object({
  id: idSchema("id must be a surcharge set id").optional(),
  name: z.string().trim().min(1, "Name is required").max(100),
  code: z.string().trim().min(1, "Code is required").max(40),
  carrier_code: z.string().trim().min(1, "Carrier is required"),
  service_codes: z.array(z.string().trim().min(1)).default([]),
  site_codes: z.array(z.string().trim().min(1)).default([]),
  dg_surcharge: optionalAmount,
  // the return surcharge has no percentage choice (spec 2)
  return_surcharge: z.object({ surcharge: amount, add_fuel_levy: z.coerce.boolean().default(false) }).transform((v) => ({ ...v, is_percentage: false })).nullable().optional().default(null),
  manual_handling_surcharge: optionalAmount,
  warranty_surcharge: optionalAmount,
  residential_surcharge: optionalAmount,
  oversized_surcharges: z
    .array(
      amountSchema.extend({
        level: z.coerce.number().int().min(1, "Level must be 1 or more"),
        from_m: amount.nullable().optional().default(null),
        to_m: amount.nullable().optional().default(null),
        from_kg: amount.nullable().optional().default(null),
        to_kg: amount.nullable().optional().default(null),
      }).refine((o) => o.from_m != null || o.from_kg != null, "Each oversize level needs from_m or from_kg"),
    )
    .default([]),
  remote_surcharges: z.array(amountSchema.extend({ tier: z.coerce.number().int().min(1, "Tier must be 1 to 4").max(4, "Tier must be 1 to 4") })).default([]),
});


function toJson(row: typeof surchargeSets.$inferSelect, carrierCode: string) {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    carrier_code: carrierCode,
    service_codes: row.serviceCodes,
    site_codes: row.siteCodes,
    dg_surcharge: row.dgSurcharge,
    return_surcharge: row.returnSurcharge,
    manual_handling_surcharge: row.manualHandlingSurcharge,
    warranty_surcharge: row.warrantySurcharge,
    residential_surcharge: row.residentialSurcharge,
    oversized_surcharges: [...row.oversizedSurcharges].sort((a, b) => a.level - b.level),
    remote_surcharges: [...row.remoteSurcharges].sort((a, b) => a.tier - b.tier),
  };
}
export type SurchargeSetJson = ReturnType<typeof toJson>;

export async function searchSurcharges(db: DbOrTx, user: CurrentUser, customerId: number, raw: unknown = {}) {
  await customerForStaff(db, user, customerId);
  const { carrier_code } = parseOrThrow(z.object({ carrier_code: z.string().optional() }), raw ?? {});
  const rows = await db
    .select({ set: surchargeSets, carrierCode: carriers.code })
    .from(surchargeSets)
    .innerJoin(carriers, eq(carriers.id, surchargeSets.carrierId))
    .where(and(eq(surchargeSets.customerId, customerId), carrier_code ? sql`lower(${carriers.code}) = ${carrier_code.toLowerCase()}` : undefined))
    .orderBy(asc(surchargeSets.name));
  return { surcharge_sets: rows.map((r) => toJson(r.set, r.carrierCode)) };
}

/** Creates or updates sets (by id, else by code) of one customer; all in one transaction. */
export async function saveSurcharges(db: DbOrTx, user: CurrentUser, customerId: number, raw: unknown) {
  await customerForStaff(db, user, customerId);
  const body = raw && typeof raw === "object" && "surcharge_sets" in raw ? raw : { surcharge_sets: [raw] };
  const { surcharge_sets } = parseOrThrow(z.object({ surcharge_sets: z.array(setSchema).min(1, "Nothing to save") }), body);
  const carrierRows = await db.select({ id: carriers.id, code: carriers.code }).from(carriers);
  return db.transaction(async (tx) => {
    const saved: SurchargeSetJson[] = [];
    for (const [i, s] of surcharge_sets.entries()) {
      const carrier = carrierRows.find((c) => c.code.toLowerCase() === s.carrier_code.toLowerCase());
      if (!carrier) throw new AppError("invalid", `Unknown carrier ${s.carrier_code}`, { [`surcharge_sets.${i}.carrier_code`]: [`Unknown carrier ${s.carrier_code}`] });
      const values = {
        customerId,
        carrierId: carrier.id,
        name: s.name,
        code: s.code,
        serviceCodes: s.service_codes,
        siteCodes: s.site_codes,
        dgSurcharge: s.dg_surcharge,
        returnSurcharge: s.return_surcharge,
        manualHandlingSurcharge: s.manual_handling_surcharge,
        warrantySurcharge: s.warranty_surcharge,
        residentialSurcharge: s.residential_surcharge,
        oversizedSurcharges: s.oversized_surcharges,
        remoteSurcharges: s.remote_surcharges,
        updatedAt: new Date(),
      };
      const [existing] = await tx
        .select({ id: surchargeSets.id })
        .from(surchargeSets)
        .where(and(eq(surchargeSets.customerId, customerId), s.id ? eq(surchargeSets.id, s.id) : sql`lower(${surchargeSets.code}) = ${s.code.toLowerCase()}`));
      if (s.id && !existing) throw notFound("Surcharge set");
      const [row] = existing
        ? await tx.update(surchargeSets).set(values).where(eq(surchargeSets.id, existing.id)).returning()
        : await tx.insert(surchargeSets).values(values).returning();
      saved.push(toJson(row!, carrier.code));
    }
    return { surcharge_sets: saved };
  });
}

export async function deleteSurcharges(db: DbOrTx, user: CurrentUser, customerId: number, raw: unknown) {
  await customerForStaff(db, user, customerId);
  const { ids } = parseOrThrow(z.object({ ids: z.array(idSchema("ids must be surcharge set ids")).min(1, "Choose what to delete") }), raw);
  const rows = await db
    .delete(surchargeSets)
    .where(and(eq(surchargeSets.customerId, customerId), inArray(surchargeSets.id, ids)))
    .returning({ id: surchargeSets.id });
  return { deleted: rows.map((r) => r.id) };
}
