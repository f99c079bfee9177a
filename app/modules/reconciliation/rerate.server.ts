/**
 * Re-rating in reconciliation (spec 3 section 4 "Re-rating status", issue 19 item 1, decision
 * 020-finance-ii-detail): where rerateDecision says the carrier charged for another weight, other
 * zones or another service, the consignment is priced again through the product's own rating
 * engine (rateAtSite, as a consignment save prices it) with the invoice's values, and the outcome
 * is stored on the reconciliation (rerate_detail, rerate_status, rerate_error). The consignment
 * itself is never changed.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { addresses, carriers, consignmentItems, consignments, dangerousGoodsItems, invoiceCosts, invoiceDetails, reconciliations, services, sites } from "../../../db/schema";
import { ratingPayloadSchema, type RatingPayload } from "../rating/payload";
import { rateAtSite } from "../rating/rating.server";
import { placeName } from "../consignments/form";
import type { CurrentUser } from "../auth/current-user.server";
import { authorize } from "../auth/guard.server";
import { canAdministerInvoices } from "../invoices/access";
import { AppError } from "../../utils/errors";
import { compareAgain } from "./compare.server";
import { getReconciliation, visibleReconciliation } from "./detail.server";
import { RECONCILIATION_MESSAGES } from "./states";
import { rerateDecision, rerateStatus, type RerateStatus } from "./rerate";

/** spec 3 section 8's warning, when a reconciliation has no consignment to re-rate */
export const NO_CONSIGNMENT = "No consignment found";
export const SERVICE_CANNOT_RATE = "The service cannot rate this consignment";

export interface RerateOutcome {
  id: number;
  status: RerateStatus;
  error: string | null;
}

type Facts = NonNullable<Awaited<ReturnType<typeof readFacts>>>;

async function readFacts(db: DbOrTx, reconciliationId: number) {
  const [row] = await db
    .select({ r: reconciliations, d: invoiceDetails, c: consignments })
    .from(reconciliations)
    .innerJoin(invoiceDetails, eq(invoiceDetails.id, reconciliations.invoiceDetailId))
    .leftJoin(consignments, eq(consignments.id, reconciliations.consignmentId))
    .where(eq(reconciliations.id, reconciliationId));
  if (!row) return null;
  const costs = await db.select({ category: invoiceCosts.category, amount: invoiceCosts.amount }).from(invoiceCosts).where(eq(invoiceCosts.invoiceDetailId, row.d.id));
  return { ...row, costs };
}

/**
 * The rating payload of the consignment as the invoice describes it: the invoice's localities
 * and postcodes where it gives them (so its zones are resolved as the engine resolves any), its
 * charge weight as one line of that dead weight over the consignment's item count (so the engine's
 * charge weight is the invoice's), the consignment's items otherwise. The despatch date is the
 * consignment's (the lane and levy in force then).
 */
async function payloadFor(db: DbOrTx, f: Facts, chargeWeight: number | undefined): Promise<{ payload: RatingPayload } | { error: string }> {
  const c = f.c!;
  const [siteRow] = await db.select({ code: sites.code }).from(sites).where(eq(sites.id, c.siteId));
  const items = await db.select().from(consignmentItems).where(eq(consignmentItems.consignmentId, c.id));
  const dg = items.length ? await db.select({ itemId: dangerousGoodsItems.itemId }).from(dangerousGoodsItems).where(inArray(dangerousGoodsItems.itemId, items.map((i) => i.id))) : [];
  const ids = [c.senderAddressId, c.receiverAddressId].filter((v): v is number => v != null);
  const found = ids.length ? await db.select().from(addresses).where(inArray(addresses.id, ids)) : [];
  const sender = found.find((a) => a.id === c.senderAddressId);
  const receiver = found.find((a) => a.id === c.receiverAddressId);
  const hasDg = (id: number) => dg.some((d) => d.itemId === id);
  const quantity = items.reduce((a, i) => a + i.quantity, 0) || (f.d.totalQuantity ?? 0);
  const lines =
    chargeWeight !== undefined
      ? [{ quantity, length: 1, width: 1, height: 1, weight_in_uom: chargeWeight, dangerous_goods: items.some((i) => hasDg(i.id)) || f.d.dangerousGoods }]
      : items.map((i) => ({ quantity: i.quantity, length: Number(i.length ?? 0), width: Number(i.width ?? 0), height: Number(i.height ?? 0), weight_in_uom: Number(i.weightInUom ?? 0), dangerous_goods: hasDg(i.id) }));
  const part = (invoiceValue: string | null, stored: string | null | undefined) => (invoiceValue?.trim() ? invoiceValue.trim() : (stored ?? ""));
  const raw = {
    // checked with today's date: the schema refuses past dates, a re-rate prices the day it went
    despatch_date: new Date().toISOString().slice(0, 10),
    site_code: siteRow?.code ?? "",
    items: lines.length ? lines : [{ quantity: 0, weight_in_uom: 0 }],
    return_type: c.returnType,
    sender_locality: part(f.d.senderLocality, sender && placeName(sender)),
    sender_postcode: part(f.d.senderPostcode, sender?.postcode),
    sender_country: sender?.country ?? "AUSTRALIA",
    sender_address_type: sender?.addressType === "residential" ? "residential" : "business",
    receiver_locality: part(f.d.receiverLocality, receiver && placeName(receiver)),
    receiver_postcode: part(f.d.receiverPostcode, receiver?.postcode),
    receiver_country: receiver?.country ?? "AUSTRALIA",
    receiver_address_type: receiver?.addressType === "residential" ? "residential" : "business",
  };
  const parsed = ratingPayloadSchema.safeParse(raw);
  if (!parsed.success) {
    // the messages the screen shows for a consignment that cannot rate: weight, quantity, places
    const messages = parsed.error.issues.map((i) => i.message);
    const known = ["Must have weight", "Must have quantity", "Invalid sender locality", "Invalid receiver locality"];
    return { error: known.find((m) => messages.includes(m)) ?? messages[0] ?? "Error rerating" };
  }
  return { payload: { ...parsed.data, despatch_date: c.despatchDate ?? parsed.data.despatch_date } };
}

async function rerateOne(db: DbOrTx, f: Facts): Promise<{ status: RerateStatus; error: string | null; detail: Record<string, unknown> | null; required: boolean }> {
  const facts = { costs: f.costs, total_cost: f.d.totalCost, charge_weight: f.d.totalChargeWeight, from_zone: f.d.senderZone, to_zone: f.d.receiverZone, service_id: f.d.serviceId, unquoted: f.d.unquoted };
  const consignment = f.c ? { rating_detail: f.c.ratingDetail, service_id: f.c.serviceId } : null;
  const decision = rerateDecision(facts, consignment);
  if (!decision.required) return { status: rerateStatus({ rerate_required: false, has_consignment: consignment != null, outcome: null }), error: null, detail: null, required: false };
  if (!f.c) return { status: "rerate_error", error: NO_CONSIGNMENT, detail: null, required: true };
  const failed = (error: string) => ({ status: rerateStatus({ rerate_required: true, has_consignment: true, outcome: "failed" }), error, detail: null, required: true });
  const built = await payloadFor(db, f, decision.changes.charge_weight);
  if ("error" in built) return failed(built.error);
  const [site] = await db.select({ id: sites.id, code: sites.code, som: sites.som, region: sites.region }).from(sites).where(eq(sites.id, f.c.siteId));
  const serviceId = !f.d.unquoted && f.d.serviceId != null ? f.d.serviceId : f.c.serviceId;
  const [svc] = serviceId == null ? [] : await db.select({ code: services.code, carrierCode: carriers.code }).from(services).innerJoin(carriers, eq(carriers.id, services.carrierId)).where(eq(services.id, serviceId));
  if (!site || !svc) return failed(SERVICE_CANNOT_RATE);
  try {
    const response = await rateAtSite(db, f.c.customerId, site, built.payload);
    const rate = response.carriers.find((r) => r.code.toLowerCase() === svc.carrierCode.toLowerCase() && r.service_code.toLowerCase() === svc.code.toLowerCase());
    if (!rate?.rating_detail) return failed(SERVICE_CANNOT_RATE);
    return { status: rerateStatus({ rerate_required: true, has_consignment: true, outcome: "done" }), error: null, detail: rate.rating_detail as unknown as Record<string, unknown>, required: true };
  } catch (e) {
    // the engine's own refusals ('Invalid sender locality', ...) are the re-rate's error
    if (e instanceof AppError) return failed(e.message);
    throw e;
  }
}

/**
 * Re-rates the reconciliations `reconciliationIds` (the ones whose re-rate is not required are
 * marked 'Same as original consignment'); what the reconcile job may call after comparing.
 */
export async function rerateLines(db: DbOrTx, reconciliationIds: number[]): Promise<RerateOutcome[]> {
  const out: RerateOutcome[] = [];
  for (const id of new Set(reconciliationIds)) {
    const f = await readFacts(db, id);
    if (!f) continue;
    const result = await rerateOne(db, f);
    await db
      .update(reconciliations)
      .set({ rerateRequired: result.required, rerateStatus: result.status, rerateError: result.error, rerateDetail: result.detail })
      .where(and(eq(reconciliations.id, id)));
    out.push({ id, status: result.status, error: result.error });
  }
  return out;
}

/** Why Re Run is refused on a reconciled line (spec 3 section 2: Re Run only when not reconciled). */
export const ALREADY_RECONCILED = "it is already reconciled";

/**
 * POST /api/reconciliations/{id}/reconcile (Re Run): the line compared again and re-rated.
 * Refused on a reconciled line: 'Failed to reconcile, reason: {message}'.
 */
export async function rerunReconciliation(db: DbOrTx, user: CurrentUser, id: number) {
  authorize(user, canAdministerInvoices);
  // locked: an accept that lands while this runs waits, so a reconciled line is never compared again
  await db.transaction(async (tx) => {
    const r = await visibleReconciliation(tx, user, id, { lock: true });
    if (r.state === "reconciled") {
      const message = RECONCILIATION_MESSAGES.failedToReconcile(ALREADY_RECONCILED);
      throw new AppError("conflict", message, { base: [message] });
    }
    await compareAgain(tx, id);
    await rerateLines(tx, [id]);
  });
  return getReconciliation(db, user, id);
}
