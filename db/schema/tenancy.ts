import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/** customer_options of spec 2 section 3; every key optional, defaults applied in modules/tenancy. */
export type CustomerOptions = {
  booking_enabled?: boolean;
  booking_v2?: boolean;
  view_item_references?: boolean;
  send_all_tracking_updates?: boolean;
  invoice_allocate_by?: "CUSTOMER" | "SITE" | "REGION";
  billing_address_from?: string | Record<string, number>;
  global_recipients?: boolean;
  markup?: number;
  merge_limit?: 3 | 4 | 5;
  placeholder_texts?: Partial<Record<"custom_reference" | "receiver_account" | "reference" | "special_instructions", string>>;
  reconciliation_threshold_flat?: number;
  reconciliation_threshold_percentage?: number;
  invoicing_email?: string;
  /** minutes of inactivity before a session ends; blank means 720 */
  session_timeout?: number | null;
  delivery_options_enabled?: boolean;
  pre_despatch?: boolean;
  despatch_failure_notices_enabled?: boolean;
  preserve_ssccs_during_merge?: boolean;
  view_consignment_reference?: boolean;
  view_all_despatched_cons?: boolean;
  all_users_can_edit_recipients?: boolean;
  /** the choices of a dropdown_generic custom consignment reference */
  custom_references?: string[];
};

export type PostalAddress = {
  name?: string;
  address_line_1?: string;
  address_line_2?: string;
  address_line_3?: string;
  address_line_4?: string;
  sublocality?: string;
  locality?: string;
  postcode?: string;
  region?: string;
  country?: string;
};

export const customers = pgTable(
  "customers",
  {
    id: serial("id").primaryKey(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    brandingPrefix: text("branding_prefix"),
    /** the customer's organisation in the support desk; read-only on the customer screen */
    zendeskOrgId: text("zendesk_org_id"),
    testAccount: boolean("test_account").notNull().default(false),
    testAccountPrevious: boolean("test_account_previous").notNull().default(false),
    disabled: boolean("disabled").notNull().default(false),
    deleteConsignments: boolean("delete_consignments").notNull().default(false),
    offersCustomerCollect: boolean("offers_customer_collect").notNull().default(false),
    receiversCarrierPermitted: boolean("receivers_carrier_permitted").notNull().default(false),
    despatchEnabled: boolean("despatch_enabled").notNull().default(true),
    customerDespatchEnabled: boolean("customer_despatch_enabled").notNull().default(true),
    trackingDespatchEnabled: boolean("tracking_despatch_enabled").notNull().default(false),
    mergingEnabled: boolean("merging_enabled").notNull().default(false),
    dgMergingEnabled: boolean("dg_merging_enabled").notNull().default(false),
    mergingCustomReferenceEnabled: boolean("merging_custom_reference_enabled").notNull().default(false),
    customConsignmentReferenceType: text("custom_consignment_reference_type", {
      enum: ["text", "dropdown_generic", "dropdown_charge_site"],
    })
      .notNull()
      .default("text"),
    customConsignmentReferenceLabel: text("custom_consignment_reference_label"),
    specialInstructions: text("special_instructions"),
    printDeclarations: boolean("print_declarations").notNull().default(false),
    supportEmail: text("support_email"),
    billingAddress: jsonb("billing_address").$type<PostalAddress>(),
    options: jsonb("options").$type<CustomerOptions>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // customer codes are how carriers, imports and allocation rules name a customer
    uniqueIndex("customers_code_key").on(sql`lower(${t.code})`),
  ],
);

export const sites = pgTable(
  "sites",
  {
    id: serial("id").primaryKey(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    code: text("code").notNull(),
    name: text("name").notNull(),
    addressType: text("address_type").notNull().default("business"),
    addressLine1: text("address_line_1"),
    addressLine2: text("address_line_2"),
    addressLine3: text("address_line_3"),
    addressLine4: text("address_line_4"),
    sublocality: text("sublocality"),
    locality: text("locality"),
    region: text("region"),
    postcode: text("postcode"),
    country: text("country").notNull().default("AUSTRALIA"),
    phone: text("phone"),
    email: text("email"),
    som: text("som", { enum: ["metric", "imperial"] }).notNull().default("metric"),
    openingTime: text("opening_time"),
    closingTime: text("closing_time"),
    timezone: text("timezone"),
    despatchEnabled: boolean("despatch_enabled").notNull().default(true),
    dgContactName: text("dg_contact_name"),
    dgContactPhone: text("dg_contact_phone"),
    csPhoneNumber: text("cs_phone_number"),
    chepAccount: text("chep_account"),
    loscamAccount: text("loscam_account"),
    billingAddress: jsonb("billing_address").$type<PostalAddress>(),
    options: jsonb("options").$type<Record<string, unknown>>().notNull().default({}),
    active: boolean("active").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // a site code is unique within its customer (bulk upload and zones name sites by code)
    uniqueIndex("sites_customer_code_key").on(t.customerId, sql`lower(${t.code})`),
    // sites of a customer, listed on every consignment screen load
    index("sites_customer_idx").on(t.customerId),
  ],
);
