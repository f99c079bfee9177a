/**
 * Re-rating in reconciliation (spec 3 section 4 "Re-rating status", issue 19 item 1, decision
 * 020-finance-ii-detail): where rerateDecision says the carrier charged for another weight, other
 * zones or another service, the consignment is priced again through the product's own rating
 * engine (rateAtSite, as a consignment save prices it) with the invoice's values, and the outcome
 * is stored on the reconciliation (rerate_detail, rerate_status, rerate_error). The consignment
 * itself is never changed.
 */
import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { ratingPayloadSchema, type RatingPayload } from "../rating/payload";
import { ratingData, type RatingData } from "../rating/rating-data.server";
import { rateAtSite } from "../rating/rating.server";
import { placeName } from "../consignments/form";
import type { CurrentUser } from "../auth/current-user.server";
import { authorize } from "../auth/guard.server";
import { canAdministerInvoices } from "../invoices/access";
import { AppError } from "../../utils/errors";
import { compareAgain } from "./compare.server";
import { getReconciliation, visibleReconciliation } from "./detail.server";
import { RECONCILIATION_MESSAGES } from "./states";
import { NO_CONSIGNMENT, rerateDecision, rerateStatus, type RerateStatus } from "./rerate";
import { laneOf, remeasure } from "./remeasure";
import { readRerateFacts, type RerateFacts, type RerateService, type RerateSite } from "./rerate-facts.server";

export { NO_CONSIGNMENT };
export const SERVICE_CANNOT_RATE = "The service cannot rate this consignment";

export interface RerateOutcome {
  id: number;
  status: RerateStatus;
  error: string | null;
}

interface RerateResult {
  status: RerateStatus;
  error: string | null;
  detail: Record<string, unknown> | null;
  required: boolean;
}

/**
 * The rating payload of the consignment as the invoice describes it: the invoice's localities
 * and postcodes where it gives them (so its zones are resolved as the engine resolves any), and
 * when it billed another weight, the consignment's own items re-measured to the billed dead
 * weight, charge weight and volume (remeasure.ts, decision 027), so the engine applies the
 * dimension- and weight-based surcharges as the carrier would. The despatch date is the
 * consignment's (the lane and levy in force then).
 */
function payloadFor(f: RerateFacts, reweigh: boolean): { payload: RatingPayload } | { error: string } {
  const c = f.c!;
  const { sender, receiver } = f;
  const som = f.site?.som ?? "metric";
  const own = f.items.map((i) => ({ quantity: i.quantity, length: Number(i.length ?? 0), width: Number(i.width ?? 0), height: Number(i.height ?? 0), weight: Number(i.weightInUom ?? 0) }));
  const measured = reweigh ? remeasure(own, som, laneOf(c.ratingDetail), billedOf(f)).lines : own;
  const lines = f.items.map((i, n) => {
    const { quantity, length, width, height, weight } = measured[n]!;
    return { quantity, length, width, height, weight_in_uom: weight, dangerous_goods: f.dgItemIds.has(i.id) };
  });
  if (lines.length === 0 && reweigh) {
    // no items to re-measure: the invoice's figures are all there is
    const quantity = f.d.totalQuantity ?? 0;
    lines.push({ quantity, length: 1, width: 1, height: 1, weight_in_uom: Number(f.d.totalChargeWeight ?? 0), dangerous_goods: f.d.dangerousGoods });
  }
  const part = (invoiceValue: string | null, stored: string | null | undefined) => (invoiceValue?.trim() ? invoiceValue.trim() : (stored ?? ""));
  const raw = {
    // checked with today's date: the schema refuses past dates, a re-rate prices the day it went
    despatch_date: new Date().toISOString().slice(0, 10),
    site_code: f.site?.code ?? "",
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

const measureOf = (v: string | null) => (v == null || v === "" ? null : Number(v));
const billedOf = (f: RerateFacts) => ({ dead_weight: measureOf(f.d.totalWeightInUom), charge_weight: measureOf(f.d.totalChargeWeight), volume: measureOf(f.d.totalVolume) });

/** What is known before pricing: the outcome when the line needs no rating or cannot rate, else what to price. */
type Prepared = { done: RerateResult } | { payload: RatingPayload; site: RerateSite; service: RerateService; customerId: number };

function prepare(f: RerateFacts): Prepared {
  const facts = { costs: f.costs, total_cost: f.d.totalCost, charge_weight: f.d.totalChargeWeight, from_zone: f.d.senderZone, to_zone: f.d.receiverZone, service_id: f.d.serviceId, unquoted: f.d.unquoted };
  const consignment = f.c ? { rating_detail: f.c.ratingDetail, service_id: f.c.serviceId } : null;
  const decision = rerateDecision(facts, consignment);
  if (!decision.required) return { done: { status: rerateStatus({ rerate_required: false, has_consignment: consignment != null, outcome: null }), error: null, detail: null, required: false } };
  if (!f.c) return { done: { status: "rerate_error", error: NO_CONSIGNMENT, detail: null, required: true } };
  const built = payloadFor(f, decision.changes.charge_weight !== undefined);
  if ("error" in built) return { done: failed(built.error) };
  if (!f.site || !f.service) return { done: failed(SERVICE_CANNOT_RATE) };
  return { payload: built.payload, site: f.site, service: f.service, customerId: f.c.customerId };
}

function failed(error: string): RerateResult {
  return { status: rerateStatus({ rerate_required: true, has_consignment: true, outcome: "failed" }), error, detail: null, required: true };
}

async function price(db: DbOrTx, p: Exclude<Prepared, { done: RerateResult }>, data: RatingData): Promise<RerateResult> {
  try {
    const response = await rateAtSite(db, p.customerId, p.site, p.payload, data);
    const rate = response.carriers.find((r) => r.code.toLowerCase() === p.service.carrierCode.toLowerCase() && r.service_code.toLowerCase() === p.service.code.toLowerCase());
    if (!rate?.rating_detail) return failed(SERVICE_CANNOT_RATE);
    return { status: rerateStatus({ rerate_required: true, has_consignment: true, outcome: "done" }), error: null, detail: rate.rating_detail as unknown as Record<string, unknown>, required: true };
  } catch (e) {
    // the engine's own refusals ('Invalid sender locality', ...) are the re-rate's error
    if (e instanceof AppError) return failed(e.message);
    throw e;
  }
}

/**
 * The outcomes, one statement for the lot (the rows as one JSON parameter). Each only where the
 * reconciliation's version is the one its facts were read at: a Re Run or a cost change that
 * landed while the chunk was being priced (it raises the version, and re-rates itself) is not
 * overwritten by this older outcome.
 */
async function writeOutcomes(db: DbOrTx, results: Array<{ id: number; version: number } & RerateResult>) {
  if (results.length === 0) return;
  const rows = results.map((r) => ({ id: r.id, version: r.version, required: r.required, status: r.status, error: r.error, detail: r.detail }));
  await db.execute(sql`
    update reconciliations r set rerate_required = x.required, rerate_status = x.status, rerate_error = x.error, rerate_detail = x.detail
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(id int, version int, required boolean, status text, error text, detail jsonb)
    where r.id = x.id and r.version = x.version`);
}

/**
 * Re-rates the reconciliations `reconciliationIds` (the ones whose re-rate is not required are
 * marked 'Same as original consignment'); what the reconcile job calls after comparing, a chunk at
 * a time. Each line is priced by rateAtSite as before; the facts are read for the whole chunk, the
 * engine's reference data once for it (as the bulk upload does), and the outcomes written in one
 * statement. `beforeWrite` lets a test act between the pricing and the write.
 */
export async function rerateLines(db: DbOrTx, reconciliationIds: number[], hooks: { beforeWrite?: () => Promise<void> } = {}): Promise<RerateOutcome[]> {
  const unique = [...new Set(reconciliationIds)];
  const facts = await readRerateFacts(db, unique);
  const prepared = unique.flatMap((id) => {
    const f = facts.get(id);
    return f ? [{ id, version: f.version, p: prepare(f) }] : [];
  });
  const toPrice = prepared.flatMap(({ p }) => ("done" in p ? [] : [p]));
  const data = toPrice.length ? await ratingData(db) : null;
  if (data) await warmCache(data, toPrice);
  const results: Array<{ id: number; version: number } & RerateResult> = [];
  try {
    for (const { id, version, p } of prepared) results.push({ id, version, ...("done" in p ? p.done : await price(db, p, data!)) });
  } catch (e) {
    // an unexpected failure ends the job: what was priced before it is kept, as a line-by-line write would have
    await writeOutcomes(db, results).catch(() => {});
    throw e;
  }
  await hooks.beforeWrite?.();
  await writeOutcomes(db, results);
  return results.map(({ id, status, error }) => ({ id, status, error }));
}

/**
 * Fills the engine's cache with the chunk's places, and the zone rows of its sites' carriers
 * there, in a query or two (rateAtSite would look up each new place and postcode on its own);
 * the engine still reads and decides each line itself.
 */
async function warmCache(data: RatingData, list: Array<{ payload: RatingPayload; site: RerateSite }>) {
  const placesOf = (p: RatingPayload) => [
    { locality: p.sender_locality, postcode: p.sender_postcode, country: p.sender_country, sublocality: p.sender_sublocality },
    { locality: p.receiver_locality, postcode: p.receiver_postcode, country: p.receiver_country, sublocality: p.receiver_sublocality },
  ];
  await data.places(list.flatMap(({ payload }) => placesOf(payload)));
  const siteIds = [...new Set(list.map((l) => l.site.id))];
  const carrierIds = new Set<number>();
  for (const siteId of siteIds) for (const o of await data.offered(siteId)) carrierIds.add(o.carrier.id);
  if (carrierIds.size) await data.zones([...carrierIds], list.flatMap(({ payload }) => placesOf(payload)));
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
