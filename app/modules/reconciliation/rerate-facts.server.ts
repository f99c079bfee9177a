/**
 * What re-rating a chunk of reconciliations reads (rerate.server.ts), in a fixed number of queries
 * for the whole chunk rather than about ten for each line: the reconciliation with its invoice line
 * and consignment, the line's costs, the consignment's items, their dangerous goods, addresses and
 * site, and the service to re-rate with and its carrier. Issue 19's 50,000-line bench
 * (bench/reconcile.ts) spent most of the reconcile job's time on those per-line queries.
 */
import { eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { addresses, carriers, consignmentItems, consignments, dangerousGoodsItems, invoiceCosts, invoiceDetails, reconciliations, services, sites } from "../../../db/schema";
import { groupBy } from "../../utils/group-by";

/** only the columns a re-rate reads: whole rows made a chunk's read take nearly twice as long on the bench */
const detailColumns = {
  id: invoiceDetails.id,
  totalCost: invoiceDetails.totalCost,
  totalChargeWeight: invoiceDetails.totalChargeWeight,
  totalWeightInUom: invoiceDetails.totalWeightInUom,
  totalVolume: invoiceDetails.totalVolumeInUomCubed,
  totalQuantity: invoiceDetails.totalQuantity,
  senderZone: invoiceDetails.senderZone,
  receiverZone: invoiceDetails.receiverZone,
  senderLocality: invoiceDetails.senderLocality,
  senderPostcode: invoiceDetails.senderPostcode,
  receiverLocality: invoiceDetails.receiverLocality,
  receiverPostcode: invoiceDetails.receiverPostcode,
  serviceId: invoiceDetails.serviceId,
  unquoted: invoiceDetails.unquoted,
  dangerousGoods: invoiceDetails.dangerousGoods,
};
const consignmentColumns = {
  id: consignments.id,
  customerId: consignments.customerId,
  siteId: consignments.siteId,
  serviceId: consignments.serviceId,
  ratingDetail: consignments.ratingDetail,
  returnType: consignments.returnType,
  despatchDate: consignments.despatchDate,
  senderAddressId: consignments.senderAddressId,
  receiverAddressId: consignments.receiverAddressId,
};
const addressColumns = { id: addresses.id, locality: addresses.locality, sublocality: addresses.sublocality, postcode: addresses.postcode, country: addresses.country, addressType: addresses.addressType };
const itemColumns = {
  id: consignmentItems.id,
  consignmentId: consignmentItems.consignmentId,
  quantity: consignmentItems.quantity,
  length: consignmentItems.length,
  width: consignmentItems.width,
  height: consignmentItems.height,
  weightInUom: consignmentItems.weightInUom,
};

/** a row of such a selection, as drizzle answers it */
type Row<T extends Record<string, { _: { data: unknown; notNull: boolean } }>> = { [K in keyof T]: T[K]["_"]["notNull"] extends true ? T[K]["_"]["data"] : T[K]["_"]["data"] | null };
type Address = Row<typeof addressColumns>;
type Item = Row<typeof itemColumns>;
export type RerateSite = { id: number; code: string; som: "metric" | "imperial"; region: string | null };
export type RerateService = { code: string; carrierCode: string };

/** One reconciliation's facts, as rerate.server.ts's prepare reads them. */
export interface RerateFacts {
  /** the reconciliation's version when read: the outcome is written only if it still holds */
  version: number;
  d: Row<typeof detailColumns>;
  c: Row<typeof consignmentColumns> | null;
  costs: Array<{ category: string; amount: string }>;
  items: Item[];
  /** the ids of the items that carry dangerous goods */
  dgItemIds: Set<number>;
  sender: Address | undefined;
  receiver: Address | undefined;
  site: RerateSite | undefined;
  /** the service re-rated with: the invoice's unless unquoted or unknown, else the consignment's */
  service: RerateService | undefined;
}

const ids = (values: Array<number | null | undefined>) => [...new Set(values.filter((v): v is number => v != null))];

/** The facts of each of `reconciliationIds` that exists, by reconciliation id. */
export async function readRerateFacts(db: DbOrTx, reconciliationIds: number[]): Promise<Map<number, RerateFacts>> {
  const out = new Map<number, RerateFacts>();
  if (reconciliationIds.length === 0) return out;
  const rows = await db
    .select({ id: reconciliations.id, version: reconciliations.version, d: detailColumns, c: consignmentColumns })
    .from(reconciliations)
    .innerJoin(invoiceDetails, eq(invoiceDetails.id, reconciliations.invoiceDetailId))
    .leftJoin(consignments, eq(consignments.id, reconciliations.consignmentId))
    .where(inArray(reconciliations.id, reconciliationIds));
  if (rows.length === 0) return out;
  const withConsignment = rows.flatMap((r) => (r.c ? [r.c] : []));
  const serviceIdOf = (r: (typeof rows)[number]) => (!r.d.unquoted && r.d.serviceId != null ? r.d.serviceId : r.c?.serviceId);
  const consignmentIds = ids(withConsignment.map((c) => c.id));
  const addressIds = ids(withConsignment.flatMap((c) => [c.senderAddressId, c.receiverAddressId]));
  const siteIds = ids(withConsignment.map((c) => c.siteId));
  const serviceIds = ids(rows.filter((r) => r.c).map(serviceIdOf));

  const [costs, items, found, siteRows, serviceRows] = await Promise.all([
    db
      .select({ detailId: invoiceCosts.invoiceDetailId, category: invoiceCosts.category, amount: invoiceCosts.amount })
      .from(invoiceCosts)
      .where(inArray(invoiceCosts.invoiceDetailId, ids(rows.map((r) => r.d.id)))),
    consignmentIds.length
      ? db.select(itemColumns).from(consignmentItems).where(inArray(consignmentItems.consignmentId, consignmentIds)).orderBy(consignmentItems.consignmentId, consignmentItems.position, consignmentItems.id)
      : [],
    addressIds.length ? db.select(addressColumns).from(addresses).where(inArray(addresses.id, addressIds)) : [],
    siteIds.length ? db.select({ id: sites.id, code: sites.code, som: sites.som, region: sites.region }).from(sites).where(inArray(sites.id, siteIds)) : [],
    serviceIds.length
      ? db.select({ id: services.id, code: services.code, carrierCode: carriers.code }).from(services).innerJoin(carriers, eq(carriers.id, services.carrierId)).where(inArray(services.id, serviceIds))
      : [],
  ]);
  const dg = items.length ? await db.select({ itemId: dangerousGoodsItems.itemId }).from(dangerousGoodsItems).where(inArray(dangerousGoodsItems.itemId, items.map((i) => i.id))) : [];

  const costsOf = groupBy(costs, (c) => c.detailId);
  const itemsOf = groupBy(items, (i) => i.consignmentId);
  const dgItemIds = new Set(dg.map((x) => x.itemId));
  const addressOf = new Map(found.map((a) => [a.id, a]));
  const siteOf = new Map(siteRows.map((s) => [s.id, s]));
  const serviceOf = new Map(serviceRows.map((s) => [s.id, { code: s.code, carrierCode: s.carrierCode }]));
  for (const r of rows) {
    const c = r.c;
    const serviceId = serviceIdOf(r);
    out.set(r.id, {
      version: r.version,
      d: r.d,
      c,
      costs: (costsOf.get(r.d.id) ?? []).map(({ category, amount }) => ({ category, amount })),
      items: c ? (itemsOf.get(c.id) ?? []) : [],
      dgItemIds,
      sender: c?.senderAddressId != null ? addressOf.get(c.senderAddressId) : undefined,
      receiver: c?.receiverAddressId != null ? addressOf.get(c.receiverAddressId) : undefined,
      site: c ? siteOf.get(c.siteId) : undefined,
      service: serviceId != null ? serviceOf.get(serviceId) : undefined,
    });
  }
  return out;
}
