import type { FeedMark } from "../../../db/changes.server";
import type { DbOrTx } from "../../../db/client.server";
import type { CurrentUser, SiteSummary } from "../auth/current-user.server";
import { addBusinessDays } from "../calendar/business-days";
import { DESPATCH_DATE_PAST } from "../calendar/dates";
import { todayIn } from "../calendar/site-time";
import type { Place } from "../localities/localities.server";
import { applyDecision } from "../shipping-rules/apply";
import { evaluateRules, type RuleFacts } from "../shipping-rules/evaluate";
import { AppError } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { rate, resolveZone, type Lane, type RateResponse, type ServiceOption, type ZoneCandidate } from "./engine";
import { ratingPayloadSchema, type RatingPayload } from "./payload";
import { laneKey, ratingData, type LaneWanted, type RatingData } from "./rating-data.server";
import { ratesForViewer } from "./visibility";

/**
 * The rates as `user` may see them (buy costs only for staff and finance: ratesForViewer): what
 * every answer that shows rates uses. `since`: the request's mark (Signed.since), so a request
 * whose authentication synced the change feed reads the rating data with no statement of its own.
 */
export async function rateConsignment(db: DbOrTx, user: CurrentUser, raw: unknown, since?: FeedMark): Promise<RateResponse> {
  return ratesForViewer(user, await rateWithCosts(db, user, raw, await ratingData(db, since)));
}

/**
 * Prices a consignment with every enabled service of the sending site (one of the user's sites),
 * buy side included: for storing with a consignment, never for an answer as it is.
 * Reads what the engine needs through the reference data cache (one query while nothing changed),
 * then calls the pure engine.
 */
export async function rateWithCosts(db: DbOrTx, user: CurrentUser, raw: unknown, cached?: RatingData): Promise<RateResponse> {
  const p: RatingPayload = parseOrThrow(ratingPayloadSchema, raw);
  const site = user.sites.find((s) => s.code.toLowerCase() === p.site_code.toLowerCase());
  if (!site) throw new AppError("invalid", "Site is not one of yours", { site_code: ["Site is not one of yours"] });
  // the schema refuses what is past everywhere on Earth; here the past is the sending site's
  if (p.despatch_date < todayIn(site.timezone)) throw new AppError("invalid", DESPATCH_DATE_PAST, { despatch_date: [DESPATCH_DATE_PAST] });
  return rateWithRules(db, user.customer.id, site, p, cached);
}

/** The sending site as rating reads it. */
export type RatingSite = Pick<SiteSummary, "id" | "code" | "som" | "region">;

/** The consignment as the customer's shipping rules read it. */
export function ruleFactsOf(site: RatingSite, p: RatingPayload): RuleFacts {
  return {
    siteId: site.id,
    som: site.som,
    receiver: { postcode: p.receiver_postcode, region: p.receiver_region, country: p.receiver_country, addressType: p.receiver_address_type },
    items: p.items.map((i) => ({
      quantity: i.quantity,
      length: i.length,
      width: i.width,
      height: i.height,
      weight: i.weight_in_uom,
      itemTypeId: typeof i.item_type === "number" ? i.item_type : null,
      dangerousGoods: i.dangerous_goods,
    })),
    declaredValue: p.declared_value ?? null,
    reference: p.reference ?? null,
  };
}

/**
 * rateAtSite with the customer's shipping rules applied (docs/decisions/040): what a consignment,
 * the bulk upload and a store's checkout are offered. Re-rating a consignment's own service (the
 * reconciliation) prices without them.
 */
export async function rateWithRules(db: DbOrTx, customerId: number, site: RatingSite, p: RatingPayload, cached?: RatingData): Promise<RateResponse> {
  const data = cached ?? (await ratingData(db));
  const [response, rules] = await Promise.all([rateAtSite(db, customerId, site, p, data), data.shippingRules(customerId)]);
  if (!rules.length) return response;
  const choices = response.carriers.map((r) => ({ key: `${r.code}:${r.service_code}`, price: r.is_poa ? null : (r.rating_detail?.total_sell_incl_gst ?? r.total), estimatedDelivery: r.estimated_delivery_date }));
  return applyDecision(response, evaluateRules(rules, ruleFactsOf(site, p), choices));
}

/**
 * Prices a checked payload at one of a customer's sites, buy side included. Callers have already
 * decided the site is the caller's to send from (a user's site, or an online store's own site).
 */
export async function rateAtSite(db: DbOrTx, customerId: number, site: RatingSite, p: RatingPayload, cached?: RatingData): Promise<RateResponse> {
  const sender: Place = { locality: p.sender_locality, postcode: p.sender_postcode, country: p.sender_country, sublocality: p.sender_sublocality };
  const receiver: Place = { locality: p.receiver_locality, postcode: p.receiver_postcode, country: p.receiver_country, sublocality: p.receiver_sublocality };
  // a caller rating many (the bulk upload) reads the reference data once for all of them
  const data = cached ?? (await ratingData(db));
  const [[senderPlace, receiverPlace], offered] = await Promise.all([data.places([sender, receiver]), data.offered(site.id)]);
  const errors: Record<string, string[]> = {};
  if (!senderPlace) errors.sender_locality = ["Invalid sender locality"];
  if (!receiverPlace) errors.receiver_locality = ["Invalid receiver locality"];
  if (Object.keys(errors).length) throw new AppError("invalid", Object.values(errors)[0]![0]!, errors);

  const eligible = offered.filter((o) => (p.return_type ? o.service.eligibleForReturns : o.service.eligibleForOutbounds));
  const hasDg = p.items.some((i) => i.dangerous_goods);
  const usable = eligible.filter((o) => !(hasDg && o.service.dangerousGoodsProhibited));
  if (usable.length === 0) return { carriers: [], selected_index: null, rule_applied: null };

  const carrierIds = [...new Set(usable.map((o) => o.carrier.id))];
  const [zoneRows, levies, sets] = await Promise.all([
    data.zones(carrierIds, [sender, receiver]),
    data.levies(carrierIds, p.despatch_date),
    data.surchargeSets(customerId, carrierIds),
  ]);
  const candidatesFor = (carrierId: number, place: Place): ZoneCandidate[] =>
    zoneRows.filter((z) => z.carrierId === carrierId && z.country === place.country && z.postcode === place.postcode);

  const withZones = usable.map((o) => {
    const ctx = { customerId, siteId: site.id, serviceId: o.service.id };
    return {
      ...o,
      fromZone: resolveZone(candidatesFor(o.carrier.id, sender), { ...ctx, locality: sender.locality }),
      toZone: resolveZone(candidatesFor(o.carrier.id, receiver), { ...ctx, locality: receiver.locality }),
    };
  });

  // the lane in force on the despatch date for each service's card and zone pair ("-" never rates)
  const laneOf = (o: (typeof withZones)[number]): LaneWanted | null =>
    o.ss.rateCode && o.fromZone && o.toZone && o.fromZone !== "-" && o.toZone !== "-" ? { serviceId: o.service.id, rateCode: o.ss.rateCode, fromZone: o.fromZone, toZone: o.toZone } : null;
  const lanes = await data.lanes(withZones.flatMap((o) => laneOf(o) ?? []), p.despatch_date);
  const options: ServiceOption[] = withZones.map((o) => {
    const wanted = laneOf(o);
    const laneRow = wanted ? lanes.get(laneKey(wanted)) : undefined;
    const lane: Lane | null = laneRow
      ? {
          rateCode: laneRow.rateCode,
          fromZone: laneRow.fromZone,
          toZone: laneRow.toZone,
          basic: Number(laneRow.basic),
          perKg: Number(laneRow.perKg),
          perItem: Number(laneRow.perItem),
          minimum: Number(laneRow.minimum),
          transitDays: laneRow.transitDays,
          cubicFactor: Number(laneRow.cubicFactor),
          som: laneRow.som,
          effectiveFrom: laneRow.effectiveFrom,
        }
      : null;
    return {
      siteServiceId: o.ss.id,
      carrierCode: o.carrier.code,
      carrierName: o.carrier.name,
      serviceCode: o.service.code,
      serviceName: o.service.name,
      serviceType: o.service.type,
      rateCode: o.ss.rateCode,
      markup: Number(o.ss.markup),
      surchargesMarkup: Number(o.ss.surchargesMarkup),
      fromZone: o.fromZone,
      toZone: o.toZone,
      lane,
      fuelPercentage: Number(levies.get(o.carrier.id) ?? 0),
      hideRates: o.hideRates,
      noRatesProvided: o.service.payOnArrival,
      timeslots: {
        pickup: o.service.pickupAt || o.carrier.pickupAt,
        deliver_by: o.service.deliverBy || o.carrier.deliverBy,
        deliver_at: o.service.deliverAt || o.carrier.deliverAt,
      },
    };
  });

  return rate({
    despatchDate: p.despatch_date,
    som: site.som,
    senderCountry: sender.country,
    siteCode: site.code,
    items: p.items.map((i) => ({
      quantity: i.quantity,
      length: i.length,
      width: i.width,
      height: i.height,
      weight: i.weight_in_uom,
      dangerousGoods: i.dangerous_goods,
      manualHandling: Boolean(i.item_options?.manual_handling),
    })),
    receiverRemoteTier: receiverPlace!.remoteTier,
    receiverResidential: p.receiver_address_type === "residential",
    isReturn: Boolean(p.return_type),
    warranty: p.warranty,
    preselectedCarrierService: p.preselected_carrier_service,
    preselectedServiceType: p.preselected_service_type,
    services: options,
    surchargeSets: sets.map(({ set, carrierCode }) => ({
      code: set.code,
      carrierCode,
      serviceCodes: set.serviceCodes,
      siteCodes: set.siteCodes,
      dgSurcharge: set.dgSurcharge,
      returnSurcharge: set.returnSurcharge,
      manualHandlingSurcharge: set.manualHandlingSurcharge,
      warrantySurcharge: set.warrantySurcharge,
      residentialSurcharge: set.residentialSurcharge,
      oversizedSurcharges: set.oversizedSurcharges,
      remoteSurcharges: set.remoteSurcharges,
    })),
    estimateDelivery: (date, days) => addBusinessDays(date, days, sender.country, site.region),
  });
}
