/**
 * Soft delete and reinstate (spec 1 sections 2 and 7; DESIGN "Consignment lifecycle"): deleted
 * consignments, quotes and returns are inactive, and reinstating undoes it. Only ones that can
 * still be edited may be deleted.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import { consignmentChanges, consignments } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { AppError } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { canTransition, transition } from "./lifecycle";
import { idSchema, recordId } from "../../utils/ids";

const idsSchema = z.object({
  ids: z
    .union([z.array(idSchema("ids must be consignment ids")), z.string().transform((s) => s.split(",").filter(Boolean).map(Number))])
    .pipe(z.array(recordId("ids must be consignment ids")).min(1, "No consignments have been selected.").max(500, "At most 500 at a time")),
});

/**
 * The user's consignments among `ids` (customer and sites scoped), locked in id order as every
 * state change locks them: a despatch that moved them on meanwhile is seen, not overwritten, and
 * the common order lets two changes of overlapping selections wait for each other, not deadlock.
 */
async function lockScoped(tx: DbOrTx, user: CurrentUser, ids: number[]) {
  if (!user.siteIds.length) return [];
  return tx
    .select()
    .from(consignments)
    .where(and(inArray(consignments.id, ids), eq(consignments.customerId, user.customer.id), inArray(consignments.siteId, user.siteIds)))
    .orderBy(asc(consignments.id))
    .for("update");
}

/** POST /api/consignments/destroy_all?ids= (or { ids }): soft-deletes; all or nothing. */
export async function deleteConsignments(db: DbOrTx, user: CurrentUser, raw: unknown): Promise<{ deleted: number[] }> {
  const { ids } = parseOrThrow(idsSchema, raw);
  return db.transaction(async (tx) => {
    const rows = await lockScoped(tx, user, ids);
    if (rows.length !== new Set(ids).size) throw new AppError("not_found", "Consignment not found");
    const refused = rows.filter((r) => !r.active || !canTransition(r.state, "delete"));
    if (refused.length) throw new AppError("conflict", "Only consignments that have not been despatched can be deleted", { base: ["Only consignments that have not been despatched can be deleted"] });
    for (const r of rows) {
      const [row] = await tx
        .update(consignments)
        .set({ state: transition(r.state, "delete"), active: false, deletedBy: user.id, options: { ...r.options, state_before_delete: r.state }, version: sql`${consignments.version} + 1`, updatedAt: new Date() })
        .where(eq(consignments.id, r.id))
        .returning({ version: consignments.version });
      await tx.insert(consignmentChanges).values({ consignmentId: r.id, version: row!.version, field: "state", fromValue: r.state, toValue: "deleted", changedBy: user.id });
    }
    return { deleted: rows.map((r) => r.id) };
  });
}

/** POST /api/consignments/reinstate_all { ids }: undoes a delete, back to the state it had. */
export async function reinstateConsignments(db: DbOrTx, user: CurrentUser, raw: unknown): Promise<{ reinstated: number[] }> {
  const { ids } = parseOrThrow(idsSchema, raw);
  return db.transaction(async (tx) => {
    const rows = await lockScoped(tx, user, ids);
    if (rows.length !== new Set(ids).size) throw new AppError("not_found", "Consignment not found");
    if (rows.some((r) => r.state !== "deleted")) throw new AppError("conflict", "Only deleted consignments can be reinstated", { base: ["Only deleted consignments can be reinstated"] });
    for (const r of rows) {
      const { state_before_delete: before, ...options } = r.options as { state_before_delete?: string };
      const state = before === "quote" || before === "despatchable" || before === "open" ? before : r.isQuote ? "quote" : "open";
      const [row] = await tx
        .update(consignments)
        .set({ state, active: true, deletedBy: null, options, version: sql`${consignments.version} + 1`, updatedAt: new Date() })
        .where(eq(consignments.id, r.id))
        .returning({ version: consignments.version });
      await tx.insert(consignmentChanges).values({ consignmentId: r.id, version: row!.version, field: "state", fromValue: "deleted", toValue: state, changedBy: user.id });
    }
    return { reinstated: rows.map((r) => r.id) };
  });
}
