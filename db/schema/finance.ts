import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
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
import { carriers, services } from "./carriers";
import { consignments } from "./consignments";
import { jobs } from "./jobs";
import { customers, sites } from "./tenancy";
import { users } from "./users";

/**
 * Spec 3 section 3 "Cost" categories: every invoice cost line and every rated cost line uses one.
 * The one list: labels, the template editor, exports and the reconciliation's order derive from it
 * (tail lift and security charges added for Australian carriers, issue 29 item 6).
 */
export const COST_CATEGORIES = [
  "credit_adjustment",
  "dangerous_goods_surcharge",
  "freight_charge",
  "fuel_charge",
  "futile_delivery",
  "gst",
  "manual_handling_surcharge",
  "miscellaneous_fee",
  "missing_data",
  "onforwarding_surcharge",
  "oversize_surcharge",
  "remote_surcharge",
  "residential_surcharge",
  "return_surcharge",
  "warranty_surcharge",
  "post_office_box_surcharge",
  "tail_lift_surcharge",
  "security_surcharge",
] as const;
export type CostCategory = (typeof COST_CATEGORIES)[number];

/** Spec 3 section 4: invoice and invoice detail states. */
export const INVOICE_STATES = ["allocation_failure", "allocated", "exported", "invoiceable", "invoicing", "invoiced"] as const;
export type InvoiceState = (typeof INVOICE_STATES)[number] | "unallocated";

export const TRANSFORMATION_TYPES = ["DeleteRows", "EditValues", "GroupBy", "HeaderCells", "JoinRows", "NameColumns", "MapFields"] as const;
export type TransformationType = (typeof TRANSFORMATION_TYPES)[number];

/**
 * A carrier invoice template (spec 3 "Carrier invoice config"): how one carrier's file layout is
 * read (parser) and turned into invoices, lines and cost lines (its transformations, in sequence).
 */
export const carrierInvoiceConfigs = pgTable(
  "carrier_invoice_configs",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    carrierId: integer("carrier_id")
      .notNull()
      .references(() => carriers.id),
    /**
     * { format, formats, sheets } (no sheets = every sheet): `formats` the layouts it reads (the
     * same layout as XLSX and CSV), `format` the first of them; a template saved before formats
     * existed has only `format`
     */
    parser: jsonb("parser").$type<{ format: "CSV" | "XLSX" | "XLS"; formats?: ("CSV" | "XLSX" | "XLS")[]; sheets: string[] }>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("carrier_invoice_configs_name_key").on(sql`lower(${t.name})`)],
);

/** One step of a template; MapFields is always last (sequence 999999, spec 3 section 9). */
export const carrierInvoiceTransformations = pgTable(
  "carrier_invoice_transformations",
  {
    id: serial("id").primaryKey(),
    configId: integer("config_id")
      .notNull()
      .references(() => carrierInvoiceConfigs.id, { onDelete: "cascade" }),
    type: text("type", { enum: TRANSFORMATION_TYPES }).notNull(),
    sequence: integer("sequence").notNull(),
    /** the action and its settings, validated by the transformation's zod schema */
    options: jsonb("options").$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index("carrier_invoice_transformations_config_idx").on(t.configId, t.sequence)],
);

/**
 * A carrier's bill (payable) or a bill to a customer (receivable). Payable invoice numbers are
 * unique per carrier: importing the same number twice is refused.
 */
export const invoices = pgTable(
  "invoices",
  {
    id: serial("id").primaryKey(),
    accountingType: text("accounting_type", { enum: ["payable", "receivable"] }).notNull(),
    /** the invoice's own state; for payable ones it follows its lines (unallocated until all are) */
    state: text("state").notNull().default("unallocated"),
    invoiceNumber: text("invoice_number"),
    invoiceDate: date("invoice_date"),
    /** the total the file states (payable) or the sum invoiced (receivable), dollars */
    total: numeric("total", { precision: 14, scale: 2 }).notNull().default("0"),
    carrierId: integer("carrier_id").references(() => carriers.id),
    customerId: integer("customer_id").references(() => customers.id),
    configId: integer("config_id").references(() => carrierInvoiceConfigs.id, { onDelete: "set null" }),
    /** the file it came from, kept so it can be downloaded (GET /api/invoices/{id}/original_file) */
    originalFileName: text("original_file_name"),
    originalFilePath: text("original_file_path"),
    originalFileType: text("original_file_type"),
    importJobId: uuid("import_job_id").references(() => jobs.id, { onDelete: "set null" }),
    createdById: integer("created_by_id").references(() => users.id),
    exportedAt: timestamp("exported_at", { withTimezone: true }),
    /** where the export went: { csv?: true, accounting?: { uid, total } } */
    exportInfo: jsonb("export_info").$type<Record<string, unknown>>(),
    /**
     * payable: most of its lines already stand on this other carrier invoice (issue 29 finding 1,
     * decision 021), set by the import; the payable list says 'Possible duplicate of invoice ...'
     */
    duplicateOfInvoiceId: integer("duplicate_of_invoice_id").references((): AnyPgColumn => invoices.id, { onDelete: "set null" }),
    /** receivable: the sum before GST and the GST (spec: by the billing address's country) */
    subtotal: numeric("subtotal", { precision: 14, scale: 2 }),
    gst: numeric("gst", { precision: 14, scale: 2 }),
    /** receivable: the billing address as billing_address_from gave it when invoiced */
    billingAddress: jsonb("billing_address").$type<Record<string, unknown>>(),
    /** receivable: what the lines were grouped by (customer, a consignor site id, a receiver region) */
    groupKey: text("group_key"),
    /** receivable: the rendered PDF and when it was e-mailed to the customer's invoicing address */
    pdfPath: text("pdf_path"),
    emailedAt: timestamp("emailed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("invoices_payable_number_key")
      .on(t.carrierId, sql`lower(${t.invoiceNumber})`)
      .where(sql`accounting_type = 'payable'`),
    index("invoices_date_idx").on(t.accountingType, t.invoiceDate),
  ],
);

/**
 * One line of an invoice: a consignment the carrier charged for, as the carrier describes it,
 * and what it was matched to (customer, site, service, consignment) by allocation.
 */
export const invoiceDetails = pgTable(
  "invoice_details",
  {
    id: serial("id").primaryKey(),
    invoiceId: integer("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    /** unallocated, allocation_failure, allocated, exported, invoiceable, invoicing, invoiced */
    state: text("state").notNull().default("unallocated"),
    /** the line's position in its file (after transformation), for messages and ordering */
    lineNumber: integer("line_number").notNull(),
    carrierId: integer("carrier_id").references(() => carriers.id),
    customerId: integer("customer_id").references(() => customers.id),
    siteId: integer("site_id").references(() => sites.id),
    serviceId: integer("service_id").references(() => services.id),
    /** the service select's Unquoted choice: no service of ours matches this line */
    unquoted: boolean("unquoted").notNull().default(false),
    consignmentId: integer("consignment_id").references(() => consignments.id, { onDelete: "set null" }),
    consignmentNumber: text("consignment_number"),
    senderName: text("sender_name"),
    senderLocality: text("sender_locality"),
    senderPostcode: text("sender_postcode"),
    senderRegion: text("sender_region"),
    senderZone: text("sender_zone"),
    senderCountry: text("sender_country"),
    receiverName: text("receiver_name"),
    receiverLocality: text("receiver_locality"),
    receiverPostcode: text("receiver_postcode"),
    receiverRegion: text("receiver_region"),
    receiverZone: text("receiver_zone"),
    accountNumber: text("account_number"),
    parentAccountNumber: text("parent_account_number"),
    payer: text("payer"),
    reference: text("reference"),
    serviceDescription: text("service_description"),
    despatchDate: date("despatch_date"),
    totalQuantity: integer("total_quantity"),
    totalWeightInUom: numeric("total_weight_in_uom", { precision: 12, scale: 3 }),
    totalChargeWeight: numeric("total_charge_weight", { precision: 12, scale: 3 }),
    totalVolumeInUomCubed: numeric("total_volume_in_uom_cubed", { precision: 12, scale: 4 }),
    totalCost: numeric("total_cost", { precision: 12, scale: 2 }).notNull().default("0"),
    dangerousGoods: boolean("dangerous_goods").notNull().default(false),
    /** how the allocation was made: consignment (by number), rule, or manual (kept by re-runs) */
    allocatedBy: text("allocated_by", { enum: ["consignment", "rule", "manual"] }),
    /** why allocation failed, shown on the line */
    allocationError: text("allocation_error"),
    /**
     * receivable lines: the payable line this bills the customer for. Unique, so a payable line is
     * invoiced once however often invoicing runs.
     */
    sourceDetailId: integer("source_detail_id"),
    /**
     * payable lines: the line of another carrier invoice with the same carrier and consignment
     * number (and the same charges) that stood first: a possible duplicate, never reconciled
     * automatically (decision 021). No foreign key, as source_detail_id: deleting a large invoice
     * would look for its referrers line by line, and a reader joins it (a line gone reads as none)
     */
    duplicateOfDetailId: integer("duplicate_of_detail_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("invoice_details_invoice_idx").on(t.invoiceId, t.lineNumber),
    index("invoice_details_state_idx").on(t.state),
    // a consignment number's lines, and one carrier's (the import's duplicate check, decision 021)
    index("invoice_details_consignment_number_idx").on(t.consignmentNumber, t.carrierId),
    index("invoice_details_customer_idx").on(t.customerId),
    uniqueIndex("invoice_details_source_key").on(t.sourceDetailId).where(sql`source_detail_id is not null`),
  ],
);

/** A charge on an invoice line, in one of the spec's cost categories. */
export const invoiceCosts = pgTable(
  "invoice_costs",
  {
    id: serial("id").primaryKey(),
    invoiceDetailId: integer("invoice_detail_id")
      .notNull()
      .references(() => invoiceDetails.id, { onDelete: "cascade" }),
    category: text("category", { enum: COST_CATEGORIES }).notNull(),
    description: text("description").notNull(),
    amount: numeric("amount", { precision: 12, scale: 2 }).notNull(),
  },
  (t) => [index("invoice_costs_detail_idx").on(t.invoiceDetailId)],
);

/**
 * How an invoice line is matched to a customer, site or carrier service (spec 3 "Allocation
 * rule"). Mapping: a field's text to an id. Lookup: a field's value to a model's field. Rules of
 * one chain are tried in order through next_rule_id; the first that matches wins.
 */
export const allocationRules = pgTable(
  "allocation_rules",
  {
    id: serial("id").primaryKey(),
    carrierId: integer("carrier_id")
      .notNull()
      .references(() => carriers.id),
    /** a customer's own rule, tried before the carrier-wide ones; null for every customer */
    customerId: integer("customer_id").references(() => customers.id),
    allocationModel: text("allocation_model", { enum: ["Customer", "Site", "CarrierService"] }).notNull(),
    type: text("type", { enum: ["Mapping", "Lookup"] }).notNull(),
    /** Mapping: { from_matcher: { field, text }, to_id }; Lookup: { from_matcher: { field }, to_matcher: { model, field } } */
    options: jsonb("options").$type<Record<string, unknown>>().notNull(),
    nextRuleId: integer("next_rule_id"),
    deleted: boolean("deleted").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("allocation_rules_carrier_idx").on(t.carrierId, t.allocationModel)],
);
