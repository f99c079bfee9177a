/**
 * The consignment read model: the JSON of spec 1 section 3 (as /api answers it and the screen
 * reads it), read from a row scoped to the user's customer and sites. Saving is in
 * save.server.ts, the small operations in operations.server.ts.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import {
  addresses,
  carriers,
  consignmentItems,
  consignments,
  carrierAccounts,
  dangerousGoodsItems,
  services,
  sites,
  type ConsignmentState,
} from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { isAdmin, type AccessSubject } from "../auth/roles";
import type { Som } from "../rating/measure";
import { ratesForViewer } from "../rating/visibility";
import { notFound, type FieldErrors } from "../../utils/errors";
import { addressJson, type AddressJson } from "../addresses/address-json";
import type { ReturnInfoInput } from "./schema";
import { hasTickets } from "../enquiries/tickets.server";
import { emissionsFor } from "../emissions/emissions.server";
import type { EmissionsField } from "../emissions/method";

export const STALE_MESSAGE = "Unable to save. Someone else may have modified the consignment, please refresh.";

export type ConsignmentRow = typeof consignments.$inferSelect;

export interface DangerousGoodsJson {
  un_number: string;
  proper_shipping_name: string;
  technical_name: string | null;
  hazard_class: string | null;
  packing_group: string | null;
  sub_hazard: string | null;
  weight_in_uom: number | null;
  nos: boolean;
  som: Som;
}

export interface ItemJson {
  id: number;
  quantity: number;
  item_type_id: number | null;
  item_type_description: string | null;
  length: number | null;
  width: number | null;
  height: number | null;
  weight_in_uom: number | null;
  total_volume: number | null;
  reference: string | null;
  consolidated: boolean;
  /** SSCC-18 of each label of this line, once labels have been printed */
  ssccs: string[];
  has_dangerous_goods: boolean;
  dangerous_goods_items: DangerousGoodsJson[];
}

/** The consignment object of spec 1 section 3, as /api answers it and the screen reads it. */
export type ConsignmentJson = ConsignmentFields & EmissionsField;

interface ConsignmentFields {
  id: number;
  version: number;
  consignment_number: string | null;
  state: ConsignmentState;
  return_type: "return" | "third_party" | null;
  is_quote: boolean;
  has_quote_origin: boolean;
  account_payable: "sender" | "receiver" | "transfer";
  charge_account: string | null;
  custom_reference: string | null;
  reference: string | null;
  despatch_date: string | null;
  pickup_at: string | null;
  deliver_by: string | null;
  deliver_at: string | null;
  items: ItemJson[];
  sender_address: AddressJson | null;
  receiver_address: AddressJson | null;
  special_instructions: string | null;
  special_requirements: string | null;
  service_name: string | null;
  service_code: string | null;
  carrier_name: string | null;
  carrier_code: string | null;
  service_rate: number | null;
  service_rate_excl_gst: number | null;
  estimated_delivery_date: string | null;
  poa_carrier: boolean;
  preselected_carrier_service: string | null;
  preselected_service_type: string | null;
  rule_based_service: string | null;
  cheapest_carrier_service: string | null;
  cheapest_carrier_rate: number | null;
  cheapest_carrier_rate_excl_gst: number | null;
  carrier_selection_by: number | null;
  rating_detail: Record<string, unknown> | null;
  options: Record<string, unknown>;
  manifest_id: number | null;
  number_of_labels: number;
  print_connote: boolean;
  print_dangerous_goods_documents: boolean;
  auto_delivered: boolean;
  cancellation_allowed_date: string | null;
  support_email_empty: boolean;
  /** enquiries were raised about it (issue 15) */
  has_tickets: boolean;
  site_code: string;
  site_id: number;
  customer_id: number;
  som: Som;
  active: boolean;
  /** pickup information of a return or third-party pickup */
  return_info: ReturnInfo | null;
  errors: FieldErrors;
}

export type ReturnInfo = ReturnInfoInput;

const withEmissions = (detail: Record<string, unknown> | null, e: EmissionsField) => (detail ? { ...detail, emissions: e.emissions } : null);

const num = (v: string | null | undefined) => (v == null ? null : Number(v));

/** Consignments this user may see: the working customer's, at one of the user's sites. */
function scope(user: CurrentUser) {
  return and(
    eq(consignments.customerId, user.customer.id),
    user.siteIds.length ? inArray(consignments.siteId, user.siteIds) : sql`false`,
  );
}

export async function loadRow(db: DbOrTx, user: CurrentUser, id: number, options: { lock?: boolean } = {}): Promise<ConsignmentRow> {
  const query = db
    .select()
    .from(consignments)
    .where(and(eq(consignments.id, id), scope(user)));
  const [row] = options.lock ? await query.for("update") : await query;
  if (!row) throw notFound("Consignment");
  return row;
}

/**
 * Locks a consignment of the user's (inside a transaction) and reads it after the lock, so two
 * callers that allocate numbers for it cannot both act on what they read before the other wrote.
 */
export async function lockConsignment(tx: DbOrTx, user: CurrentUser, id: number): Promise<{ row: ConsignmentRow; consignment: ConsignmentJson }> {
  const row = await loadRow(tx, user, id, { lock: true });
  return { row, consignment: await toJson(tx, user, row) };
}

/** The consignment as JSON, with its addresses, items, dangerous goods lines and service. */
export async function toJson(db: DbOrTx, user: AccessSubject, row: ConsignmentRow): Promise<ConsignmentJson> {
  const addressIds = [row.senderAddressId, row.receiverAddressId].filter((id): id is number => id != null);
  // one round of parallel reads
  const [addressRows, itemRows, serviceRow, siteRow, accountRow, dgRows, ticketsRaised, emissions] = await Promise.all([
    addressIds.length ? db.select().from(addresses).where(inArray(addresses.id, addressIds)) : Promise.resolve([]),
    db.select().from(consignmentItems).where(eq(consignmentItems.consignmentId, row.id)).orderBy(asc(consignmentItems.position), asc(consignmentItems.id)),
    row.serviceId
      ? db
          .select({ service: services, carrier: carriers })
          .from(services)
          .innerJoin(carriers, eq(carriers.id, services.carrierId))
          .where(eq(services.id, row.serviceId))
          .then((r) => r[0] ?? null)
      : Promise.resolve(null),
    db.select().from(sites).where(eq(sites.id, row.siteId)).then((r) => r[0]!),
    // cancellation e-mails go to the carrier account's support address (DESIGN "Carriers")
    row.carrierAccountId
      ? db.select({ supportEmail: carrierAccounts.supportEmail }).from(carrierAccounts).where(eq(carrierAccounts.id, row.carrierAccountId)).then((r) => r[0] ?? { supportEmail: null })
      : Promise.resolve({ supportEmail: null }),
    db
      .select({ dg: dangerousGoodsItems })
      .from(dangerousGoodsItems)
      .innerJoin(consignmentItems, eq(consignmentItems.id, dangerousGoodsItems.itemId))
      .where(eq(consignmentItems.consignmentId, row.id))
      .orderBy(asc(dangerousGoodsItems.id))
      .then((r) => r.map((x) => x.dg)),
    hasTickets(db, row.id),
    emissionsFor(db, row.id),
  ]);
  const byId = new Map(addressRows.map((a) => [a.id, a]));
  const hidden = Boolean(row.ratingDetail && (row.ratingDetail as { hidden?: boolean }).hidden) && !isAdmin(user);
  return {
    id: row.id,
    version: row.version,
    consignment_number: row.consignmentNumber,
    state: row.state,
    return_type: row.returnType,
    is_quote: row.isQuote,
    has_quote_origin: row.hasQuoteOrigin,
    account_payable: row.accountPayable,
    charge_account: row.chargeAccount,
    custom_reference: row.customReference,
    reference: row.reference,
    despatch_date: row.despatchDate,
    pickup_at: row.pickupAt,
    deliver_by: row.deliverBy,
    deliver_at: row.deliverAt,
    items: itemRows.map((i) => {
      const dg = dgRows.filter((d) => d.itemId === i.id);
      return {
        id: i.id,
        quantity: i.quantity,
        item_type_id: i.itemTypeId,
        item_type_description: i.itemTypeDescription,
        length: num(i.length),
        width: num(i.width),
        height: num(i.height),
        weight_in_uom: num(i.weightInUom),
        total_volume: num(i.totalVolume),
        reference: i.reference,
        consolidated: i.consolidated,
        ssccs: i.ssccs,
        has_dangerous_goods: dg.length > 0,
        dangerous_goods_items: dg.map((d) => ({
          un_number: d.unNumber,
          proper_shipping_name: d.properShippingName,
          technical_name: d.technicalName,
          hazard_class: d.hazardClass,
          packing_group: d.packingGroup,
          sub_hazard: d.subHazard,
          weight_in_uom: num(d.weightInUom),
          nos: d.nos,
          som: d.som,
        })),
      };
    }),
    sender_address: addressJson(row.senderAddressId ? byId.get(row.senderAddressId) : null),
    receiver_address: addressJson(row.receiverAddressId ? byId.get(row.receiverAddressId) : null),
    special_instructions: row.specialInstructions,
    special_requirements: row.specialRequirements,
    service_name: serviceRow?.service.name ?? null,
    service_code: serviceRow?.service.code ?? null,
    carrier_name: serviceRow?.carrier.name ?? null,
    carrier_code: serviceRow?.carrier.code ?? null,
    service_rate: hidden ? null : num(row.serviceRate),
    service_rate_excl_gst: hidden ? null : num(row.serviceRateExclGst),
    estimated_delivery_date: row.estimatedDeliveryDate,
    poa_carrier: row.poaCarrier,
    preselected_carrier_service: row.preselectedCarrierService,
    preselected_service_type: row.preselectedServiceType,
    rule_based_service: row.ruleBasedService,
    cheapest_carrier_service: row.cheapestCarrierService,
    cheapest_carrier_rate: hidden ? null : num(row.cheapestCarrierRate),
    cheapest_carrier_rate_excl_gst: hidden ? null : num(row.cheapestCarrierRateExclGst),
    carrier_selection_by: row.carrierSelectionBy,
    // the rating detail carries the emissions of the weight it charged (docs/decisions/041)
    rating_detail: hidden ? null : withEmissions(ratesForViewer(user, { rating_detail: row.ratingDetail ?? null }).rating_detail, emissions),
    options: row.options,
    manifest_id: row.manifestId,
    number_of_labels: row.numberOfLabels,
    print_connote: row.printConnote,
    print_dangerous_goods_documents: row.printDangerousGoodsDocuments,
    auto_delivered: row.autoDelivered,
    cancellation_allowed_date: row.cancellationAllowedDate?.toISOString() ?? null,
    support_email_empty: !accountRow.supportEmail,
    has_tickets: ticketsRaised,
    site_code: siteRow.code,
    site_id: row.siteId,
    customer_id: row.customerId,
    som: siteRow.som,
    active: row.active,
    return_info: (row.returnInfo as ReturnInfo | null) ?? null,
    errors: row.errors,
    // well-to-wheel kg CO2e as stored at the last save, or null with the reason (docs/decisions/041)
    ...emissions,
  };
}

/**
 * The consignment as a webhook carries it to the customer (docs/decisions/039): as the customer's
 * own despatcher reads it from /api, whoever made the change (no buy costs, a hidden rate hidden).
 */
export const webhookConsignmentJson = (db: DbOrTx, row: ConsignmentRow) => toJson(db, { role: "despatcher" }, row);

/** GET /api/consignments/{id}: one consignment of the user's customer and sites. */
export async function getConsignment(db: DbOrTx, user: CurrentUser, id: number): Promise<ConsignmentJson> {
  return toJson(db, user, await loadRow(db, user, id));
}
