/**
 * The columns a saved consignment, its lines and dangerous goods lines are written with: one
 * place for the screen's save (save.server.ts) and the bulk upload, so a consignment made either
 * way carries the same list columns (party, items, weight, volume, hazardous), rate columns and
 * line values.
 */
import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { carriers, services, siteServices, type ConsignmentState } from "../../../db/schema";
import type { FieldErrors } from "../../utils/errors";
import type { Rate, RateResponse } from "../rating/engine";
import { itemVolume, type Som } from "../rating/measure";
import { ruleEffects } from "../shipping-rules/apply";
import { serviceKey } from "./completion.server";
import type { ConsignmentRow, ReturnInfo } from "./consignments.server";
import { roundUpToQuarter } from "./rules";
import type { ConsignmentInput, ItemInput, ReturnInfoInput } from "./schema";

/** The rated site service: its service, the site's account for it (which owns the number ranges) and whether the carrier wants a consignment note. */
export interface OfferedService {
  serviceId: number;
  carrierAccountId: number | null;
  printConsignments: boolean;
}

export async function offeredServiceOf(db: DbOrTx, siteServiceId: number): Promise<OfferedService | null> {
  const [row] = await db
    .select({ serviceId: siteServices.serviceId, carrierAccountId: siteServices.carrierAccountId, printConsignments: carriers.printConsignments })
    .from(siteServices)
    .innerJoin(services, eq(services.id, siteServices.serviceId))
    .innerJoin(carriers, eq(carriers.id, services.carrierId))
    .where(eq(siteServices.id, siteServiceId));
  return row ?? null;
}

/** Pickup times rounded up to the next quarter hour (spec 1 section 9). */
function returnInfoValues(info: ReturnInfoInput | null | undefined): ReturnInfo {
  const round = (t: string | null) => (t ? `${t.slice(0, 10)} ${roundUpToQuarter(t.slice(11, 16))}` : null);
  return {
    ready_at: round(info?.ready_at ?? null),
    closing_at: round(info?.closing_at ?? null),
    contact_name: info?.contact_name ?? null,
    phone_number: info?.phone_number ?? null,
    pickup_location: info?.pickup_location ?? null,
    email: info?.email ?? null,
    email_body: info?.email_body ?? null,
  };
}

/** Quotes take 1 or 2 digit quantities (spec 1 section 5): the lines that do not, by field. */
export function quoteQuantityErrors(items: Array<{ quantity: number }>): FieldErrors {
  return Object.fromEntries(items.flatMap((item, i) => (item.quantity > 99 ? [[`items.${i}.quantity`, ["Quantity must be 1 or 2 digits"]]] : [])));
}

/** A dangerous goods line is kept (and counts) once it names its UN number or shipping name. */
export const isDangerousGoodsLine = (d: { un_number?: string | null; proper_shipping_name?: string | null }) => Boolean(d.un_number || d.proper_shipping_name);

/** The list columns kept with the row (party, items, weight, volume, hazardous, item references), from what is saved. */
export function listColumnsOf(input: ConsignmentInput, returnType: string | null, som: Som) {
  const party = returnType ? input.sender_address : input.receiver_address;
  const references = input.items.map((i) => i.reference?.trim()).filter(Boolean);
  return {
    partyName: party?.name ?? null,
    itemCount: input.items.reduce((n, i) => n + (i.quantity > 0 ? i.quantity : 0), 0),
    totalWeight: String(input.items.reduce((n, i) => n + (i.weight_in_uom > 0 ? i.weight_in_uom : 0), 0)),
    totalVolume: String(input.items.reduce((n, i) => n + (itemVolume(i, som) ?? 0), 0)),
    hazardous: input.items.some((i) => i.dangerous_goods_items.some(isDangerousGoodsLine)),
    itemReferences: references.length ? references.join(", ") : null,
  };
}

export interface ValuesOf {
  input: ConsignmentInput;
  siteId: number;
  som: Som;
  returnType: "return" | "third_party" | null;
  rate: Rate | null;
  response: RateResponse | null;
  offered: OfferedService | null;
  existing: ConsignmentRow | null;
  /** the requested service when it could not be priced yet */
  serviceId: number | null;
  userId: number;
  errors: FieldErrors;
  state: ConsignmentState;
  now: Date;
  senderId: number | null;
  receiverId: number | null;
}

/** The consignment row's columns (not its id, customer, creator or kind). */
export function consignmentValues(v: ValuesOf) {
  const { input, rate, response, offered, existing, returnType } = v;
  const cheapest = response?.carriers.find((r) => !r.is_poa && r.total != null) ?? null;
  const ruleBased = response && response.selected_index != null ? response.carriers[response.selected_index] : null;
  const listColumns = listColumnsOf(input, returnType, v.som);
  const rule = response?.shipping_rule;
  const effects = ruleEffects(rule, input.special_instructions, { ...(existing?.options ?? {}), ...(input.options ?? {}) });
  return {
    siteId: v.siteId,
    reference: input.reference,
    customReference: input.custom_reference,
    despatchDate: input.despatch_date,
    accountPayable: input.account_payable,
    chargeAccount: input.charge_account,
    specialInstructions: effects.specialInstructions,
    specialRequirements: input.special_requirements,
    pickupAt: input.pickup_at,
    deliverBy: input.deliver_by,
    deliverAt: input.deliver_at,
    senderAddressId: v.senderId,
    receiverAddressId: v.receiverId,
    serviceId: rate ? (offered?.serviceId ?? null) : v.serviceId,
    carrierAccountId: rate ? (offered?.carrierAccountId ?? null) : (existing?.carrierAccountId ?? null),
    serviceRate: rate?.total != null ? String(rate.total) : null,
    serviceRateExclGst: rate?.total_exclusive != null ? String(rate.total_exclusive) : null,
    estimatedDeliveryDate: rate?.estimated_delivery_date ?? null,
    poaCarrier: Boolean(rate?.is_poa),
    preselectedCarrierService: input.preselected_carrier_service,
    preselectedServiceType: input.preselected_service_type,
    ruleBasedService: ruleBased ? serviceKey(ruleBased.code, ruleBased.service_code) : null,
    cheapestCarrierService: cheapest ? serviceKey(cheapest.code, cheapest.service_code) : null,
    cheapestCarrierRate: cheapest?.total != null ? String(cheapest.total) : null,
    cheapestCarrierRateExclGst: cheapest?.total_exclusive != null ? String(cheapest.total_exclusive) : null,
    carrierSelectionBy: rate ? v.userId : (existing?.carrierSelectionBy ?? null),
    // the rules' decision (the rule, its reason, the rules that fell through) kept with the price
    ratingDetail: rate?.rating_detail ? { ...rate.rating_detail, hidden: rate.is_na, ...(rule ? { shipping_rule: rule } : {}) } : null,
    options: effects.options,
    returnInfo: returnType ? returnInfoValues(input.return_info) : null,
    // the carrier wants a consignment note (print_consignments); dangerous goods want their document
    printConnote: rate ? Boolean(offered?.printConsignments) : (existing?.printConnote ?? false),
    printDangerousGoodsDocuments: listColumns.hazardous,
    ...listColumns,
    errors: v.errors,
    state: v.state,
    updatedAt: v.now,
  };
}

/** A line's columns (not its consignment or SSCCs). */
export function itemValues(item: ItemInput, position: number, som: Som, typeById: Map<number, { description: string | null }>) {
  const volume = itemVolume(item, som);
  return {
    position,
    quantity: item.quantity,
    itemTypeId: item.item_type_id && typeById.has(item.item_type_id) ? item.item_type_id : null,
    itemTypeDescription: item.item_type_id ? (typeById.get(item.item_type_id)?.description ?? null) : null,
    reference: item.reference,
    length: String(item.length),
    width: String(item.width),
    height: String(item.height),
    weightInUom: String(item.weight_in_uom),
    totalVolume: volume == null ? null : String(volume),
    consolidated: item.consolidated,
  };
}

/** The dangerous goods lines of these items, each under its line's id (by position). */
export function dangerousGoodsValues(items: ItemInput[], itemIdAt: Map<number, number>, som: Som) {
  return items.flatMap((item, position) =>
    item.dangerous_goods_items.filter(isDangerousGoodsLine).map((d) => ({
      itemId: itemIdAt.get(position)!,
      unNumber: d.un_number ?? "",
      properShippingName: d.proper_shipping_name ?? "",
      technicalName: d.technical_name,
      hazardClass: d.hazard_class,
      packingGroup: d.packing_group,
      subHazard: d.sub_hazard,
      weightInUom: d.weight_in_uom > 0 ? String(d.weight_in_uom) : null,
      nos: d.nos,
      som,
    })),
  );
}
