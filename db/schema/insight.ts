import { bigserial, date, index, integer, numeric, pgTable, text } from "drizzle-orm/pg-core";

/**
 * The /insight dashboards' rollups (issue 33 item 4, docs/decisions/042): consignments counted and
 * summed per day (and per month), customer, site, carrier, service, mode, lane, currency and transit
 * days. Written only by app/modules/insight/rollup.server.ts; migration 0037 holds the triggers
 * that mark what to recompute.
 */
const briefKey = () => ({
  day: date("day", { mode: "string" }).notNull(),
  customerId: integer("customer_id").notNull(),
  siteId: integer("site_id"),
  carrierId: integer("carrier_id"),
  serviceId: integer("service_id"),
  mode: text("mode"),
  /** of the sending site's country (AUD, NZD, USD): money is never summed across currencies */
  currency: text("currency").notNull(),
});

const laneKey = () => ({
  /** the sender's and receiver's state ('' when the address has none) */
  fromRegion: text("from_region").notNull(),
  toRegion: text("to_region").notNull(),
  /** delivered date less despatch date, null until delivered */
  transitDays: integer("transit_days"),
});

const measures = () => ({
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

/** the detailed rows' columns, in the tables' order (the lane between mode and currency) */
const rollupColumns = () => {
  const { currency, ...key } = briefKey();
  return { ...key, ...laneKey(), currency, ...measures() };
};

/** Per day (the despatch date). */
export const insightDaily = pgTable("insight_daily", rollupColumns(), (t) => [index("insight_daily_customer_day_idx").on(t.customerId, t.day), index("insight_daily_day_idx").on(t.day)]);

/** The same per month (`day` is the month's first day), summed from the daily rows of a (customer, month). */
export const insightMonthly = pgTable("insight_monthly", rollupColumns(), (t) => [
  index("insight_monthly_customer_day_idx").on(t.customerId, t.day),
  index("insight_monthly_day_idx").on(t.day),
]);

/**
 * The same without the lane (migration 0042): summed from the detailed rows of the same slice in the
 * same transaction, read by every read that needs no lane (all but the transit-days chart and a
 * lane filter's): about a twentieth of the rows.
 */
export const insightDailyBrief = pgTable("insight_daily_brief", { ...briefKey(), ...measures() }, (t) => [
  index("insight_daily_brief_customer_day_idx").on(t.customerId, t.day),
  index("insight_daily_brief_day_idx").on(t.day),
]);

export const insightMonthlyBrief = pgTable("insight_monthly_brief", { ...briefKey(), ...measures() }, (t) => [
  index("insight_monthly_brief_customer_day_idx").on(t.customerId, t.day),
  index("insight_monthly_brief_day_idx").on(t.day),
  index("insight_monthly_brief_customer_carrier_idx").on(t.customerId, t.carrierId),
]);

/**
 * Delivered consignments per day (month), customer, site, lane and transit days alone (migration
 * 0042): the transit-days chart without a carrier or service filter reads these.
 */
const transitColumns = () => {
  const { day, customerId, siteId } = briefKey();
  const { fromRegion, toRegion, transitDays } = laneKey();
  return { day, customerId, siteId, fromRegion, toRegion, transitDays, delivered: integer("delivered").notNull() };
};

export const insightDailyTransit = pgTable("insight_daily_transit", transitColumns(), (t) => [
  index("insight_daily_transit_customer_day_idx").on(t.customerId, t.day),
  index("insight_daily_transit_day_idx").on(t.day),
]);

export const insightMonthlyTransit = pgTable("insight_monthly_transit", transitColumns(), (t) => [
  index("insight_monthly_transit_customer_day_idx").on(t.customerId, t.day),
  index("insight_monthly_transit_day_idx").on(t.day),
]);

/** (customer, day) slices whose rollup rows are out of date: appended by triggers, taken by the refresher. */
export const insightDirty = pgTable("insight_dirty", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  customerId: integer("customer_id").notNull(),
  day: date("day", { mode: "string" }).notNull(),
});

const auditKey = () => ({
  invoiceId: integer("invoice_id").notNull(),
  /** the carrier invoice's date */
  day: date("day", { mode: "string" }).notNull(),
  customerId: integer("customer_id"),
  siteId: integer("site_id"),
  carrierId: integer("carrier_id"),
  serviceId: integer("service_id"),
  /** the line's sender and receiver state, upper-cased ('' when it has none) */
  fromRegion: text("from_region").notNull(),
  toRegion: text("to_region").notNull(),
});

/**
 * The invoice audit's figures per payable carrier invoice, customer, site, carrier, service and
 * lane (migration 0040), as invoices/audit.server.ts measures them: written only by
 * app/modules/insight/audit-rollup.server.ts.
 */
const auditMeasures = () => ({
  lines: integer("lines").notNull(),
  matched: integer("matched").notNull(),
  discrepancyFound: numeric("discrepancy_found", { precision: 16, scale: 2 }).notNull(),
  disputed: numeric("disputed", { precision: 16, scale: 2 }).notNull(),
  recovered: numeric("recovered", { precision: 16, scale: 2 }).notNull(),
  duplicates: integer("duplicates").notNull(),
  duplicatesAmount: numeric("duplicates_amount", { precision: 16, scale: 2 }).notNull(),
});

export const insightAudit = pgTable(
  "insight_audit",
  { ...auditKey(), ...auditMeasures() },
  (t) => [index("insight_audit_invoice_idx").on(t.invoiceId), index("insight_audit_customer_day_idx").on(t.customerId, t.day), index("insight_audit_day_idx").on(t.day)],
);

/** The overcharges the comparison did not pass per reason, on the same key. */
export const insightAuditReasons = pgTable(
  "insight_audit_reasons",
  { ...auditKey(), reason: text("reason").notNull(), lines: integer("lines").notNull(), amount: numeric("amount", { precision: 16, scale: 2 }).notNull() },
  (t) => [index("insight_audit_reasons_invoice_idx").on(t.invoiceId), index("insight_audit_reasons_customer_day_idx").on(t.customerId, t.day), index("insight_audit_reasons_day_idx").on(t.day)],
);

/** The audit's figures per invoice, customer and carrier alone (migration 0042), summed from the detailed rows: what a page without a site, service or lane filter reads. */
const auditBriefKey = () => ({ invoiceId: integer("invoice_id").notNull(), day: date("day", { mode: "string" }).notNull(), customerId: integer("customer_id"), carrierId: integer("carrier_id") });

export const insightAuditBrief = pgTable("insight_audit_brief", { ...auditBriefKey(), ...auditMeasures() }, (t) => [
  index("insight_audit_brief_invoice_idx").on(t.invoiceId),
  index("insight_audit_brief_customer_day_idx").on(t.customerId, t.day),
  index("insight_audit_brief_day_idx").on(t.day),
]);

export const insightAuditReasonsBrief = pgTable(
  "insight_audit_reasons_brief",
  { ...auditBriefKey(), reason: text("reason").notNull(), lines: integer("lines").notNull(), amount: numeric("amount", { precision: 16, scale: 2 }).notNull() },
  (t) => [
    index("insight_audit_reasons_brief_invoice_idx").on(t.invoiceId),
    index("insight_audit_reasons_brief_customer_day_idx").on(t.customerId, t.day),
    index("insight_audit_reasons_brief_day_idx").on(t.day),
  ],
);

/** Carrier invoices whose audit rows are out of date: appended by triggers, taken by the refresher. */
export const insightAuditDirty = pgTable("insight_audit_dirty", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  invoiceId: integer("invoice_id").notNull(),
});
