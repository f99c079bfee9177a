/**
 * Finance II (issue 19, decision 020): numbering of customer invoices, invoicing schedules and
 * the reconciliation report's uploads.
 */
import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uuid } from "drizzle-orm/pg-core";
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
