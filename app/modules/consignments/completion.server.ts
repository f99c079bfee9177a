/**
 * What a consignment being saved still lacks (the `errors` that keep it open) and its rate,
 * priced on the server from the reference data, never taken from the caller.
 */
import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { carriers, services } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { findPlaces, type Place } from "../localities/localities.server";
import type { RatingData } from "../rating/rating-data.server";
import { todayIn } from "../calendar/site-time";
import { rateWithCosts } from "../rating/rating.server";
import type { Rate, RateResponse } from "../rating/engine";
import type { FieldErrors } from "../../utils/errors";
import { placeName, ratingPayloadOf } from "./form";
import { canRerate, dangerousGoodsComplete } from "./rules";
import type { ConsignmentInput } from "./schema";
import type { ConsignmentRow } from "./consignments.server";

const SELECTION_FIELD = "carrier_name";

/** `carrier:service` as the engine's preselection names a service. */
export const serviceKey = (carrierCode: string, serviceCode: string) => `${carrierCode}:${serviceCode}`;

/**
 * What a caller completing many consignments has already read (the bulk upload): the rating
 * reference data, and the services by their codes. Absent, each is read here.
 */
export interface CompletionLookups {
  data?: RatingData;
  serviceByCodes?: (carrierCode: string, serviceCode: string) => { id: number; serviceCode: string; carrierCode: string } | undefined;
}

export interface Completed {
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
export async function complete(
  db: DbOrTx,
  user: CurrentUser,
  site: CurrentUser["sites"][number],
  input: ConsignmentInput,
  typeIds: Set<number>,
  existing: ConsignmentRow | null,
  returnType: "return" | "third_party" | null,
  referenceChoices: { value: string }[] | null,
  now: Date,
  lookups: CompletionLookups = {},
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
  const found = await (lookups.data ? lookups.data.places : (list: Place[]) => findPlaces(db, list))([sender, receiver].flatMap((a) => (a ? [{ locality: placeName(a) ?? "", postcode: a.postcode ?? "", country: a.country }] : [])));
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
    const row = lookups.serviceByCodes
      ? lookups.serviceByCodes(input.carrier_code, input.service_code)
      : await db
          .select({ id: services.id, serviceCode: services.code, carrierCode: carriers.code })
          .from(services)
          .innerJoin(carriers, eq(carriers.id, services.carrierId))
          .where(and(sql`lower(${carriers.code}) = ${input.carrier_code.toLowerCase()}`, sql`lower(${services.code}) = ${input.service_code.toLowerCase()}`))
          .then((r) => r[0]);
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
    lookups.data,
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
