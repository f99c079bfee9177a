import { sql } from "drizzle-orm";
import {
  boolean,
  date,
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
import { addresses } from "./addresses";
import { carrierAccounts, itemTypes, services } from "./carriers";
import { customers, sites } from "./tenancy";
import { users } from "./users";

/** Every state a consignment can be in (spec 1 section 4). The lifecycle module owns transitions. */
export const CONSIGNMENT_STATES = [
  "open",
  "despatchable",
  "quote",
  "despatching",
  "despatch_processing",
  "despatched",
  "booked",
  "in_transit",
  "delivered",
  "delivered_with_pod",
  "partial_delivery",
  "failed_delivery",
  "on_board_for_delivery",
  "picked_up",
  "cancelling",
  "cancelled",
  "despatch_failure",
  "permanently_failed",
  "merged",
  "deleted",
] as const;
export type ConsignmentState = (typeof CONSIGNMENT_STATES)[number];

export const manifests = pgTable(
  "manifests",
  {
    id: serial("id").primaryKey(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id),
    carrierAccountId: integer("carrier_account_id")
      .notNull()
      .references(() => carrierAccounts.id),
    number: text("number").notNull(),
    despatchTime: timestamp("despatch_time", { withTimezone: true }),
    failedDespatch: boolean("failed_despatch").notNull().default(false),
    /** what the carrier said when the last despatch of this manifest failed */
    failureReason: text("failure_reason"),
    despatchedBy: integer("despatched_by").references(() => users.id),
    status: text("status", { enum: ["pending", "ready", "failed"] }).notNull().default("pending"),
    printConnote: boolean("print_connote").notNull().default(false),
    printDangerousGoodsDocuments: boolean("print_dangerous_goods_documents").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // manifests list: a customer's manifests by despatch time
    index("manifests_customer_time_idx").on(t.customerId, t.despatchTime),
    // a manifest number is unique within its account's range
    uniqueIndex("manifests_account_number_key").on(t.carrierAccountId, t.number),
  ],
);

export const consignments = pgTable(
  "consignments",
  {
    id: serial("id").primaryKey(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id),
    /** optimistic locking: a save names the version it was read at */
    version: integer("version").notNull().default(1),
    state: text("state", { enum: CONSIGNMENT_STATES }).notNull().default("open"),
    returnType: text("return_type", { enum: ["return", "third_party"] }),
    isQuote: boolean("is_quote").notNull().default(false),
    hasQuoteOrigin: boolean("has_quote_origin").notNull().default(false),
    consignmentNumber: text("consignment_number"),
    reference: text("reference"),
    customReference: text("custom_reference"),
    despatchDate: date("despatch_date", { mode: "string" }),
    pickupAt: text("pickup_at"),
    deliverBy: text("deliver_by"),
    deliverAt: text("deliver_at"),
    senderAddressId: integer("sender_address_id").references(() => addresses.id),
    receiverAddressId: integer("receiver_address_id").references(() => addresses.id),
    specialInstructions: text("special_instructions"),
    specialRequirements: text("special_requirements"),
    accountPayable: text("account_payable", { enum: ["sender", "receiver", "transfer"] }).notNull().default("sender"),
    chargeAccount: text("charge_account"),
    serviceId: integer("service_id").references(() => services.id),
    carrierAccountId: integer("carrier_account_id").references(() => carrierAccounts.id),
    serviceRate: numeric("service_rate", { precision: 12, scale: 2 }),
    serviceRateExclGst: numeric("service_rate_excl_gst", { precision: 12, scale: 2 }),
    estimatedDeliveryDate: date("estimated_delivery_date", { mode: "string" }),
    poaCarrier: boolean("poa_carrier").notNull().default(false),
    preselectedCarrierService: text("preselected_carrier_service"),
    preselectedServiceType: text("preselected_service_type"),
    ruleBasedService: text("rule_based_service"),
    cheapestCarrierService: text("cheapest_carrier_service"),
    cheapestCarrierRate: numeric("cheapest_carrier_rate", { precision: 12, scale: 2 }),
    cheapestCarrierRateExclGst: numeric("cheapest_carrier_rate_excl_gst", { precision: 12, scale: 2 }),
    carrierSelectionBy: integer("carrier_selection_by").references(() => users.id),
    /** buy and sell cost lines by invoice cost category, charge weight, zones: what reconciliation compares against */
    ratingDetail: jsonb("rating_detail").$type<Record<string, unknown>>(),
    options: jsonb("options").$type<Record<string, unknown>>().notNull().default({}),
    /** what the consignment still lacks, per field; empty when complete (state despatchable) */
    errors: jsonb("errors").$type<Record<string, string[]>>().notNull().default({}),
    manifestId: integer("manifest_id").references(() => manifests.id),
    numberOfLabels: integer("number_of_labels").notNull().default(0),
    labelsPrintedAt: timestamp("labels_printed_at", { withTimezone: true }),
    // List columns kept with the row on every save, so the consignment list and manifest totals
    // read one table (spec 1 section 2 list columns; sortable without joins).
    /** receiver name, or the sender's for returns and third-party pickups */
    partyName: text("party_name"),
    itemCount: integer("item_count").notNull().default(0),
    totalWeight: numeric("total_weight", { precision: 14, scale: 3 }).notNull().default("0"),
    totalVolume: numeric("total_volume", { precision: 14, scale: 4 }).notNull().default("0"),
    hazardous: boolean("hazardous").notNull().default(false),
    itemReferences: text("item_references"),
    printConnote: boolean("print_connote").notNull().default(false),
    printDangerousGoodsDocuments: boolean("print_dangerous_goods_documents").notNull().default(false),
    autoDelivered: boolean("auto_delivered").notNull().default(false),
    cancellationAllowedDate: timestamp("cancellation_allowed_date", { withTimezone: true }),
    returnInfo: jsonb("return_info").$type<Record<string, unknown>>(),
    active: boolean("active").notNull().default(true),
    /**
     * The secret of the consignment's public tracking link (/track/{token}): random (122 bits) and
     * made with the row, so asking for the link changes nothing; regenerating it revokes the old one.
     */
    publicTrackingToken: uuid("public_tracking_token").notNull().defaultRandom(),
    deletedBy: integer("deleted_by").references(() => users.id),
    mergedIntoId: integer("merged_into_id"),
    createdBy: integer("created_by").references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // consignment list: a customer's consignments by despatch date, newest first (keyset on id)
    index("consignments_customer_date_idx").on(t.customerId, t.despatchDate, t.id),
    // consignment list filtered to one site
    index("consignments_site_date_idx").on(t.siteId, t.despatchDate, t.id),
    // search box and invoice matching look consignments up by number
    index("consignments_number_idx").on(t.consignmentNumber),
    // manifest page: the consignments of a manifest
    index("consignments_manifest_idx").on(t.manifestId),
    // consignment list counters and state filters: a customer's consignments of one state by date
    index("consignments_customer_state_date_idx").on(t.customerId, t.state, t.despatchDate),
    // consignment list: the rows of one carrier service group by despatch date, keyset on id
    // (list.server.ts listGroupRows; the group's rows alone are read, whatever the other groups hold)
    index("consignments_customer_service_date_idx").on(t.customerId, t.serviceId, t.despatchDate, t.id),
    // header search (spec 1 section 3): "starts with", case aside, on the number, the reference and
    // the receiver's name within one customer (text_pattern_ops serves LIKE 'abc%')
    index("consignments_customer_number_prefix_idx").on(t.customerId, sql`lower(${t.consignmentNumber}) text_pattern_ops`),
    index("consignments_customer_reference_prefix_idx").on(t.customerId, sql`lower(${t.reference}) text_pattern_ops`),
    index("consignments_customer_party_prefix_idx").on(t.customerId, sql`lower(${t.partyName}) text_pattern_ops`),
    // the public tracking page finds its consignment by the link's token
    uniqueIndex("consignments_public_tracking_token_idx").on(t.publicTrackingToken),
  ],
);

export const consignmentItems = pgTable(
  "consignment_items",
  {
    id: serial("id").primaryKey(),
    consignmentId: integer("consignment_id")
      .notNull()
      .references(() => consignments.id, { onDelete: "cascade" }),
    position: integer("position").notNull().default(0),
    quantity: integer("quantity").notNull(),
    itemTypeId: integer("item_type_id").references(() => itemTypes.id),
    itemTypeDescription: text("item_type_description"),
    reference: text("reference"),
    length: numeric("length", { precision: 10, scale: 2 }),
    width: numeric("width", { precision: 10, scale: 2 }),
    height: numeric("height", { precision: 10, scale: 2 }),
    weightInUom: numeric("weight_in_uom", { precision: 12, scale: 3 }),
    totalVolume: numeric("total_volume", { precision: 14, scale: 4 }),
    consolidated: boolean("consolidated").notNull().default(false),
    /** SSCC-18 of each label of this line, allocated when labels are first printed */
    ssccs: jsonb("ssccs").$type<string[]>().notNull().default([]),
  },
  (t) => [
    // items of a consignment in grid order
    index("consignment_items_consignment_idx").on(t.consignmentId, t.position),
  ],
);

export const dangerousGoodsItems = pgTable(
  "dangerous_goods_items",
  {
    id: serial("id").primaryKey(),
    itemId: integer("item_id")
      .notNull()
      .references(() => consignmentItems.id, { onDelete: "cascade" }),
    unNumber: text("un_number").notNull(),
    properShippingName: text("proper_shipping_name").notNull(),
    technicalName: text("technical_name"),
    hazardClass: text("hazard_class"),
    packingGroup: text("packing_group"),
    subHazard: text("sub_hazard"),
    weightInUom: numeric("weight_in_uom", { precision: 12, scale: 3 }),
    nos: boolean("nos").notNull().default(false),
    som: text("som", { enum: ["metric", "imperial"] }).notNull().default("metric"),
  },
  (t) => [
    // dangerous goods lines of an item
    index("dangerous_goods_items_item_idx").on(t.itemId),
  ],
);

/** Audit history: one row per changed field, feeding the consignment information view. */
export const consignmentChanges = pgTable(
  "consignment_changes",
  {
    id: serial("id").primaryKey(),
    consignmentId: integer("consignment_id")
      .notNull()
      .references(() => consignments.id, { onDelete: "cascade" }),
    itemId: integer("item_id"),
    version: integer("version").notNull(),
    field: text("field").notNull(),
    fromValue: text("from_value"),
    toValue: text("to_value"),
    changedBy: integer("changed_by").references(() => users.id),
    changedAt: timestamp("changed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // change history of one consignment, in order
    index("consignment_changes_consignment_idx").on(t.consignmentId, t.version),
  ],
);
