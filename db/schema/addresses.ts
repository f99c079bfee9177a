import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { customers, sites } from "./tenancy";

/** Address book entries (recipients) and the addresses written on consignments. */
export const addresses = pgTable(
  "addresses",
  {
    id: serial("id").primaryKey(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    siteId: integer("site_id").references(() => sites.id),
    /** true for address-book recipients offered in the typeahead; false for copies held by consignments */
    isRecipient: boolean("is_recipient").notNull().default(true),
    name: text("name").notNull(),
    code: text("code"),
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
    timezone: text("timezone"),
    addressType: text("address_type").notNull().default("business"),
    specialInstructions: text("special_instructions"),
    som: text("som", { enum: ["metric", "imperial"] }).notNull().default("metric"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // recipient typeahead (a customer's address book searched by name prefix) and the recipients
    // list in name order, whose lazily loaded pages continue after (lower(name), id)
    index("addresses_customer_name_id_idx").on(t.customerId, t.isRecipient, sql`lower(${t.name})`, t.id),
    // the typeahead's search inside names, codes and localities (ILIKE '%x%', 3 characters or more)
    index("addresses_recipient_trgm_idx")
      .using("gin", t.name.op("gin_trgm_ops"), t.code.op("gin_trgm_ops"), t.locality.op("gin_trgm_ops"))
      .where(sql`${t.isRecipient}`),
  ],
);
