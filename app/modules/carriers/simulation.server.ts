/**
 * Telling the simulated carrier what to do (DESIGN "Carriers"): fail the next despatches, answer
 * cancellations with a chosen result, run its journeys on a faster clock, fail first deliveries or refuse pickup bookings. Carriers are shared by every customer, so only
 * super admins (devs) may change it; the demo and the end-to-end tests use it.
 */
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import { carriers } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { authorize } from "../auth/guard.server";
import { isSuperAdmin } from "../auth/roles";
import { AppError, notFound } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { adapterKind, type Simulation } from "./adapters.server";

const simulationSchema = z.object({
  fail_despatch: z.boolean().optional(),
  delay_ms: z.number().int().min(0).max(120_000).optional(),
  cancel_result: z.enum(["cancel_pending", "cancel_confirmed", "cancel_confirmed_for_auto_delivered", "cancel_rejected"]).optional(),
  reject_message: z.string().trim().max(255).optional(),
  // minutes from despatch to delivery for journeys planned from now on (fractions speed a test up); null: the real pace
  journey_minutes: z.number({ error: "journey_minutes must be a number of minutes" }).min(0, "journey_minutes must be from 0 to 10080 (a week)").max(10_080, "journey_minutes must be from 0 to 10080 (a week)").nullable().optional(),
  fail_delivery: z.boolean().optional(),
  fail_booking: z.boolean().optional(),
  fail_booking_permanently: z.boolean().optional(),
});

const NOT_SIMULATED = "Only the simulated carrier can be told what to do";

/** PUT /api/carriers/{code}/simulation: merges the given settings into the carrier's simulation. */
export async function setSimulation(db: DbOrTx, user: CurrentUser, code: string, raw: unknown): Promise<{ code: string; simulate: Simulation }> {
  authorize(user, isSuperAdmin);
  const patch = parseOrThrow(simulationSchema, raw);
  const [carrier] = await db.select().from(carriers).where(eq(sql`lower(${carriers.code})`, code.toLowerCase()));
  if (!carrier) throw notFound("Carrier");
  if (adapterKind(carrier) !== "simulated") throw new AppError("conflict", NOT_SIMULATED, { base: [NOT_SIMULATED] });
  const simulate = { ...((carrier.options.simulate ?? {}) as Simulation), ...patch };
  await db.update(carriers).set({ options: { ...carrier.options, simulate } }).where(eq(carriers.id, carrier.id));
  return { code: carrier.code, simulate };
}
