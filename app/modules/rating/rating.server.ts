import { and, desc, eq, inArray, lte, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import {
  carrierAccounts,
  carriers,
  fuelLevies,
  rateLanes,
  services,
  siteServices,
  surchargeSets,
  zones,
} from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { addBusinessDays } from "../calendar/business-days";
import { findPlaces, type Place } from "../localities/localities.server";
import { AppError } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { rate, resolveZone, type Lane, type RateResponse, type ServiceOption, type ZoneCandidate } from "./engine";
import { ratingPayloadSchema, type RatingPayload } from "./payload";

/**
 * Prices a consignment with every enabled service of the sending site (one of the user's sites).
 * Reads what the engine needs in three rounds of parallel queries, then calls the pure engine.
 */
export async function rateConsignment(db: DbOrTx, user: CurrentUser, raw: unknown): Promise<RateResponse> {
  const p: RatingPayload = parseOrThrow(ratingPayloadSchema, raw);
  const site = user.sites.find((s) => s.code.toLowerCase() === p.site_code.toLowerCase());
  if (!site) throw new AppError("invalid", "Site is not one of yours", { site_code: ["Site is not one of yours"] });

  const sender: Place = { locality: p.sender_locality, postcode: p.sender_postcode, country: p.sender_country, sublocality: p.sender_sublocality };
  const receiver: Place = { locality: p.receiver_locality, postcode: p.receiver_postcode, country: p.receiver_country, sublocality: p.receiver_sublocality };
  // round 1: both places, and the services offered at the site
  const [[senderPlace, receiverPlace], offered] = await Promise.all([
    findPlaces(db, [sender, receiver]),
    db
      .select({ ss: siteServices, service: services, carrier: carriers, account: carrierAccounts })
      .from(siteServices)
      .innerJoin(services, eq(services.id, siteServices.serviceId))
      .innerJoin(carriers, eq(carriers.id, services.carrierId))
      .leftJoin(carrierAccounts, eq(carrierAccounts.id, siteServices.carrierAccountId))
      .where(and(eq(siteServices.siteId, site.id), eq(siteServices.enabled, true))),
  ]);
  const errors: Record<string, string[]> = {};
  if (!senderPlace) errors.sender_locality = ["Invalid sender locality"];
  if (!receiverPlace) errors.receiver_locality = ["Invalid receiver locality"];
  if (Object.keys(errors).length) throw new AppError("invalid", Object.values(errors)[0]![0]!, errors);

  const eligible = offered.filter((o) => (p.return_type ? o.service.eligibleForReturns : o.service.eligibleForOutbounds));
  const hasDg = p.items.some((i) => i.dangerous_goods);
  const usable = eligible.filter((o) => !(hasDg && o.service.dangerousGoodsProhibited));
  if (usable.length === 0) return { carriers: [], selected_index: null, rule_applied: null };

  const carrierIds = [...new Set(usable.map((o) => o.carrier.id))];
  // round 2: zone rows of both places, the levies in force and the customer's surcharge sets
  const [zoneRows, levies, sets] = await Promise.all([
    db
      .select()
      .from(zones)
      .where(
        and(
          inArray(zones.carrierId, carrierIds),
          // plain lists so the (carrier, country, postcode) index serves all three columns; an
          // or of pairs used only the carrier and read every zone row of it
          inArray(zones.country, [sender.country, receiver.country] as never[]),
          inArray(zones.postcode, [sender.postcode, receiver.postcode]),
        ),
      ),
    db
      .selectDistinctOn([fuelLevies.carrierId])
      .from(fuelLevies)
      .where(and(inArray(fuelLevies.carrierId, carrierIds), lte(fuelLevies.effectiveFrom, p.despatch_date)))
      .orderBy(fuelLevies.carrierId, desc(fuelLevies.effectiveFrom)),
    db
      .select({ set: surchargeSets, carrierCode: carriers.code })
      .from(surchargeSets)
      .innerJoin(carriers, eq(carriers.id, surchargeSets.carrierId))
      .where(and(eq(surchargeSets.customerId, user.customer.id), inArray(surchargeSets.carrierId, carrierIds))),
  ]);
  const candidatesFor = (carrierId: number, place: Place): ZoneCandidate[] =>
    zoneRows.filter((z) => z.carrierId === carrierId && z.country === place.country && z.postcode === place.postcode);

  const withZones = usable.map((o) => {
    const ctx = { customerId: user.customer.id, siteId: site.id, serviceId: o.service.id };
    return {
      ...o,
      fromZone: resolveZone(candidatesFor(o.carrier.id, sender), { ...ctx, locality: sender.locality }),
      toZone: resolveZone(candidatesFor(o.carrier.id, receiver), { ...ctx, locality: receiver.locality }),
    };
  });

  // round 3: the lane in force on the despatch date for each service's card and zone pair
  const wanted = withZones.filter((o) => o.ss.rateCode && o.fromZone && o.toZone && o.fromZone !== "-" && o.toZone !== "-");
  const lanes = wanted.length
    ? await db
        .selectDistinctOn([rateLanes.serviceId, rateLanes.rateCode, rateLanes.fromZone, rateLanes.toZone])
        .from(rateLanes)
        .where(
          and(
            sql`(${rateLanes.serviceId}, ${rateLanes.rateCode}, ${rateLanes.fromZone}, ${rateLanes.toZone}) in (${sql.join(
              wanted.map((o) => sql`(${o.service.id}, ${o.ss.rateCode}, ${o.fromZone}, ${o.toZone})`),
              sql`, `,
            )})`,
            lte(rateLanes.effectiveFrom, p.despatch_date),
          ),
        )
        .orderBy(rateLanes.serviceId, rateLanes.rateCode, rateLanes.fromZone, rateLanes.toZone, desc(rateLanes.effectiveFrom))
    : [];
  const options: ServiceOption[] = withZones.map((o) => {
    const laneRow = lanes.find((l) => l.serviceId === o.service.id && l.rateCode === o.ss.rateCode && l.fromZone === o.fromZone && l.toZone === o.toZone);
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
      fuelPercentage: Number(levies.find((l) => l.carrierId === o.carrier.id)?.percentage ?? 0),
      hideRates: Boolean((o.account?.options as { hide_rates?: boolean } | undefined)?.hide_rates),
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
