/**
 * The reconciliation report's admin-only Rerate upload (spec 3 sections 2 and 6; decision
 * 020-finance-ii-report): each listed consignment is priced again by the rating engine with the
 * charge weight the carrier billed, from the same site, addresses, service and despatch date, and
 * the new buy and sell are reported beside the old. A what-if: the consignment is not changed.
 */
import { alias } from "drizzle-orm/pg-core";
import { eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { addresses, carriers, consignmentItems, consignments, dangerousGoodsItems, services, sites } from "../../../db/schema";
import { serviceKey } from "../consignments/completion.server";
import { ratingPayloadOf } from "../consignments/form";
import { rateAtSite } from "../rating/rating.server";
import { ratingData } from "../rating/rating-data.server";
import { ratingPayloadSchema } from "../rating/payload";
import { AppError } from "../../utils/errors";
import { readRating } from "./compare";
import { laneOf, remeasure } from "./remeasure";
import type { Som } from "../rating/measure";
import type { ReportResult } from "./report-csv";

export const RERATE_MESSAGES = {
  noWeight: "Must have weight",
  noService: "The consignment has no carrier service to rate with.",
  notRated: "The consignment's service gave no price for this weight.",
} as const;

/**
 * The items as rating takes them, re-measured to the billed charge weight (remeasure.ts, decision
 * 027): a charge weight above the dead weight grows the goods, not their weight.
 */
function scaledItems(
  items: Array<{ quantity: number; itemTypeId: number | null; length: string | null; width: string | null; height: string | null; weight: string | null; dg: boolean }>,
  som: Som,
  rating: unknown,
  chargeWeight: number | null,
) {
  const own = items.map((i) => ({ quantity: i.quantity, length: Number(i.length ?? 0), width: Number(i.width ?? 0), height: Number(i.height ?? 0), weight: Number(i.weight ?? 0) }));
  const measured = chargeWeight == null ? own : remeasure(own, som, laneOf(rating), { dead_weight: null, charge_weight: chargeWeight, volume: null }).lines;
  return items.map((i, n) => ({
    quantity: i.quantity,
    item_type_id: i.itemTypeId,
    length: measured[n]!.length,
    width: measured[n]!.width,
    height: measured[n]!.height,
    weight_in_uom: measured[n]!.weight,
    // the engine asks only whether there are any; their details do not change a price
    dangerous_goods_items: i.dg ? [{}] : [],
  }));
}

const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

/**
 * Sets `rerate` on every result whose consignment was found: the new buy and sell (cents, GST
 * left out), the old sell, or why it could not be priced ('Must have weight', 'Invalid sender
 * locality', ...). The consignment's own items are rated again, every dead weight and volume
 * scaled by the line's charge weight over the rated one (dimensions by its cube root): the charge
 * weight, max(dead, cubic) per line summed, then comes out at the weight the carrier billed, and
 * the goods keep their make-up (item types, counts, dangerous goods). Without a charge weight on
 * the line the items are rated as they are.
 */
export async function rerateLines(db: DbOrTx, results: ReportResult[], found: Map<string, { id: number }>): Promise<void> {
  const wanted = results.filter((r) => r.status !== "not_found");
  if (wanted.length === 0) return;
  const ids = [...new Set(wanted.map((r) => found.get(r.consignment_number.toLowerCase())!.id))];
  const sender = alias(addresses, "sender");
  const receiver = alias(addresses, "receiver");
  const rows = await db
    .select({
      id: consignments.id,
      customerId: consignments.customerId,
      despatchDate: consignments.despatchDate,
      returnType: consignments.returnType,
      accountPayable: consignments.accountPayable,
      ratingDetail: consignments.ratingDetail,
      site: { id: sites.id, code: sites.code, som: sites.som, region: sites.region },
      carrierCode: carriers.code,
      serviceCode: services.code,
      sender: { locality: sender.locality, sublocality: sender.sublocality, postcode: sender.postcode, region: sender.region, country: sender.country, address_type: sender.addressType },
      receiver: { locality: receiver.locality, sublocality: receiver.sublocality, postcode: receiver.postcode, region: receiver.region, country: receiver.country, address_type: receiver.addressType },
    })
    .from(consignments)
    .innerJoin(sites, eq(sites.id, consignments.siteId))
    .leftJoin(services, eq(services.id, consignments.serviceId))
    .leftJoin(carriers, eq(carriers.id, services.carrierId))
    .leftJoin(sender, eq(sender.id, consignments.senderAddressId))
    .leftJoin(receiver, eq(receiver.id, consignments.receiverAddressId))
    .where(inArray(consignments.id, ids));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const items = await db
    .select({
      consignmentId: consignmentItems.consignmentId,
      quantity: consignmentItems.quantity,
      itemTypeId: consignmentItems.itemTypeId,
      length: consignmentItems.length,
      width: consignmentItems.width,
      height: consignmentItems.height,
      weight: consignmentItems.weightInUom,
      dg: sql<boolean>`exists (select 1 from ${dangerousGoodsItems} where ${dangerousGoodsItems.itemId} = ${consignmentItems.id})`,
    })
    .from(consignmentItems)
    .where(inArray(consignmentItems.consignmentId, ids))
    .orderBy(consignmentItems.consignmentId, consignmentItems.position);
  const itemsOf = new Map<number, typeof items>();
  for (const i of items) itemsOf.set(i.consignmentId, [...(itemsOf.get(i.consignmentId) ?? []), i]);
  // the reference data once for every line, as the bulk upload does
  const data = await ratingData(db);
  for (const r of wanted) {
    const c = byId.get(found.get(r.consignment_number.toLowerCase())!.id)!;
    const oldSell = readRating(c.ratingDetail)?.sell ?? 0;
    const own = itemsOf.get(c.id) ?? [];
    if (own.length === 0 || (r.charge_weight != null && !r.rated_charge_weight)) {
      r.rerate = { error: RERATE_MESSAGES.noWeight };
      continue;
    }
    if (!c.carrierCode || !c.serviceCode) {
      r.rerate = { error: RERATE_MESSAGES.noService };
      continue;
    }
    const key = serviceKey(c.carrierCode, c.serviceCode);
    try {
      // the schema refuses past dates (it checks what a person books); checked with today, the
      // consignment is priced as of its own despatch date: the lanes and levies in force then
      const today = new Date().toISOString().slice(0, 10);
      const checked = ratingPayloadSchema.parse(
        ratingPayloadOf({
          despatch_date: today,
          site_code: c.site.code,
          account_payable: c.accountPayable,
          return_type: c.returnType,
          consignment_id: c.id,
          preselected_carrier_service: key,
          items: scaledItems(own, c.site.som, c.ratingDetail, r.charge_weight),
          sender_address: c.sender?.country ? c.sender : null,
          receiver_address: c.receiver?.country ? c.receiver : null,
        }),
      );
      const payload = { ...checked, despatch_date: c.despatchDate ?? today };
      const response = await rateAtSite(db, c.customerId, c.site, payload, data);
      const rate = response.carriers.find((x) => serviceKey(x.code, x.service_code).toLowerCase() === key.toLowerCase());
      const rated = readRating(rate?.rating_detail ?? null);
      if (!rated || sum(rated.buy) === 0) r.rerate = { error: RERATE_MESSAGES.notRated };
      else r.rerate = { buy: sum(rated.buy), sell: rated.sell, old_sell: oldSell };
    } catch (e) {
      // the engine's own words ('Invalid sender locality', 'Must have weight') are what finance needs
      const message = e instanceof AppError ? e.message : e instanceof Error && "issues" in e ? firstIssue(e) : null;
      if (message == null) throw e;
      r.rerate = { error: message };
    }
  }
}

const firstIssue = (e: Error) => ((e as unknown as { issues: Array<{ message: string }> }).issues[0]?.message ?? "Error rerating");
