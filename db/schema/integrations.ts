import { sql } from "drizzle-orm";
import { customType, index, integer, jsonb, numeric, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { itemTypes } from "./carriers";
import { customers, sites } from "./tenancy";
import { users } from "./users";

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

/**
 * A customer's online store link (spec 2 "Store"). The cart calls POST /api/store/{external_id}/rates
 * with the store's API key as a Bearer token; only the key's SHA-256 is kept (it is shown once).
 */
export const stores = pgTable(
  "stores",
  {
    id: serial("id").primaryKey(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    cartType: text("cart_type", { enum: ["shopify", "woocommerce", "magento"] }).notNull(),
    ratePresentation: text("rate_presentation", { enum: ["full_list", "grouped"] })
      .notNull()
      .default("full_list"),
    /** the site the goods leave from, and whose services rate the cart */
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id),
    externalId: text("external_id").notNull(),
    apiKeyHash: text("api_key_hash").notNull(),
    /** last 4 characters, so staff can tell which key is set */
    apiKeyHint: text("api_key_hint").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // the checkout-rates call finds its store by the external id in its path
    uniqueIndex("stores_external_id_key").on(t.externalId),
    index("stores_customer_idx").on(t.customerId),
  ],
);

/** A store's product: what a cart line (by SKU) weighs and measures. */
export const storeProducts = pgTable(
  "store_products",
  {
    id: serial("id").primaryKey(),
    storeId: integer("store_id")
      .notNull()
      .references(() => stores.id, { onDelete: "cascade" }),
    sku: text("sku").notNull(),
    name: text("name").notNull(),
    itemTypeId: integer("item_type_id").references(() => itemTypes.id, { onDelete: "set null" }),
    length: numeric("length", { precision: 10, scale: 2 }),
    width: numeric("width", { precision: 10, scale: 2 }),
    height: numeric("height", { precision: 10, scale: 2 }),
    weight: numeric("weight", { precision: 10, scale: 3 }),
  },
  (t) => [
    // cart lines are mapped to products by SKU (case aside); an import updates by SKU
    uniqueIndex("store_products_store_sku_key").on(t.storeId, sql`lower(${t.sku})`),
  ],
);

/**
 * A customer's login branding (spec 2 "Branding"): logo and background per country and
 * environment, optionally for one site. Images are stored checked (PNG, JPEG, sanitised SVG).
 */
export const brandings = pgTable(
  "brandings",
  {
    id: serial("id").primaryKey(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    siteId: integer("site_id").references(() => sites.id, { onDelete: "cascade" }),
    country: text("country", { enum: ["au", "nz"] }).notNull(),
    environment: text("environment", { enum: ["development", "qa", "uat", "production"] }).notNull(),
    logoImage: bytea("logo_image"),
    logoType: text("logo_type"),
    bgImage: bytea("bg_image"),
    bgType: text("bg_type"),
    updatedBy: integer("updated_by").references(() => users.id, { onDelete: "set null" }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // one branding per customer, site (or none), country and environment
    uniqueIndex("brandings_scope_key").on(t.customerId, sql`coalesce(${t.siteId}, 0)`, t.country, t.environment),
  ],
);

/**
 * The provider's link to its accounting software (spec 2 "/myob"): one row per provider, made by
 * the OAuth authorisation-code flow. Carriers map to suppliers through carriers.myob_uid.
 */
export const accountingConnections = pgTable(
  "accounting_connections",
  {
    id: serial("id").primaryKey(),
    provider: text("provider").notNull(),
    businessId: text("business_id"),
    businessName: text("business_name"),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    /** the OAuth state of an authorisation under way (checked on the callback) */
    pendingState: text("pending_state"),
    connectedBy: integer("connected_by").references(() => users.id, { onDelete: "set null" }),
    connectedAt: timestamp("connected_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("accounting_connections_provider_key").on(t.provider)],
);

/**
 * The simulated accounting service's own records (as simulated_journeys are the simulated
 * carrier's): authorisation codes, tokens, its supplier list and the bills it was sent, the
 * customer cards it keeps and the sales invoices it was sent. `kind` is checked in TypeScript only
 * (a text column), so a new kind needs no migration.
 */
export const simulatedAccounting = pgTable(
  "simulated_accounting",
  {
    id: serial("id").primaryKey(),
    kind: text("kind", { enum: ["code", "token", "supplier", "bill", "customer", "sale"] }).notNull(),
    key: text("key").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("simulated_accounting_kind_key").on(t.kind, t.key)],
);
