/**
 * Despatched consignments as their carriers' tracking sees them (carriers/adapters.server.ts
 * TrackingSubject): number, despatch time, and for planning a journey the sender's and
 * receiver's places with coordinates from the locality data and their time zones.
 */
import { and, asc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../../../db/client.server";
import { addresses, carrierAccounts, carriers, consignments, manifests, sites } from "../../../db/schema";
import type { CarrierInfo, TrackingPlace, TrackingSubject } from "../carriers/adapters.server";
import { rowsOf } from "../../utils/sql-rows";

export interface LoadedSubject {
  carrier: CarrierInfo;
  customerId: number;
  subject: TrackingSubject;
}

/** Zones of the regions of the countries with more than one, where an address names none. */
const REGION_ZONES: Record<string, Record<string, string>> = {
  AUSTRALIA: {
    NSW: "Australia/Sydney",
    ACT: "Australia/Sydney",
    VIC: "Australia/Melbourne",
    QLD: "Australia/Brisbane",
    SA: "Australia/Adelaide",
    WA: "Australia/Perth",
    TAS: "Australia/Hobart",
    NT: "Australia/Darwin",
  },
};
const COUNTRY_ZONES: Record<string, string> = { "NEW ZEALAND": "Pacific/Auckland" };

/** A place's zone: the address's own, else its region's or country's, else the sending site's. */
export const zoneOf = (place: { timezone: string | null; country: string; region: string | null }, siteZone: string | null) =>
  place.timezone || (place.region && REGION_ZONES[place.country]?.[place.region.toUpperCase()]) || COUNTRY_ZONES[place.country] || siteZone;

/** Coordinates of places by country, postcode and locality: one statement for any number of places. */
export async function coordinatesOf(db: DbOrTx, places: { country: string; postcode: string | null; locality: string | null }[]): Promise<({ latitude: number; longitude: number } | null)[]> {
  const wanted = places.map((p, k) => ({ k, country: p.country, postcode: p.postcode ?? "", locality: (p.locality ?? "").toLowerCase() }));
  const found = rowsOf<{ k: number; latitude: number; longitude: number }>(
    (await db.execute(sql`
      select x.k, l.latitude, l.longitude
      from jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb) as x(k int, country text, postcode text, locality text)
      cross join lateral (
        select latitude, longitude from localities
        where country = x.country and postcode = x.postcode and lower(locality) = x.locality and latitude is not null
        order by id limit 1
      ) l`)),
  );
  const out: ({ latitude: number; longitude: number } | null)[] = places.map(() => null);
  for (const f of found) out[f.k] = { latitude: Number(f.latitude), longitude: Number(f.longitude) };
  return out;
}

/**
 * The consignments among `ids` that have a number and a carrier, with their carriers. With
 * `places`, their sender and receiver with coordinates and zones (planning a journey needs them;
 * asking for events does not).
 */
export async function loadSubjects(db: DbOrTx, ids: number[], options: { places: boolean }): Promise<LoadedSubject[]> {
  if (!ids.length) return [];
  const sender = alias(addresses, "sender");
  const receiver = alias(addresses, "receiver");
  const place = (a: typeof sender | typeof receiver) => ({ name: a.name, locality: a.locality, region: a.region, postcode: a.postcode, country: a.country, timezone: a.timezone });
  const rows = await db
    .select({
      id: consignments.id,
      number: consignments.consignmentNumber,
      customerId: consignments.customerId,
      estimatedDeliveryDate: consignments.estimatedDeliveryDate,
      despatchDate: consignments.despatchDate,
      despatchTime: manifests.despatchTime,
      updatedAt: consignments.updatedAt,
      carrier: { code: carriers.code, name: carriers.name, webUrl: carriers.webUrl, options: carriers.options },
      siteZone: sites.timezone,
      siteCountry: sites.country,
      sender: place(sender),
      receiver: place(receiver),
    })
    .from(consignments)
    .innerJoin(carrierAccounts, eq(carrierAccounts.id, consignments.carrierAccountId))
    .innerJoin(carriers, eq(carriers.id, carrierAccounts.carrierId))
    .innerJoin(sites, eq(sites.id, consignments.siteId))
    .leftJoin(manifests, eq(manifests.id, consignments.manifestId))
    .leftJoin(sender, eq(sender.id, consignments.senderAddressId))
    .leftJoin(receiver, eq(receiver.id, consignments.receiverAddressId))
    .where(and(inArray(consignments.id, ids), isNotNull(consignments.consignmentNumber)))
    .orderBy(asc(consignments.id));

  // a consignment without an address (not one despatched) still has the site's country
  const withCountry = (a: (typeof rows)[number]["sender"] | null, country: string) => ({ name: null, locality: null, region: null, postcode: null, timezone: null, ...a, country: a?.country ?? country });
  const addressesOf = rows.flatMap((r) => [withCountry(r.sender, r.siteCountry), withCountry(r.receiver, r.siteCountry)]);
  const points = options.places ? await coordinatesOf(db, addressesOf) : addressesOf.map(() => null);
  const toPlace = (k: number, siteZone: string | null): TrackingPlace => {
    const a = addressesOf[k]!;
    return { name: a.name, locality: a.locality, region: a.region, postcode: a.postcode, country: a.country, latitude: points[k]?.latitude ?? null, longitude: points[k]?.longitude ?? null, timeZone: zoneOf(a, siteZone) };
  };
  return rows.map((r, i) => ({
    carrier: r.carrier,
    customerId: r.customerId,
    subject: {
      consignmentId: r.id,
      consignmentNumber: r.number!,
      // a consignment despatched before manifests kept their time: when it last changed
      despatchedAt: r.despatchTime ?? r.updatedAt,
      despatchDate: r.despatchDate,
      estimatedDeliveryDate: r.estimatedDeliveryDate,
      sender: toPlace(2 * i, r.siteZone),
      receiver: toPlace(2 * i + 1, r.siteZone),
    },
  }));
}
