/**
 * Finance II (issue 19, decision 020): the reconciliation of an allocated carrier invoice line
 * against what the product rated for its consignment, and the notes people leave on it.
 */
import { sql } from "drizzle-orm";
import { bigserial, boolean, check, customType, index, integer, jsonb, numeric, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { consignments } from "./consignments";
import { carriers } from "./carriers";
import { invoiceDetails } from "./finance";
import { customers } from "./tenancy";
import { users } from "./users";

/** Text compared byte by byte, so a btree index serves both its order and a LIKE 'prefix%'. */
const byteText = customType<{ data: string }>({ dataType: () => 'text COLLATE "C"' });

/**
 * One per invoice line (unique): the comparison by category as it was last worked out, the state
 * (reconciling, disputed, reconciled) and the reasons. Money is stored in dollars with 2 decimals;
 * the comparison itself works in cents (app/modules/reconciliation/compare.ts). `version` is
 * raised by every save, for the detail screen's optimistic locking ('Unable to save. {message}').
 */
export const reconciliations = pgTable(
  "reconciliations",
  {
    id: serial("id").primaryKey(),
    invoiceDetailId: integer("invoice_detail_id")
      .notNull()
      .references(() => invoiceDetails.id, { onDelete: "cascade" }),
    consignmentId: integer("consignment_id").references(() => consignments.id, { onDelete: "set null" }),
    customerId: integer("customer_id").references(() => customers.id),
    carrierId: integer("carrier_id").references(() => carriers.id),
    state: text("state", { enum: ["reconciling", "disputed", "reconciled"] }).notNull().default("reconciling"),
    /** duplicate, zone, incorrect_rate, failed_to_rate, buy_rate_missing, service, surcharge, check_wt_vol */
    reasonCategories: text("reason_categories").array().notNull().default(sql`'{}'::text[]`),
    ratedBuy: numeric("rated_buy", { precision: 12, scale: 2 }).notNull().default("0"),
    ratedSell: numeric("rated_sell", { precision: 12, scale: 2 }).notNull().default("0"),
    invoiced: numeric("invoiced", { precision: 12, scale: 2 }).notNull().default("0"),
    discrepancyAmount: numeric("discrepancy_amount", { precision: 12, scale: 2 }).notNull().default("0"),
    margin: numeric("margin", { precision: 12, scale: 2 }).notNull().default("0"),
    marginPercent: numeric("margin_percent", { precision: 8, scale: 2 }),
    /** per category: { category, rated, invoiced, difference } in cents, as compared */
    categories: jsonb("categories").$type<Array<{ category: string; rated: number; invoiced: number; difference: number }>>().notNull().default([]),
    /** the invoice's charge weight, zones or service differ from the rating: re-rate with them */
    rerateRequired: boolean("rerate_required").notNull().default(false),
    /** loading, rerate_error, rerated, rerate_not_required */
    rerateStatus: text("rerate_status"),
    /** what the re-rate with the invoice's weight, zones and service gave (a RatingDetail), or null */
    rerateDetail: jsonb("rerate_detail").$type<Record<string, unknown>>(),
    /** why the re-rate failed ('Must have weight', 'Invalid sender locality', ...) */
    rerateError: text("rerate_error"),
    /**
     * reconciliation_options.charge_from_consignment: the customer is charged the consignment's
     * rated sell (true) or the invoice's costs with the consignment's markups (false).
     */
    chargeFromConsignment: boolean("charge_from_consignment").notNull().default(true),
    /** the sell view's preview of the Charge From choice, saved without a note */
    preview: jsonb("preview").$type<Record<string, unknown>>(),
    /** the line of the customer's (receivable) invoice this was invoiced on */
    customerInvoiceDetailId: integer("customer_invoice_detail_id").references(() => invoiceDetails.id, { onDelete: "set null" }),
    version: integer("version").notNull().default(1),
    /**
     * The list's filter and sort keys, copied from the invoice line and its invoice by triggers
     * (migration 0023) so that every filter and sort of the list reads this table's indexes alone
     * at a million rows; text upper-cased, as the list filters it. Nothing writes them but the triggers.
     */
    invoiceId: integer("invoice_id"),
    consignmentKey: byteText("consignment_key"),
    invoiceNumberKey: byteText("invoice_number_key"),
    fromZoneKey: byteText("from_zone_key"),
    toZoneKey: byteText("to_zone_key"),
    chargeWeight: numeric("charge_weight", { precision: 12, scale: 3 }),
    reconciledAt: timestamp("reconciled_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("reconciliations_detail_idx").on(t.invoiceDetailId),
    // the reconciliations list (app/modules/reconciliation/list.server.ts): a tab's page newest
    // first, and sorted by margin or discrepancy, read from the index without sorting the tab
    index("reconciliations_state_id_idx").on(t.state, t.id),
    // the columns after the unique id change no order: they let a customer's or a carrier's
    // count, and the tab's margin and discrepancy totals, be read from the index alone (0023)
    index("reconciliations_state_margin_idx").on(t.state, t.margin, t.id, t.customerId, t.carrierId, t.discrepancyAmount),
    index("reconciliations_state_discrepancy_idx").on(t.state, t.discrepancyAmount, t.id, t.customerId, t.carrierId, t.margin),
    // the list for one customer (a customer's finance user, or the customer filter) and one carrier
    index("reconciliations_customer_state_idx").on(t.customerId, t.state, t.id),
    index("reconciliations_carrier_state_idx").on(t.carrierId, t.state, t.id),
    // the list's filters and sorts on the invoice line's columns, per tab
    index("reconciliations_state_consignment_idx").on(t.state, t.consignmentKey, t.id, t.customerId, t.carrierId, t.margin, t.discrepancyAmount),
    index("reconciliations_state_invoice_number_idx").on(t.state, t.invoiceNumberKey, t.id, t.customerId, t.carrierId, t.margin, t.discrepancyAmount),
    index("reconciliations_state_from_zone_idx").on(t.state, t.fromZoneKey, t.id, t.customerId, t.carrierId, t.margin, t.discrepancyAmount),
    index("reconciliations_state_to_zone_idx").on(t.state, t.toZoneKey, t.id, t.customerId, t.carrierId, t.margin, t.discrepancyAmount),
    index("reconciliations_state_weight_idx").on(t.state, t.chargeWeight, t.id, t.customerId, t.carrierId, t.margin, t.discrepancyAmount),
    index("reconciliations_invoice_state_idx").on(t.invoiceId, t.state, t.id),
    // the list's reasons filter: any of the chosen reasons (&&)
    index("reconciliations_reasons_idx").using("gin", t.reasonCategories),
    check("reconciliations_reasons_known", sql`${t.reasonCategories} <@ array['duplicate','zone','incorrect_rate','failed_to_rate','buy_rate_missing','service','surcharge','check_wt_vol']::text[]`),
  ],
);

/** A note on a reconciliation, with its author and time (spec 3: max 255 characters). */
export const reconciliationNotes = pgTable(
  "reconciliation_notes",
  {
    id: serial("id").primaryKey(),
    reconciliationId: integer("reconciliation_id")
      .notNull()
      .references(() => reconciliations.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    text: text("text").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("reconciliation_notes_reconciliation_idx").on(t.reconciliationId)],
);

/**
 * The reconciliations list's tab counts and totals per customer, carrier and reasons as a ledger: statement
 * triggers on reconciliations (migration 0023) append what each statement added or took away, so
 * the counts never need a scan of a million rows. Append-only, so writers never wait on one
 * another's counter rows; compact_reconciliation_tallies() (the nightly cleanup) folds it up.
 */
export const reconciliationTallies = pgTable(
  "reconciliation_tallies",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    customerId: integer("customer_id"),
    carrierId: integer("carrier_id"),
    state: text("state").notNull(),
    /** the lines' reasons as they hold them: the reasons filter (any of) sums the sets it meets */
    reasons: text("reasons").array().notNull().default(sql`'{}'::text[]`),
    lines: integer("lines").notNull(),
    margin: numeric("margin", { precision: 16, scale: 2 }).notNull(),
    discrepancy: numeric("discrepancy", { precision: 16, scale: 2 }).notNull(),
  },
  (t) => [index("reconciliation_tallies_customer_idx").on(t.customerId, t.carrierId)],
);
