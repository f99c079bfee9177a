import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import {
  addresses,
  carriers,
  consignmentChanges,
  consignmentItems,
  consignments,
  carrierAccounts,
  dangerousGoodsItems,
  itemTypes,
  services,
  siteServices,
  sites,
  users,
  type ConsignmentState,
} from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { canEditFailedChargeAccount, canSeeConsignmentInformation, isAdmin } from "../auth/roles";
import { forbiddenMessage } from "../auth/guard.server";
import { findPlaces } from "../localities/localities.server";
import { skippedLocalTimes, todayIn } from "../calendar/site-time";
import { itemVolume, type Som } from "../rating/measure";
import { rateWithCosts } from "../rating/rating.server";
import { ratesForViewer } from "../rating/visibility";
import type { Rate, RateResponse } from "../rating/engine";
import { AppError, notFound, type FieldErrors } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { allocateConsignmentNumber } from "../numbers/numbers.server";
import { placeName, ratingPayloadOf } from "./form";
import { canPromoteQuote, canRerate, dangerousGoodsComplete, isEditable, isFailed, PROMOTION_REFUSED, roundUpToQuarter } from "./rules";
import { addressJson, addressValues, type AddressJson } from "../addresses/address-json";
import { chargeAccountSchema, consignmentInputSchema, type ConsignmentInput, type ReturnInfoInput } from "./schema";
import { transition } from "./lifecycle";

export const STALE_MESSAGE = "Unable to save. Someone else may have modified the consignment, please refresh.";

type ConsignmentRow = typeof consignments.$inferSelect;

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
export interface ConsignmentJson {
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

const num = (v: string | null | undefined) => (v == null ? null : Number(v));

/** Consignments this user may see: the working customer's, at one of the user's sites. */
function scope(user: CurrentUser) {
  return and(
    eq(consignments.customerId, user.customer.id),
    user.siteIds.length ? inArray(consignments.siteId, user.siteIds) : sql`false`,
  );
}

async function loadRow(db: DbOrTx, user: CurrentUser, id: number, options: { lock?: boolean } = {}): Promise<ConsignmentRow> {
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
async function toJson(db: DbOrTx, user: CurrentUser, row: ConsignmentRow): Promise<ConsignmentJson> {
  const addressIds = [row.senderAddressId, row.receiverAddressId].filter((id): id is number => id != null);
  // one round of parallel reads
  const [addressRows, itemRows, serviceRow, siteRow, accountRow, dgRows] = await Promise.all([
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
    rating_detail: hidden ? null : ratesForViewer(user, { rating_detail: row.ratingDetail ?? null }).rating_detail,
    options: row.options,
    manifest_id: row.manifestId,
    number_of_labels: row.numberOfLabels,
    print_connote: row.printConnote,
    print_dangerous_goods_documents: row.printDangerousGoodsDocuments,
    auto_delivered: row.autoDelivered,
    cancellation_allowed_date: row.cancellationAllowedDate?.toISOString() ?? null,
    support_email_empty: !accountRow.supportEmail,
    site_code: siteRow.code,
    site_id: row.siteId,
    customer_id: row.customerId,
    som: siteRow.som,
    active: row.active,
    return_info: (row.returnInfo as ReturnInfo | null) ?? null,
    errors: row.errors,
  };
}

/** GET /api/consignments/{id}: one consignment of the user's customer and sites. */
export async function getConsignment(db: DbOrTx, user: CurrentUser, id: number): Promise<ConsignmentJson> {
  return toJson(db, user, await loadRow(db, user, id));
}

// ---------------------------------------------------------------------------------------------
// Saving

const SELECTION_FIELD = "carrier_name";

/** `carrier:service` as the engine's preselection names a service. */
const serviceKey = (carrierCode: string, serviceCode: string) => `${carrierCode}:${serviceCode}`;

interface Completed {
  errors: FieldErrors;
  rate: Rate | null;
  response: RateResponse | null;
  /** the requested service when it could not be priced yet (kept, not lost) */
  serviceId: number | null;
}

/**
 * What the consignment still lacks (the `errors` that keep it `open`), and its rate: priced on the
 * server from the reference data, never taken from the caller.
 */
async function complete(
  db: DbOrTx,
  user: CurrentUser,
  site: CurrentUser["sites"][number],
  input: ConsignmentInput,
  typeIds: Set<number>,
  existing: ConsignmentRow | null,
  returnType: "return" | "third_party" | null,
  referenceChoices: { value: string }[] | null,
  now: Date,
): Promise<Completed> {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);

  if (!input.despatch_date) add("despatch_date", "Despatch date is required");
  // a date that has passed since the last save must be moved before despatch
  else if (input.despatch_date < todayIn(site.timezone, now)) add("despatch_date", "Despatch date cannot be in the past");
  const sender = input.sender_address;
  const receiver = input.receiver_address;
  if (!sender) add("sender_address", "Sender address is required");
  if (!receiver) add("receiver_address", "Receiver address is required");
  const found = await findPlaces(db, [sender, receiver].flatMap((a) => (a ? [{ locality: placeName(a) ?? "", postcode: a.postcode ?? "", country: a.country }] : [])));
  const senderPlace = sender ? found.shift() : null;
  const receiverPlace = receiver ? found.shift() : null;
  if (sender && !senderPlace) add("sender_address.locality", "Invalid sender locality");
  if (receiver && !receiverPlace) add("receiver_address.locality", "Invalid receiver locality");
  if (input.account_payable === "receiver" && !input.charge_account) add("charge_account", "Receiver account is required when the receiver pays");
  if (referenceChoices && !input.custom_reference) add("custom_reference", `${user.customer.customConsignmentReferenceLabel || "Custom reference"} is required`);
  if (returnType) {
    // a carrier collects returns and third-party pickups: it needs the window and someone to call
    const info = input.return_info;
    if (!info?.ready_at) add("return_info.ready_at", "Ready time is required");
    if (!info?.closing_at) add("return_info.closing_at", "Closing time is required");
    if (!info?.contact_name) add("return_info.contact_name", "Contact name is required");
    if (!info?.phone_number) add("return_info.phone_number", "Phone number is required");
  }

  if (input.items.length === 0) add("items", "At least one item is required");
  input.items.forEach((item, i) => {
    if (!(item.quantity > 0)) add(`items.${i}.quantity`, "Must have quantity");
    if (!item.item_type_id || !typeIds.has(item.item_type_id)) add(`items.${i}.item_type_id`, "Must have an item type");
    for (const dim of ["length", "width", "height"] as const) if (!(item[dim] > 0)) add(`items.${i}.${dim}`, `Must have ${dim}`);
    if (!(item.weight_in_uom > 0)) add(`items.${i}.weight_in_uom`, "Must have weight");
    const dgLine = { ...item, weight: item.weight_in_uom, dangerousGoods: item.dangerous_goods_items.length > 0, dangerousGoodsItems: item.dangerous_goods_items };
    if (!dangerousGoodsComplete(dgLine)) add(`items.${i}.dangerous_goods_items`, "Dangerous goods need a UN number, proper shipping name, class and aggregate quantity");
    item.dangerous_goods_items.forEach((d, j) => {
      if (d.nos && !d.technical_name) add(`items.${i}.dangerous_goods_items.${j}.technical_name`, "Technical name is required for N.O.S. entries");
    });
  });

  // the requested service, by codes, among the services of the site
  let requested: { serviceId: number; key: string } | null = null;
  if (input.carrier_code && input.service_code) {
    const [row] = await db
      .select({ id: services.id, serviceCode: services.code, carrierCode: carriers.code })
      .from(services)
      .innerJoin(carriers, eq(carriers.id, services.carrierId))
      .where(and(sql`lower(${carriers.code}) = ${input.carrier_code.toLowerCase()}`, sql`lower(${services.code}) = ${input.service_code.toLowerCase()}`));
    if (!row) add(SELECTION_FIELD, `Unknown carrier service ${input.carrier_code} ${input.service_code}`);
    else requested = { serviceId: row.id, key: serviceKey(row.carrierCode, row.serviceCode) };
  }

  const rateable = Object.keys(errors).length === 0 && canRerate(existing?.state);
  if (!rateable) {
    if (!requested && !errors[SELECTION_FIELD]) add(SELECTION_FIELD, "Please select a carrier service");
    return { errors, rate: null, response: null, serviceId: requested?.serviceId ?? existing?.serviceId ?? null };
  }

  // stored whole (finance reads the buy side later); answers pass through ratesForViewer
  const response = await rateWithCosts(
    db,
    user,
    ratingPayloadOf({
      ...input,
      site_code: site.code,
      return_type: returnType,
      consignment_id: existing?.id,
      preselected_carrier_service: requested?.key ?? input.preselected_carrier_service,
    }),
  );
  let chosen: Rate | null = null;
  if (requested) {
    chosen = response.carriers.find((r) => serviceKey(r.code, r.service_code).toLowerCase() === requested.key.toLowerCase()) ?? null;
    if (!chosen) add(SELECTION_FIELD, "The selected carrier service cannot carry this consignment");
  } else if (response.selected_index != null) {
    chosen = response.carriers[response.selected_index] ?? null;
  }
  if (!chosen && !errors[SELECTION_FIELD]) add(SELECTION_FIELD, response.carriers.length ? "Please select a carrier service" : "No carrier service can carry this consignment");
  // time slots the chosen service needs (carrier or service setting)
  if (chosen?.timeslots.pickup && !input.pickup_at) add("pickup_at", "Pickup time is required for this service");
  if (chosen?.timeslots.deliver_by && !input.deliver_by) add("deliver_by", "Deliver-by time is required for this service");
  if (chosen?.timeslots.deliver_at && !input.deliver_at) add("deliver_at", "Delivery time is required for this service");
  return { errors, rate: chosen, response, serviceId: null };
}

/** The consignment's own copy of an address: updated in place, created on first save, removed when cleared. */
async function writeAddress(tx: DbOrTx, currentId: number | null, values: ReturnType<typeof addressValues> | null): Promise<number | null> {
  if (!values) return null;
  if (currentId) {
    await tx.update(addresses).set(values).where(eq(addresses.id, currentId));
    return currentId;
  }
  const [row] = await tx.insert(addresses).values(values).returning({ id: addresses.id });
  return row!.id;
}

/** Flat field -> text view of a consignment, for the audit history. */
function auditView(c: ConsignmentJson): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  const scalar = (v: unknown) => (v == null || v === "" ? null : typeof v === "object" ? JSON.stringify(v) : String(v));
  for (const key of [
    "state",
    "reference",
    "custom_reference",
    "despatch_date",
    "account_payable",
    "charge_account",
    "special_instructions",
    "special_requirements",
    "pickup_at",
    "deliver_by",
    "deliver_at",
    "carrier_code",
    "service_code",
    "service_rate",
    "site_code",
  ] as const) {
    out[key] = scalar(c[key]);
  }
  for (const side of ["sender_address", "receiver_address"] as const) {
    const a = c[side];
    for (const f of ["name", "address_line_1", "address_line_2", "locality", "sublocality", "postcode", "region", "country", "phone", "email", "address_type", "special_instructions"] as const) {
      out[`${side}.${f}`] = scalar(a?.[f]);
    }
  }
  for (const [f, v] of Object.entries(c.return_info ?? {})) out[`return_info.${f}`] = scalar(v);
  c.items.forEach((item, i) => {
    for (const f of ["quantity", "item_type_id", "reference", "length", "width", "height", "weight_in_uom"] as const) out[`items.${i}.${f}`] = scalar(item[f]);
    out[`items.${i}.dangerous_goods_items`] = item.dangerous_goods_items.length ? JSON.stringify(item.dangerous_goods_items.map((d) => [d.un_number, d.weight_in_uom])) : null;
  });
  return out;
}

async function writeAudit(tx: DbOrTx, user: CurrentUser, consignmentId: number, version: number, before: ConsignmentJson | null, after: ConsignmentJson) {
  const now = auditView(after);
  if (!before) {
    await tx.insert(consignmentChanges).values({ consignmentId, version, field: "created", fromValue: null, toValue: after.state, changedBy: user.id });
    return;
  }
  const was = auditView(before);
  const keys = new Set([...Object.keys(was), ...Object.keys(now)]);
  const rows = [...keys]
    .filter((k) => (was[k] ?? null) !== (now[k] ?? null))
    .map((field) => ({ consignmentId, version, field, fromValue: was[field] ?? null, toValue: now[field] ?? null, changedBy: user.id }));
  if (rows.length) await tx.insert(consignmentChanges).values(rows);
}

export interface SaveOptions {
  /** a quote (state quote; 1 or 2 digit quantities) */
  isQuote?: boolean;
  returnType?: "return" | "third_party" | null;
  now?: Date;
}

export interface SaveResult {
  consignment: ConsignmentJson;
  /** false when saved but incomplete ('... has been saved but is incomplete.') */
  complete: boolean;
}

/**
 * Creates (no id) or updates a consignment: POST/PUT /api/consignments and the screen's Save.
 * Hard input errors are refused (422) and change nothing; what is merely missing is saved with
 * the consignment's `errors` and leaves it open. An update names the version it read: a save
 * from an older version is refused as stale (409).
 */
export async function saveConsignment(db: DbOrTx, user: CurrentUser, id: number | null, raw: unknown, options: SaveOptions = {}): Promise<SaveResult> {
  const input = parseOrThrow(consignmentInputSchema, raw);
  const now = options.now ?? new Date();
  // one transaction: the consignment, its addresses, items and audit rows change together or not at all
  return db.transaction(async (tx) => {
    const existing = id ? await loadRow(tx, user, id) : null;
    // a kind named by the caller must match (the quote screen saves quotes only); else an update keeps its own
    const isQuote = options.isQuote ?? existing?.isQuote ?? false;
    const returnType = options.returnType !== undefined ? options.returnType : (existing?.returnType ?? null);
    if (existing && (existing.isQuote !== isQuote || existing.returnType !== returnType)) throw notFound(isQuote ? "Quote" : "Consignment");
    if (isQuote) {
      // quotes take 1 or 2 digit quantities (spec 1 section 5)
      const errors = Object.fromEntries(input.items.flatMap((item, i) => (item.quantity > 99 ? [[`items.${i}.quantity`, ["Quantity must be 1 or 2 digits"]]] : [])));
      if (Object.keys(errors).length) throw new AppError("invalid", "Quantity must be 1 or 2 digits", errors);
    }
    if (existing) {
      if (input.version == null) throw new AppError("invalid", "Version is required", { version: ["Version is required"] });
      if (input.version !== existing.version) throw new AppError("stale", STALE_MESSAGE);
      if (!isEditable(existing.state)) throw new AppError("conflict", "This consignment can no longer be edited", { base: ["This consignment can no longer be edited"] });
    }
    const before = existing ? await toJson(tx, user, existing) : null;

    const site = pickSite(user, input, existing);
    const choices = await customReferenceChoices(tx, user);
    if (choices && input.custom_reference && !choices.some((c) => c.value === input.custom_reference)) {
      const message = `${user.customer.customConsignmentReferenceLabel || "Custom reference"} must be one of the list`;
      throw new AppError("invalid", message, { custom_reference: [message] });
    }
    // the past of the sending site: its today, not UTC's
    if (input.despatch_date && input.despatch_date < todayIn(site.timezone, now) && input.despatch_date !== existing?.despatchDate) {
      throw new AppError("invalid", "Despatch date cannot be in the past", { despatch_date: ["Despatch date cannot be in the past"] });
    }
    const skipped = skippedLocalTimes(
      { pickup_at: input.pickup_at, deliver_by: input.deliver_by, deliver_at: input.deliver_at, "return_info.ready_at": input.return_info?.ready_at, "return_info.closing_at": input.return_info?.closing_at },
      site.timezone,
    );
    if (Object.keys(skipped).length) throw new AppError("invalid", Object.values(skipped)[0]![0]!, skipped);

    const types = await tx
      .select({ id: itemTypes.id, description: itemTypes.description })
      .from(itemTypes)
      .where(eq(itemTypes.customerId, user.customer.id));
    const typeById = new Map(types.map((t) => [t.id, t]));
    const { errors, rate, response, serviceId } = await complete(tx, user, site, input, new Set(typeById.keys()), existing, returnType, choices, now);
    const ready = Object.keys(errors).length === 0 && Boolean(rate);
    // a quote being promoted arrives here with isQuote already cleared (promoteQuote)
    const state: ConsignmentState = isQuote
      ? "quote"
      : !existing
        ? ready ? "despatchable" : "open"
        : transition(existing.state, existing.state === "quote" ? (ready ? "promote_complete" : "promote_incomplete") : ready ? "complete" : "incomplete");

    const cheapest = response?.carriers.find((r) => !r.is_poa && r.total != null) ?? null;
    const ruleBased = response && response.selected_index != null ? response.carriers[response.selected_index] : null;
    // the rated site service names the service and the site's account for it, which owns the number ranges
    const offered = rate
      ? await tx
          .select({ serviceId: siteServices.serviceId, carrierAccountId: siteServices.carrierAccountId, printConsignments: carriers.printConsignments })
          .from(siteServices)
          .innerJoin(services, eq(services.id, siteServices.serviceId))
          .innerJoin(carriers, eq(carriers.id, services.carrierId))
          .where(eq(siteServices.id, rate.site_service_id))
          .then((r) => r[0] ?? null)
      : null;
    const chosenService = rate ? (offered?.serviceId ?? null) : serviceId;
    const carrierAccountId = rate ? (offered?.carrierAccountId ?? null) : (existing?.carrierAccountId ?? null);

    const senderId = await writeAddress(tx, existing?.senderAddressId ?? null, input.sender_address ? addressValues(user.customer.id, site.id, input.sender_address, site.som) : null);
    const receiverId = await writeAddress(tx, existing?.receiverAddressId ?? null, input.receiver_address ? addressValues(user.customer.id, site.id, input.receiver_address, site.som) : null);

    const listColumns = listColumnsOf(input, returnType, site.som);
    const values = {
      siteId: site.id,
      reference: input.reference,
      customReference: input.custom_reference,
      despatchDate: input.despatch_date,
      accountPayable: input.account_payable,
      chargeAccount: input.charge_account,
      specialInstructions: input.special_instructions,
      specialRequirements: input.special_requirements,
      pickupAt: input.pickup_at,
      deliverBy: input.deliver_by,
      deliverAt: input.deliver_at,
      senderAddressId: senderId,
      receiverAddressId: receiverId,
      serviceId: chosenService,
      carrierAccountId,
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
      carrierSelectionBy: rate ? user.id : (existing?.carrierSelectionBy ?? null),
      ratingDetail: rate?.rating_detail ? { ...rate.rating_detail, hidden: rate.is_na } : null,
      options: { ...(existing?.options ?? {}), ...(input.options ?? {}) },
      returnInfo: returnType ? returnInfoValues(input.return_info) : null,
      // the carrier wants a consignment note (print_consignments); dangerous goods want their document
      printConnote: rate ? Boolean(offered?.printConsignments) : (existing?.printConnote ?? false),
      printDangerousGoodsDocuments: listColumns.hazardous,
      ...listColumns,
      errors,
      state,
      updatedAt: now,
    };

    let saved: ConsignmentRow;
    // the SSCCs printed on a line's labels stay with it while the line keeps its place, quantity and type
    let printedLines: Array<{ position: number; quantity: number; itemTypeId: number | null; ssccs: string[] }> = [];
    if (existing) {
      // optimistic lock: only the version that was read may be replaced
      const [row] = await tx
        .update(consignments)
        .set({ ...values, version: sql`${consignments.version} + 1` })
        .where(and(eq(consignments.id, existing.id), eq(consignments.version, existing.version)))
        .returning();
      if (!row) throw new AppError("stale", STALE_MESSAGE);
      saved = row;
      printedLines = await tx
        .select({ position: consignmentItems.position, quantity: consignmentItems.quantity, itemTypeId: consignmentItems.itemTypeId, ssccs: consignmentItems.ssccs })
        .from(consignmentItems)
        .where(eq(consignmentItems.consignmentId, existing.id));
      await tx.delete(consignmentItems).where(eq(consignmentItems.consignmentId, existing.id));
    } else {
      const [row] = await tx
        .insert(consignments)
        .values({ ...values, customerId: user.customer.id, createdBy: user.id, isQuote, returnType })
        .returning();
      saved = row!;
    }

    // every line in one statement, then every dangerous goods line in one more
    const itemRows = input.items.length
      ? await tx
          .insert(consignmentItems)
          .values(
            input.items.map((item, position) => {
              const volume = itemVolume(item, site.som);
              return {
                consignmentId: saved.id,
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
                ssccs: (() => {
                  const was = printedLines.find((l) => l.position === position);
                  return was && was.quantity === item.quantity && was.itemTypeId === (item.item_type_id ?? null) ? was.ssccs : [];
                })(),
              };
            }),
          )
          .returning({ id: consignmentItems.id, position: consignmentItems.position })
      : [];
    const itemIdAt = new Map(itemRows.map((r) => [r.position, r.id]));
    const dgValues = input.items.flatMap((item, position) =>
      item.dangerous_goods_items
        .filter(isDangerousGoodsLine)
        .map((d) => ({
          itemId: itemIdAt.get(position)!,
          unNumber: d.un_number ?? "",
          properShippingName: d.proper_shipping_name ?? "",
          technicalName: d.technical_name,
          hazardClass: d.hazard_class,
          packingGroup: d.packing_group,
          subHazard: d.sub_hazard,
          weightInUom: d.weight_in_uom > 0 ? String(d.weight_in_uom) : null,
          nos: d.nos,
          som: site.som,
        })),
    );
    if (dgValues.length) await tx.insert(dangerousGoodsItems).values(dgValues);

    const after = await toJson(tx, user, saved);
    await writeAudit(tx, user, saved.id, saved.version, before, after);
    return { consignment: after, complete: Object.keys(errors).length === 0 && Boolean(rate) };
  });
}

/** A dangerous goods line is kept (and counts) once it names its UN number or shipping name. */
const isDangerousGoodsLine = (d: { un_number?: string | null; proper_shipping_name?: string | null }) => Boolean(d.un_number || d.proper_shipping_name);

/** The list columns kept with the row (party, items, weight, volume, hazardous, item references), from what is saved. */
function listColumnsOf(input: ConsignmentInput, returnType: string | null, som: Som) {
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

/** The site a consignment is sent from: one of the user's sites, by code or id; else the one it has, the user's default, or the first. */
function pickSite(user: CurrentUser, input: ConsignmentInput, existing: ConsignmentRow | null) {
  const wanted = input.site_code
    ? user.sites.find((s) => s.code.toLowerCase() === input.site_code!.toLowerCase())
    : input.site_id
      ? user.sites.find((s) => s.id === input.site_id)
      : user.sites.find((s) => s.id === (existing?.siteId ?? user.defaultSiteId)) ?? user.sites[0];
  if (!wanted) throw new AppError("invalid", "Site is not one of yours", { site_code: ["Site is not one of yours"] });
  return wanted;
}

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

/** The audit history of a consignment, newest first (consignment information view). */
export async function consignmentChangesOf(db: DbOrTx, user: CurrentUser, id: number) {
  if (!canSeeConsignmentInformation(user)) throw new AppError("forbidden", forbiddenMessage(user));
  await loadRow(db, user, id);
  const rows = await db
    .select({ change: consignmentChanges, by: users.fullName })
    .from(consignmentChanges)
    .leftJoin(users, eq(users.id, consignmentChanges.changedBy))
    .where(eq(consignmentChanges.consignmentId, id))
    .orderBy(desc(consignmentChanges.id))
    .limit(1000);
  return rows.map(({ change: c, by }) => ({ version: c.version, field: c.field, from: c.fromValue, to: c.toValue, by, at: c.changedAt.toISOString() }));
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
 * The choices of the custom reference when the customer's type is a dropdown: its list of
 * custom references (dropdown_generic) or its sites to charge (dropdown_charge_site); null for text.
 */
export async function customReferenceChoices(db: DbOrTx, user: CurrentUser): Promise<{ value: string; label: string }[] | null> {
  const type = user.customer.customConsignmentReferenceType;
  if (type === "dropdown_generic") return (user.customer.options.custom_references ?? []).map((r) => ({ value: r, label: r }));
  if (type === "dropdown_charge_site") {
    const rows = await db
      .select({ code: sites.code, name: sites.name })
      .from(sites)
      .where(and(eq(sites.customerId, user.customer.id), eq(sites.active, true)))
      .orderBy(asc(sites.name));
    return rows.map((r) => ({ value: r.code, label: `${r.name} (${r.code})` }));
  }
  return null;
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
