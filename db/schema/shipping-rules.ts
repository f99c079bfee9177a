import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { customers, sites } from "./tenancy";

/**
 * A customer's shipping rules (docs/decisions/040), in `position` order; a rule with a site applies
 * only to consignments from that site. `conditions` and `actions` are the shapes of
 * app/modules/shipping-rules/schema.ts, checked there before they are written.
 */
export const shippingRules = pgTable(
  "shipping_rules",
  {
    id: serial("id").primaryKey(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    siteId: integer("site_id").references(() => sites.id, { onDelete: "cascade" }),
    position: integer("position").notNull().default(0),
    name: text("name").notNull(),
    active: boolean("active").notNull().default(true),
    conditions: jsonb("conditions").$type<Record<string, unknown>>().notNull().default({}),
    actions: jsonb("actions").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // a customer's rules in their order (the list, and the compile on a cache miss)
  (t) => [index("shipping_rules_customer_idx").on(t.customerId, t.position)],
);
