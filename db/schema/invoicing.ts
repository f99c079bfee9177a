/**
 * Finance II (issue 19, decision 020): numbering of customer invoices, invoicing schedules and
 * the reconciliation report's uploads.
 */
import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { invoiceDetails } from "./finance";
import { jobs } from "./jobs";
import { users } from "./users";

/**
 * Gapless numbering: the next number is taken with UPDATE ... RETURNING inside the invoicing
 * transaction, so a rolled-back run gives its numbers back and two runs queue on the row lock.
 */
export const invoiceNumberSequences = pgTable("invoice_number_sequences", {
  name: text("name").primaryKey(),
  lastValue: integer("last_value").notNull().default(0),
});

/**
 * A planned invoicing run (spec 3: period ONCE or WEEKLY, options.invoice_detail_ids,
 * invoicing_options day, hour, time_zone, next_run_at). The runner claims a due schedule by moving
 * next_run_at on with a compare-and-set, so each run happens at most once.
 */
export const invoicingSchedules = pgTable(
  "invoicing_schedules",
  {
    id: serial("id").primaryKey(),
    period: text("period", { enum: ["ONCE", "WEEKLY"] }).notNull(),
    /** Monday..Sunday */
    day: text("day"),
    /** HH:MM in 30-minute steps, on the zone's wall clock */
    hour: text("hour").notNull(),
    timeZone: text("time_zone").notNull(),
    /** ONCE from the date picker: the local date (YYYY-MM-DD) */
    runDate: text("run_date"),
    invoiceDetailIds: integer("invoice_detail_ids").array().notNull(),
    nextRunAt: timestamp("next_run_at", { withTimezone: true }),
    lastRunAt: timestamp("last_run_at", { withTimezone: true }),
    lastJobId: uuid("last_job_id").references(() => jobs.id, { onDelete: "set null" }),
    createdById: integer("created_by_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("invoicing_schedules_next_run_idx").on(t.nextRunAt)],
);

/** An upload to the reconciliation report (POST /api/old_reconciliations) and its result file. */
export const reconciliationReports = pgTable("reconciliation_reports", {
  id: serial("id").primaryKey(),
  userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
  fileName: text("file_name").notNull(),
  rerate: boolean("rerate").notNull().default(false),
  thresholdAmount: text("threshold_amount"),
  thresholdPercentage: text("threshold_percentage"),
  /** counts of the result: { lines, within, outside, skipped } */
  summary: jsonb("summary").$type<Record<string, number>>(),
  resultPath: text("result_path"),
  jobId: uuid("job_id").references(() => jobs.id, { onDelete: "set null" }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * What has been billed to customers (issue 29 finding 1, decision 021): one row per consignment
 * and cost category a receivable line charges. Unique over the rows that are not rebills, so a
 * consignment's charge of a category is billed once however many carrier lines (a carrier's
 * duplicate invoice) or concurrent invoicing runs ask for it; a rebill is an invoice admin's
 * explicit choice, with its note and author kept here.
 */
export const billedCharges = pgTable(
  "billed_charges",
  {
    id: serial("id").primaryKey(),
    /** 'c{consignment id}', or for a line matched to no consignment 'n{carrier id}:{CONSIGNMENT NUMBER}' */
    consignmentKey: text("consignment_key").notNull(),
    category: text("category").notNull(),
    /** the receivable line that bills it; deleting the customer invoice frees the charge */
    invoiceDetailId: integer("invoice_detail_id")
      .notNull()
      .references(() => invoiceDetails.id, { onDelete: "cascade" }),
    rebill: boolean("rebill").notNull().default(false),
    note: text("note"),
    createdById: integer("created_by_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("billed_charges_once_key").on(t.consignmentKey, t.category).where(sql`not rebill`),
    index("billed_charges_detail_idx").on(t.invoiceDetailId),
  ],
);
