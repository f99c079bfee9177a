/**
 * A despatch whose worker died and that is not run again (docs/decisions/008): what it left
 * `despatching` is released so staff can act on it. A consignment that has no manifest never
 * reached a carrier (its manifest's transaction rolled back with the worker), so it is
 * despatchable again; one with a manifest was being redespatched, so it is a despatch failure
 * again and Redespatch sends that manifest once more.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { consignmentChanges, consignments } from "../../../db/schema";
import { transition } from "../consignments/lifecycle";
import { DESPATCHED_STATES } from "../consignments/rules";
import { progressMessage, type DespatchPayload } from "./despatch.server";

export const returnedError = (refs: string[]) => `Not despatched, ready to despatch again: ${refs.join(", ")}`;
export const failedAgainError = (refs: string[]) => `Despatch failed Consignment(s): ${refs.join(", ")}`;

export interface ReleasedDespatch {
  despatched: number;
  total: number;
  /** back to despatchable */
  returned: number[];
  /** back to despatch_failure (redespatch offered) */
  failed: number[];
}

/** Releases the job's consignments still despatching; the job's errors say where each went. */
export async function releaseDespatch(tx: DbOrTx, payload: DespatchPayload): Promise<{ errors: string[]; info: ReleasedDespatch }> {
  const scope = and(inArray(consignments.id, payload.ids), eq(consignments.customerId, payload.customerId));
  // locked in id order as every state change: a worker still finishing a manifest (one presumed
  // dead that was only slow) holds these rows, and what it despatched is not despatching any more
  const stranded = await tx
    .select()
    .from(consignments)
    .where(and(scope, eq(consignments.state, "despatching")))
    .orderBy(asc(consignments.id))
    .for("update");
  const returned: typeof stranded = [];
  const failed: typeof stranded = [];
  for (const r of stranded) {
    const event = r.manifestId ? "despatch_failed" : "despatch_abandoned";
    const state = transition(r.state, event);
    const [saved] = await tx
      .update(consignments)
      .set({ state, version: sql`${consignments.version} + 1`, updatedAt: new Date() })
      .where(eq(consignments.id, r.id))
      .returning({ version: consignments.version });
    // no user made this change: the history names none
    await tx.insert(consignmentChanges).values({ consignmentId: r.id, version: saved!.version, field: "state", fromValue: r.state, toValue: state, changedBy: null });
    (event === "despatch_failed" ? failed : returned).push(r);
  }
  const [{ n }] = (await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(consignments)
    .where(and(scope, inArray(consignments.state, DESPATCHED_STATES.filter((s) => s !== "despatching"))))) as [{ n: number }];
  const ref = (r: (typeof stranded)[number]) => r.consignmentNumber ?? String(r.id);
  const despatched = Number(n);
  return {
    errors: [
      progressMessage(despatched, payload.ids.length),
      ...(returned.length ? [returnedError(returned.map(ref))] : []),
      ...(failed.length ? [failedAgainError(failed.map(ref))] : []),
    ],
    info: { despatched, total: payload.ids.length, returned: returned.map((r) => r.id), failed: failed.map((r) => r.id) },
  };
}
