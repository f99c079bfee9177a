import { sql } from "drizzle-orm";
import { check, index, integer, numeric, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { carriers, TRANSPORT_MODES } from "./carriers";
import { consignments } from "./consignments";
import { customers } from "./tenancy";

/**
 * A consignment's well-to-wheel emissions (docs/decisions/041) with every input it came from, so
 * a changed factor can recompute it and dashboards can roll it up by customer, carrier and mode
 * without reading the consignments. One row per consignment: a figure, or the reason there is none.
 */
export const consignmentEmissions = pgTable(
  "consignment_emissions",
  {
    consignmentId: integer("consignment_id")
      .primaryKey()
      .references(() => consignments.id, { onDelete: "cascade" }),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    carrierId: integer("carrier_id").references(() => carriers.id),
    mode: text("mode", { enum: TRANSPORT_MODES }),
    kgCo2e: numeric("kg_co2e", { precision: 14, scale: 3 }),
    tonnes: numeric("tonnes", { precision: 14, scale: 6 }),
    /** 'charge' when rated (the rating's charge weight), else 'dead' (the items' own weight) */
    weightBasis: text("weight_basis", { enum: ["charge", "dead"] }),
    /** the distance the factor is applied to: great circle × circuity (road, rail) or + uplift (air) */
    km: numeric("km", { precision: 10, scale: 1 }),
    greatCircleKm: numeric("great_circle_km", { precision: 10, scale: 1 }),
    factorGPerTkm: numeric("factor_g_per_tkm", { precision: 10, scale: 3 }),
    factorSource: text("factor_source"),
    circuity: numeric("circuity", { precision: 6, scale: 3 }),
    methodVersion: text("method_version").notNull(),
    /** why there is no figure (no coordinates, no weight, no service); null when there is one */
    reason: text("reason"),
    computedAt: timestamp("computed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("consignment_emissions_figure_or_reason", sql`(${t.kgCo2e} is null) <> (${t.reason} is null)`),
    // a carrier's factor changed: its consignments of that mode are recomputed
    index("consignment_emissions_carrier_idx").on(t.carrierId, t.mode),
    // roll-ups per customer over a period
    index("consignment_emissions_customer_idx").on(t.customerId, t.computedAt),
  ],
);
