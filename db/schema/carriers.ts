import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { customers, sites } from "./tenancy";

/** How a service's freight travels: what its emission intensity factor depends on. */
export const TRANSPORT_MODES = ["road", "air", "rail"] as const;
export type TransportMode = (typeof TRANSPORT_MODES)[number];
/** A carrier's own intensity (g CO2e per tonne-km, well-to-wheel) per mode, with where it came from. */
export type CarrierEmissionFactors = Partial<Record<TransportMode, { g_per_tkm: number; source: string }>>;

export const carriers = pgTable(
  "carriers",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    /** rates_service_key of spec 2, shown as Code; also selects the carrier adapter */
    code: text("code").notNull(),
    webUrl: text("web_url"),
    defaultEmail: text("default_email"),
    note: text("note"),
    myobUid: text("myob_uid"),
    generic: boolean("generic").notNull().default(true),
    appCarrier: boolean("app_carrier").notNull().default(false),
    payOnArrival: boolean("pay_on_arrival").notNull().default(false),
    printConsignments: boolean("print_consignments").notNull().default(false),
    manifestBarcode: boolean("manifest_barcode").notNull().default(false),
    autoBook: boolean("auto_book").notNull().default(false),
    apiTrackAndTrace: boolean("api_track_and_trace").notNull().default(false),
    gs1Compliant: boolean("gs1_compliant").notNull().default(true),
    pickupAt: boolean("pickup_at").notNull().default(false),
    deliverBy: boolean("deliver_by").notNull().default(false),
    deliverAt: boolean("deliver_at").notNull().default(false),
    options: jsonb("options").$type<Record<string, unknown>>().notNull().default({}),
    /** the carrier's own emission intensity per mode, replacing the default (docs/decisions/041) */
    emissionFactors: jsonb("emission_factors").$type<CarrierEmissionFactors>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // carriers are found by code from rate cards, zones and invoice imports
    uniqueIndex("carriers_code_key").on(sql`lower(${t.code})`),
  ],
);

export const services = pgTable(
  "services",
  {
    id: serial("id").primaryKey(),
    carrierId: integer("carrier_id")
      .notNull()
      .references(() => carriers.id),
    code: text("code").notNull(),
    name: text("name").notNull(),
    type: text("type", { enum: ["general", "overnight", "rail", "road", "sameday"] })
      .notNull()
      .default("general"),
    /** how the freight travels, for its emissions (docs/decisions/041) */
    transportMode: text("transport_mode", { enum: TRANSPORT_MODES }).notNull().default("road"),
    supportEmail: text("support_email"),
    routeCode: text("route_code"),
    serviceNameByCarrier: text("service_name_by_carrier"),
    serviceCodeByCarrier: text("service_code_by_carrier"),
    group: text("group"),
    payOnArrival: boolean("pay_on_arrival").notNull().default(false),
    dangerousGoodsProhibited: boolean("dangerous_goods_prohibited").notNull().default(false),
    pickupAt: boolean("pickup_at").notNull().default(false),
    deliverBy: boolean("deliver_by").notNull().default(false),
    deliverAt: boolean("deliver_at").notNull().default(false),
    mergingEnabled: boolean("merging_enabled").notNull().default(true),
    eligibleForOutbounds: boolean("eligible_for_outbounds").notNull().default(true),
    eligibleForReturns: boolean("eligible_for_returns").notNull().default(true),
    options: jsonb("options").$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    // service codes are unique per carrier (rate cards and site services name them)
    uniqueIndex("services_carrier_code_key").on(t.carrierId, sql`lower(${t.code})`),
  ],
);

/**
 * A site's account with a carrier (optionally for one service). It owns the number
 * ranges: consignment, manifest and SSCC numbers are allocated from here by an
 * UPDATE ... RETURNING on this row, inside the transaction that needs the number.
 */
export const carrierAccounts = pgTable(
  "carrier_accounts",
  {
    id: serial("id").primaryKey(),
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id),
    carrierId: integer("carrier_id")
      .notNull()
      .references(() => carriers.id),
    serviceId: integer("service_id").references(() => services.id),
    accountNumber: text("account_number").notNull(),
    carrierCustomerReference: text("carrier_customer_reference"),
    supportEmail: text("support_email"),
    bookingEmail: text("booking_email"),
    managedAccount: boolean("managed_account").notNull().default(false),
    consignmentNumberPrefix: text("consignment_number_prefix").notNull().default(""),
    consignmentNumberDigits: integer("consignment_number_digits").notNull().default(8),
    consignmentRangeStart: bigint("consignment_range_start", { mode: "number" }).notNull(),
    consignmentRangeEnd: bigint("consignment_range_end", { mode: "number" }).notNull(),
    /** last number handed out; null until the first allocation */
    consignmentCurrent: bigint("consignment_current", { mode: "number" }),
    manifestNumberPrefix: text("manifest_number_prefix").notNull().default(""),
    manifestNumberDigits: integer("manifest_number_digits").notNull().default(6),
    manifestRangeStart: bigint("manifest_range_start", { mode: "number" }).notNull(),
    manifestRangeEnd: bigint("manifest_range_end", { mode: "number" }).notNull(),
    manifestCurrent: bigint("manifest_current", { mode: "number" }),
    /** GS1 company prefix plus extension digit, as the SSCC's leading digits */
    ssccPrefix: text("sscc_prefix"),
    ssccDigits: integer("sscc_digits").notNull().default(9),
    ssccRangeStart: bigint("sscc_range_start", { mode: "number" }),
    ssccRangeEnd: bigint("sscc_range_end", { mode: "number" }),
    ssccCurrent: bigint("sscc_current", { mode: "number" }),
    pickupAt: boolean("pickup_at").notNull().default(false),
    deliverBy: boolean("deliver_by").notNull().default(false),
    deliverAt: boolean("deliver_at").notNull().default(false),
    climbingCountEnabled: boolean("climbing_count_enabled").notNull().default(false),
    options: jsonb("options").$type<{ auto_despatch?: boolean }>().notNull().default({}),
    note: text("note"),
    active: boolean("active").notNull().default(true),
  },
  (t) => [
    // accounts of a site, read when rating and despatching a site's consignments
    index("carrier_accounts_site_idx").on(t.siteId, t.carrierId),
  ],
);

/** A carrier service offered at a site ("Carriers & Services"): what the rating engine prices. */
export const siteServices = pgTable(
  "site_services",
  {
    id: serial("id").primaryKey(),
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id),
    serviceId: integer("service_id")
      .notNull()
      .references(() => services.id),
    carrierAccountId: integer("carrier_account_id").references(() => carrierAccounts.id),
    rateCode: text("rate_code"),
    markup: numeric("markup", { precision: 8, scale: 4 }).notNull().default("0"),
    surchargesMarkup: numeric("surcharges_markup", { precision: 8, scale: 4 }).notNull().default("0"),
    enabled: boolean("enabled").notNull().default(true),
    options: jsonb("options").$type<{ managed_account?: boolean }>().notNull().default({}),
  },
  (t) => [
    // one assignment per site and service; also serves "services of a site" when rating
    uniqueIndex("site_services_site_service_key").on(t.siteId, t.serviceId),
  ],
);

export const itemTypes = pgTable(
  "item_types",
  {
    id: serial("id").primaryKey(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    siteId: integer("site_id").references(() => sites.id),
    /** the unit: Carton, Pallet, Skid or Satchel */
    name: text("name", { enum: ["Carton", "Pallet", "Skid", "Satchel"] }).notNull().default("Carton"),
    description: text("description").notNull(),
    labels: integer("labels").notNull().default(1),
    palletVendor: integer("pallet_vendor").notNull().default(0),
    som: text("som", { enum: ["metric", "imperial"] }).notNull().default("metric"),
    length: numeric("length", { precision: 10, scale: 2 }),
    width: numeric("width", { precision: 10, scale: 2 }),
    height: numeric("height", { precision: 10, scale: 2 }),
    weight: numeric("weight", { precision: 10, scale: 3 }),
    increments: numeric("increments", { precision: 10, scale: 3 }).default("1.0"),
    hasDangerousGoods: boolean("has_dangerous_goods").notNull().default(false),
    preselectedDgItems: jsonb("preselected_dg_items").$type<unknown[]>().notNull().default([]),
    options: jsonb("options").$type<{ manual_handling?: boolean }>().notNull().default({}),
    sequence: integer("sequence").notNull().default(0),
  },
  (t) => [
    // item types of a customer in their saved order (item grid dropdown)
    index("item_types_customer_idx").on(t.customerId, t.sequence),
  ],
);
