/**
 * A carrier's own emission intensity per mode (docs/decisions/041): staff who keep carriers set
 * it; saving it queues the recomputation of that carrier's consignments, in the same transaction,
 * so a factor never changes without its figures following.
 */
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db, DbOrTx } from "../../../db/client.server";
import { carriers, TRANSPORT_MODES, type CarrierEmissionFactors, type TransportMode } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import type { JobQueue } from "../jobs/queue";
import { assertCarrierAdmin, parseFields } from "../carriers/access.server";
import { AppError } from "../../utils/errors";
import { rowsOf } from "../../utils/sql-rows";
import { sqlState } from "../../utils/http.server";
import { DEFAULT_FACTORS, factorFor } from "./method";
import { consignmentIdsAfter, refreshEmissions } from "./emissions.server";

export const RECOMPUTE_JOB = "emissions.recompute";
/** `missing`: only consignments with no figure or reason stored (the upgrade's backfill) */
export const recomputePayload = z.object({ carrierId: z.number().int().positive().nullable(), missing: z.boolean().optional() });
/** PostgreSQL's deadlock_detected */
const DEADLOCK = "40P01";
/** the backfill's job, one queued or running at a time */
export const BACKFILL_KEY = "emissions:backfill";
const BATCH = 500;

/** Not a carrier's own factor: the whole default table stands. 100,000 g/tkm is far above any freight mode's. */
const factorSchema = z
  .object({
    g_per_tkm: z.coerce.number({ error: "Factor must be a number" }).finite("Factor must be a number").min(0, "Factor cannot be negative").max(100_000, "Factor is too large (at most 100000 g CO2e per tonne-km)"),
    source: z.preprocess((v) => (typeof v === "string" ? v.trim() : v), z.string({ error: "Source is required" }).min(1, "Say where the factor comes from").max(200, "Source is too long (at most 200 characters)")),
  })
  .nullable();

/** PUT body: each mode given is set (an object) or returns to the default (null); modes left out keep theirs. */
export const factorsSchema = z.strictObject(Object.fromEntries(TRANSPORT_MODES.map((m) => [m, factorSchema.optional()])) as Record<TransportMode, z.ZodOptional<typeof factorSchema>>, {
  error: (issue) => (issue.code === "unrecognized_keys" ? `Unknown mode: ${issue.keys.join(", ")} (modes are ${TRANSPORT_MODES.join(", ")})` : undefined),
});

export interface CarrierFactorsJson {
  carrier_id: number;
  /** the factor in force per mode, whether it is the carrier's own, and the default it replaces */
  factors: Record<TransportMode, { g_per_tkm: number; source: string; own: boolean; default_g_per_tkm: number }>;
}

const toJson = (carrierId: number, own: CarrierEmissionFactors): CarrierFactorsJson => ({
  carrier_id: carrierId,
  factors: Object.fromEntries(
    TRANSPORT_MODES.map((m) => {
      const f = factorFor(m, own);
      return [m, { g_per_tkm: f.g_per_tkm, source: f.source, own: Boolean(own[m]), default_g_per_tkm: DEFAULT_FACTORS[m].g_per_tkm }];
    }),
  ) as CarrierFactorsJson["factors"],
});

async function ownFactors(db: DbOrTx, carrierId: number, lock = false): Promise<CarrierEmissionFactors> {
  const query = db.select({ f: carriers.emissionFactors }).from(carriers).where(eq(carriers.id, carrierId));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw new AppError("not_found", "Carrier not found");
  return row.f ?? {};
}

/** GET /api/carriers/{id}/emission_factors (staff who keep carriers). */
export async function getCarrierFactors(db: DbOrTx, user: CurrentUser, carrierId: number): Promise<CarrierFactorsJson> {
  assertCarrierAdmin(user);
  return toJson(carrierId, await ownFactors(db, carrierId));
}

/**
 * PUT /api/carriers/{id}/emission_factors and the carrier screen: sets or clears the carrier's own
 * factors; when any changed, queues the recomputation of its consignments (202 with the job).
 */
export async function setCarrierFactors(db: Db, queue: JobQueue, user: CurrentUser, carrierId: number, raw: unknown): Promise<CarrierFactorsJson & { job_id: string | null }> {
  assertCarrierAdmin(user);
  const input = parseFields(factorsSchema, raw);
  // the row is locked while read and written: two admins saving different modes at once both keep theirs
  return db.transaction(async (tx) => {
    const own = { ...(await ownFactors(tx, carrierId, true)) };
    for (const m of TRANSPORT_MODES) {
      const given = input[m];
      if (given === undefined) continue;
      if (given === null) delete own[m];
      else own[m] = { g_per_tkm: given.g_per_tkm, source: given.source };
    }
    await tx.update(carriers).set({ emissionFactors: own }).where(eq(carriers.id, carrierId));
    const { jobId } = await queue.enqueue(RECOMPUTE_JOB, { carrierId }, { tx, userId: user.id, customerId: user.customer.id, singletonKey: `emissions:${carrierId}` });
    return { ...toJson(carrierId, own), job_id: jobId };
  });
}

export interface RecomputeResult {
  recomputed: number;
}

export const recomputeMessage = (r: RecomputeResult) => `Recomputed the emissions of ${r.recomputed} consignment(s).`;

/**
 * The job: every consignment of the carrier (every consignment when null; with `missing`, only
 * those with nothing stored: the backfill), a batch per transaction, each read with the factors in
 * force when its batch runs. Idempotent: a second run writes the same figures.
 */
export async function runRecompute(db: Db, payload: z.infer<typeof recomputePayload>, progress: (pct: number, message: string) => Promise<void>): Promise<RecomputeResult> {
  let after = 0;
  let recomputed = 0;
  for (;;) {
    const ids = await consignmentIdsAfter(db, payload.carrierId, after, BATCH, payload.missing);
    if (ids.length === 0) break;
    // the batch's consignments held against a save until the batch commits: read unlocked, a save
    // committing between this read and the upsert below would have its new figure overwritten by
    // one of the version before it (the save waits instead, or this waits for it and reads it).
    // Taken in id order, as saves and merges take theirs; a bulk update in another order (a
    // carrier's codes renamed) can still deadlock with it, and the batch is then run again.
    const batch = () =>
      db.transaction(async (tx) => {
        await tx.execute(sql`select id from consignments where id = any(${`{${ids.join(",")}}`}::int[]) order by id for share`);
        return refreshEmissions(tx, ids);
      });
    recomputed += await batch().catch((e: unknown) => (sqlState(e) === DEADLOCK ? batch() : Promise.reject(e)));
    after = ids[ids.length - 1]!;
    await progress(0, `Recomputed ${recomputed} consignment(s)...`);
  }
  return { recomputed };
}

/**
 * An upgrade's backfill: consignments saved before figures were stored (migration 0035), or written
 * by anything but a save, have no row and answer "Not computed yet". A worker calls this as it
 * starts: when any consignment has none and no backfill is queued or running, it queues one for
 * those consignments alone. Returns the job's id, or null when nothing was queued.
 */
export async function queueEmissionsBackfill(db: Db, queue: JobQueue): Promise<string | null> {
  const [row] = rowsOf<{ missing: boolean; queued: boolean }>(
    await db.execute(sql`
      select exists (select 1 from consignments c where not exists (select 1 from consignment_emissions e where e.consignment_id = c.id)) as missing,
        exists (select 1 from jobs j where j.name = ${RECOMPUTE_JOB} and j.singleton_key = ${BACKFILL_KEY} and j.status in ('queued', 'working')) as queued`),
  );
  if (!row?.missing || row.queued) return null;
  const { jobId } = await queue.enqueue(RECOMPUTE_JOB, { carrierId: null, missing: true }, { singletonKey: BACKFILL_KEY });
  return jobId;
}
