/** The small operations on one consignment: charge account of a failed despatch, promotion of a quote, a number without printing. */
import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { consignmentChanges, consignments } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { canEditFailedChargeAccount } from "../auth/roles";
import { AppError, notFound } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { allocateConsignmentNumber } from "../numbers/numbers.server";
import { canPromoteQuote, isFailed, PROMOTION_REFUSED } from "./rules";
import { chargeAccountSchema } from "./schema";
import { getConsignment, loadRow, STALE_MESSAGE, toJson, type ConsignmentJson } from "./consignments.server";
import { saveConsignment } from "./save.server";

/**
 * PUT /api/consignments/{id}/update_despatched_consignment: the charge account of a failed
 * despatch, by admin or super admin, with the version read (a lost race answers stale).
 */
export async function updateChargeAccount(db: DbOrTx, user: CurrentUser, id: number, raw: unknown): Promise<ConsignmentJson> {
  if (!canEditFailedChargeAccount(user)) throw new AppError("forbidden", "Only an admin or super admin may change the charge account of a failed despatch.");
  const input = parseOrThrow(chargeAccountSchema, raw);
  return db.transaction(async (tx) => {
    const existing = await loadRow(tx, user, id);
    if (!isFailed(existing.state)) throw new AppError("conflict", "Only the charge account of a failed despatch can be changed here", { base: ["Only the charge account of a failed despatch can be changed here"] });
    const [row] = await tx
      .update(consignments)
      .set({ chargeAccount: input.charge_account, version: sql`${consignments.version} + 1`, updatedAt: new Date() })
      .where(and(eq(consignments.id, id), eq(consignments.version, input.version)))
      .returning();
    if (!row) throw new AppError("stale", STALE_MESSAGE);
    if ((existing.chargeAccount ?? null) !== (row.chargeAccount ?? null)) {
      await tx.insert(consignmentChanges).values({ consignmentId: id, version: row.version, field: "charge_account", fromValue: existing.chargeAccount, toValue: row.chargeAccount, changedBy: user.id });
    }
    return toJson(tx, user, row);
  });
}

/** A saved consignment as save input again (merge and promotion re-save through saveConsignment). */
export function inputFrom(c: ConsignmentJson, items = c.items) {
  return {
    ...c,
    items: items.map((i) => ({
      quantity: i.quantity,
      item_type_id: i.item_type_id,
      reference: i.reference,
      length: i.length ?? 0,
      width: i.width ?? 0,
      height: i.height ?? 0,
      weight_in_uom: i.weight_in_uom ?? 0,
      consolidated: i.consolidated,
      dangerous_goods_items: i.dangerous_goods_items,
    })),
  };
}

/**
 * PUT /api/promote_quote_to_consignment/{id}: a valid quote (complete, with a rate) becomes a
 * consignment (or return) in place, re-priced by the ordinary save; has_quote_origin records it.
 */
export async function promoteQuote(db: DbOrTx, user: CurrentUser, id: number): Promise<ConsignmentJson> {
  return db.transaction(async (tx) => {
    const quote = await getConsignment(tx, user, id);
    if (!quote.is_quote) throw notFound("Quote");
    if (!canPromoteQuote(quote)) throw new AppError("conflict", PROMOTION_REFUSED, { base: [PROMOTION_REFUSED] });
    await tx.update(consignments).set({ isQuote: false, hasQuoteOrigin: true }).where(eq(consignments.id, id));
    const { consignment } = await saveConsignment(tx, user, id, inputFrom(quote), { returnType: quote.return_type });
    await tx.insert(consignmentChanges).values({ consignmentId: id, version: consignment.version, field: "promoted", fromValue: "quote", toValue: consignment.state, changedBy: user.id });
    return consignment;
  });
}

/**
 * PUT /api/consignments/{id}/allocate_without_printing: gives a complete consignment its number
 * from the carrier account's range without printing labels. Idempotent: a numbered consignment
 * keeps its number. The consignment row is locked so two callers cannot both allocate.
 */
export async function allocateWithoutPrinting(db: DbOrTx, user: CurrentUser, id: number): Promise<ConsignmentJson> {
  return db.transaction(async (tx) => {
    const row = await loadRow(tx, user, id, { lock: true });
    if (row.consignmentNumber) return toJson(tx, user, row);
    if (row.state !== "despatchable" || row.isQuote) throw new AppError("conflict", NOT_NUMBERABLE, { base: [NOT_NUMBERABLE] });
    if (!row.carrierAccountId) throw new AppError("conflict", NO_ACCOUNT, { base: [NO_ACCOUNT] });
    const number = await allocateConsignmentNumber(tx, row.carrierAccountId);
    const [saved] = await tx
      .update(consignments)
      .set({ consignmentNumber: number, version: sql`${consignments.version} + 1`, updatedAt: new Date() })
      .where(eq(consignments.id, id))
      .returning();
    await tx.insert(consignmentChanges).values({ consignmentId: id, version: saved!.version, field: "consignment_number", fromValue: null, toValue: number, changedBy: user.id });
    return toJson(tx, user, saved!);
  });
}

const NOT_NUMBERABLE = "Only a complete consignment with a rate can be given its number";
const NO_ACCOUNT = "The chosen service has no carrier account at this site. Please contact customer services.";
