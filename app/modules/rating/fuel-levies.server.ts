import { desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import { carriers, fuelLevies } from "../../../db/schema";
import { AppError } from "../../utils/errors";
import { calendarDate } from "../calendar/dates";
import { parseOrThrow } from "../../utils/validation";

const levySchema = z.object({
  carrier_code: z.string().trim().min(1, "Carrier is required"),
  percentage: z.coerce.number({ error: "Percentage must be a number" }).min(0, "Percentage must be 0 or more").max(100, "Percentage must be at most 100"),
  effective_from: calendarDate("Effective from", "Effective from must be a date"),
});

/** Fuel levies of every carrier, newest first per carrier. */
export function listFuelLevies(db: DbOrTx) {
  return db
    .select({ id: fuelLevies.id, carrierCode: carriers.code, carrierName: carriers.name, percentage: fuelLevies.percentage, effectiveFrom: fuelLevies.effectiveFrom })
    .from(fuelLevies)
    .innerJoin(carriers, eq(carriers.id, fuelLevies.carrierId))
    .orderBy(carriers.name, desc(fuelLevies.effectiveFrom));
}

/** Sets a carrier's levy from a date (replacing one already set for that date). */
export async function saveFuelLevy(db: DbOrTx, raw: unknown) {
  const v = parseOrThrow(levySchema, raw);
  const [carrier] = await db.select().from(carriers).where(sql`lower(${carriers.code}) = ${v.carrier_code.toLowerCase()}`);
  if (!carrier) throw new AppError("invalid", `Unknown carrier ${v.carrier_code}`, { carrier_code: [`Unknown carrier ${v.carrier_code}`] });
  await db
    .insert(fuelLevies)
    .values({ carrierId: carrier.id, percentage: String(v.percentage), effectiveFrom: v.effective_from })
    .onConflictDoUpdate({ target: [fuelLevies.carrierId, fuelLevies.effectiveFrom], set: { percentage: String(v.percentage) } });
  return { carrier_code: carrier.code, percentage: v.percentage, effective_from: v.effective_from };
}
