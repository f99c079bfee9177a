import { bigserial, date, index, integer, numeric, pgTable, text } from "drizzle-orm/pg-core";

/**
 * The /insight dashboards' rollups (issue 33 item 4, docs/decisions/042): consignments counted and
 * summed per day (and per month), customer, site, carrier, service, mode, lane, currency and transit
 * days. Written only by app/modules/insight/rollup.server.ts; migration 0037 holds the triggers
 * that mark what to recompute.
 */
const rollupColumns = () => ({
  day: date("day", { mode: "string" }).notNull(),
  customerId: integer("customer_id").notNull(),
  siteId: integer("site_id"),
  carrierId: integer("carrier_id"),
  serviceId: integer("service_id"),
  mode: text("mode"),
  /** the sender's and receiver's state ('' when the address has none) */
  fromRegion: text("from_region").notNull(),
  toRegion: text("to_region").notNull(),
  /** of the sending site's country (AUD, NZD, USD): money is never summed across currencies */
  currency: text("currency").notNull(),
  /** delivered date less despatch date, null until delivered */
  transitDays: integer("transit_days"),
  consignments: integer("consignments").notNull(),
  rated: integer("rated").notNull(),
  sell: numeric("sell", { precision: 16, scale: 2 }).notNull(),
  buy: numeric("buy", { precision: 16, scale: 2 }).notNull(),
  chargeKg: numeric("charge_kg", { precision: 16, scale: 3 }).notNull(),
  delivered: integer("delivered").notNull(),
  withEta: integer("with_eta").notNull(),
  onTime: integer("on_time").notNull(),
  firstAttempt: integer("first_attempt").notNull(),
  withEnquiry: integer("with_enquiry").notNull(),
  withEmissions: integer("with_emissions").notNull(),
  kgCo2e: numeric("kg_co2e", { precision: 16, scale: 3 }).notNull(),
  tonneKm: numeric("tonne_km", { precision: 18, scale: 3 }).notNull(),
});

/** Per day (the despatch date). */
export const insightDaily = pgTable("insight_daily", rollupColumns(), (t) => [index("insight_daily_customer_day_idx").on(t.customerId, t.day), index("insight_daily_day_idx").on(t.day)]);

/** The same per month (`day` is the month's first day), summed from the daily rows of a (customer, month). */
export const insightMonthly = pgTable("insight_monthly", rollupColumns(), (t) => [index("insight_monthly_customer_day_idx").on(t.customerId, t.day), index("insight_monthly_day_idx").on(t.day)]);

/** (customer, day) slices whose rollup rows are out of date: appended by triggers, taken by the refresher. */
export const insightDirty = pgTable("insight_dirty", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  customerId: integer("customer_id").notNull(),
  day: date("day", { mode: "string" }).notNull(),
});
