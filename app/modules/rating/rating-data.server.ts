/**
 * The reference data a rate shop reads (places, the site's services, zone rows, lanes, fuel levies,
 * surcharge sets), kept in memory between calls. Triggers bump `rating_data_version` in every
 * statement that changes any of it (migration 0009), so a call costs one query while nothing
 * changed, and reloads what it needs after any change.
 *
 * The cache key is the row's (instance, xmin, version): instance tells databases apart, xmin the
 * transaction that wrote it (so a rolled-back writer's version number, reused later, names nothing
 * cached), version each statement within that transaction. An entry is read after its key, so it
 * is never older than its key says. Callers must not mutate what they get.
 */
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { changeFeedOf, type DbOrTx } from "../../../db/client.server";
import type { FeedMark } from "../../../db/changes.server";
import { keptPer, readThrough } from "../../../db/kept.server";
import { carrierAccounts, carriers, fuelLevies, rateLanes, ratingDataVersion, services, shippingRules, siteServices, surchargeSets, zones } from "../../../db/schema";
import { compileRules, type CompiledRule, type StoredRule } from "../shipping-rules/evaluate";
import { findPlaces, type Place } from "../localities/localities.server";
import { preparedFor } from "../../utils/prepared.server";

type PlaceRow = NonNullable<Awaited<ReturnType<typeof findPlaces>>[number]>;
type ZoneRow = typeof zones.$inferSelect;
type LaneRow = typeof rateLanes.$inferSelect;
type LevyRow = { carrierId: number; percentage: string; effectiveFrom: string };
type SetRow = { set: typeof surchargeSets.$inferSelect; carrierCode: string };

/** A service offered at a site, as rating uses it. */
export interface Offered {
  ss: typeof siteServices.$inferSelect;
  service: typeof services.$inferSelect;
  carrier: typeof carriers.$inferSelect;
  hideRates: boolean;
}

/** Entries per map before it is emptied: bounds memory whatever the traffic. */
const MAX_ENTRIES = 20_000;

interface Entries {
  key: string;
  places: Map<string, PlaceRow | null>;
  offered: Map<number, Offered[]>;
  /** a carrier's zone rows of a country and postcode */
  zones: Map<string, ZoneRow[]>;
  /** a lane's rows, newest effective date first */
  lanes: Map<string, LaneRow[]>;
  /** a carrier's levies, newest first */
  levies: Map<number, LevyRow[]>;
  sets: Map<number, SetRow[]>;
  /** a customer's shipping rules, compiled (their table's trigger bumps the version too) */
  rules: Map<number, CompiledRule[]>;
}

const byInstance = new Map<string, Entries>();

const placeKey = (p: Place) => `${p.country}|${p.postcode}|${p.locality.toLowerCase()}`;
const zoneKey = (carrierId: number, country: string, postcode: string) => `${carrierId}|${country}|${postcode}`;
/** A service's card and zone pair. */
export interface LaneWanted {
  serviceId: number;
  rateCode: string;
  fromZone: string;
  toZone: string;
}
export const laneKey = (l: LaneWanted) => `${l.serviceId}|${l.rateCode}|${l.fromZone}|${l.toZone}`;

function put<K, V>(map: Map<K, V>, key: K, value: V) {
  if (map.size >= MAX_ENTRIES) map.clear();
  map.set(key, value);
}

const stampStatement = preparedFor((db) =>
  db.select({ instance: ratingDataVersion.instance, xmin: sql<string>`xmin::text`, version: ratingDataVersion.version }).from(ratingDataVersion).prepare("rating_data_version"),
);

export type RatingData = Awaited<ReturnType<typeof ratingData>>;

type Stamp = Awaited<ReturnType<ReturnType<typeof stampStatement>["execute"]>>[number];

// the version row, kept with the change feed (migration 0043 tells of every write to it)
const stampsKept = keptPer<true, Stamp>((payload, kept) => {
  if (payload === "rating") kept.clear();
});

/**
 * The version row as of the request: kept in memory where the database has a change feed, and
 * then answered without a statement once the request (which took `since` as it began) has synced
 * the feed, as authenticating it does.
 */
async function currentStamp(db: DbOrTx, since?: FeedMark): Promise<Stamp> {
  const stamp = await readThrough(stampsKept(changeFeedOf(db)), true, async () => (await stampStatement(db).execute())[0], since);
  if (!stamp) throw new Error("rating_data_version has no row: run the migrations");
  return stamp;
}

/**
 * The cached reference data as of now; one query unless something changed, and none when the
 * request has synced the change feed since `since` (its start).
 */
export async function ratingData(db: DbOrTx, since?: FeedMark) {
  const stamp = await currentStamp(db, since);
  const key = `${stamp.xmin}:${stamp.version}`;
  let e = byInstance.get(stamp.instance);
  if (!e || e.key !== key) {
    e = { key, places: new Map(), offered: new Map(), zones: new Map(), lanes: new Map(), levies: new Map(), sets: new Map(), rules: new Map() };
    byInstance.set(stamp.instance, e);
  }
  const entries = e;

  return {
    /** the locality rows of these places (null where none matches) */
    async places(list: Place[]): Promise<Array<PlaceRow | null>> {
      const missing = list.filter((p) => !entries.places.has(placeKey(p)));
      if (missing.length) {
        const found = await findPlaces(db, missing);
        missing.forEach((p, i) => put(entries.places, placeKey(p), found[i] ?? null));
      }
      return list.map((p) => entries.places.get(placeKey(p)) ?? null);
    },

    /** the enabled services of a site, with carrier and account */
    async offered(siteId: number): Promise<Offered[]> {
      let rows = entries.offered.get(siteId);
      if (!rows) {
        const read = await db
          .select({ ss: siteServices, service: services, carrier: carriers, accountOptions: carrierAccounts.options })
          .from(siteServices)
          .innerJoin(services, eq(services.id, siteServices.serviceId))
          .innerJoin(carriers, eq(carriers.id, services.carrierId))
          .leftJoin(carrierAccounts, eq(carrierAccounts.id, siteServices.carrierAccountId))
          .where(and(eq(siteServices.siteId, siteId), eq(siteServices.enabled, true)));
        rows = read.map(({ accountOptions, ...o }) => ({ ...o, hideRates: Boolean((accountOptions as { hide_rates?: boolean } | null)?.hide_rates) }));
        put(entries.offered, siteId, rows);
      }
      return rows;
    },

    /** the zone rows of these carriers at these postcodes */
    async zones(carrierIds: number[], places: Array<{ country: string; postcode: string }>): Promise<ZoneRow[]> {
      const keys = carrierIds.flatMap((carrierId) => places.map((p) => ({ carrierId, ...p, key: zoneKey(carrierId, p.country, p.postcode) })));
      const missing = keys.filter((k) => !entries.zones.has(k.key));
      if (missing.length) {
        const rows = await db
          .select()
          .from(zones)
          .where(
            and(
              // plain lists so the (carrier, country, postcode) index serves all three columns
              inArray(zones.carrierId, missing.map((k) => k.carrierId)),
              inArray(zones.country, missing.map((k) => k.country) as never[]),
              inArray(zones.postcode, missing.map((k) => k.postcode)),
            ),
          );
        for (const k of missing) put(entries.zones, k.key, rows.filter((z) => zoneKey(z.carrierId, z.country, z.postcode) === k.key));
      }
      return [...new Set(keys.map((k) => k.key))].flatMap((k) => entries.zones.get(k) ?? []);
    },

    /** for each lane asked for, its row in force on the date (absent where none) */
    async lanes(wanted: LaneWanted[], date: string): Promise<Map<string, LaneRow>> {
      const missing = wanted.filter((w) => !entries.lanes.has(laneKey(w)));
      if (missing.length) {
        const rows = await db
          .select()
          .from(rateLanes)
          .where(
            sql`(${rateLanes.serviceId}, ${rateLanes.rateCode}, ${rateLanes.fromZone}, ${rateLanes.toZone}) in (${sql.join(
              missing.map((w) => sql`(${w.serviceId}, ${w.rateCode}, ${w.fromZone}, ${w.toZone})`),
              sql`, `,
            )})`,
          )
          .orderBy(desc(rateLanes.effectiveFrom));
        for (const w of missing) {
          const k = laneKey(w);
          put(entries.lanes, k, rows.filter((r) => laneKey(r) === k));
        }
      }
      const inForce = new Map<string, LaneRow>();
      for (const w of wanted) {
        const k = laneKey(w);
        const row = entries.lanes.get(k)?.find((r) => r.effectiveFrom <= date);
        if (row) inForce.set(k, row);
      }
      return inForce;
    },

    /** each carrier's fuel levy percentage in force on the date */
    async levies(carrierIds: number[], date: string): Promise<Map<number, string>> {
      const missing = carrierIds.filter((id) => !entries.levies.has(id));
      if (missing.length) {
        const rows = await db
          .select({ carrierId: fuelLevies.carrierId, percentage: fuelLevies.percentage, effectiveFrom: fuelLevies.effectiveFrom })
          .from(fuelLevies)
          .where(inArray(fuelLevies.carrierId, missing))
          .orderBy(desc(fuelLevies.effectiveFrom));
        for (const id of missing) put(entries.levies, id, rows.filter((r) => r.carrierId === id));
      }
      const inForce = new Map<number, string>();
      for (const id of carrierIds) {
        const row = entries.levies.get(id)?.find((r) => r.effectiveFrom <= date);
        if (row) inForce.set(id, row.percentage);
      }
      return inForce;
    },

    /** a customer's surcharge sets for these carriers */
    async surchargeSets(customerId: number, carrierIds: number[]): Promise<SetRow[]> {
      let rows = entries.sets.get(customerId);
      if (!rows) {
        rows = await db
          .select({ set: surchargeSets, carrierCode: carriers.code })
          .from(surchargeSets)
          .innerJoin(carriers, eq(carriers.id, surchargeSets.carrierId))
          .where(eq(surchargeSets.customerId, customerId));
        put(entries.sets, customerId, rows);
      }
      const wanted = new Set(carrierIds);
      return rows.filter((r) => wanted.has(r.set.carrierId));
    },

    /** a customer's active shipping rules in their order, compiled once per change */
    async shippingRules(customerId: number): Promise<CompiledRule[]> {
      let rules = entries.rules.get(customerId);
      if (!rules) {
        const rows = await db
          .select({ id: shippingRules.id, name: shippingRules.name, siteId: shippingRules.siteId, active: shippingRules.active, conditions: shippingRules.conditions, actions: shippingRules.actions })
          .from(shippingRules)
          .where(eq(shippingRules.customerId, customerId))
          .orderBy(shippingRules.position, shippingRules.id);
        rules = compileRules(rows as StoredRule[]);
        put(entries.rules, customerId, rules);
      }
      return rules;
    },
  };
}
