import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { customers } from "./tenancy";
import { users } from "./users";

export const JOB_STATUSES = ["queued", "working", "complete", "failed"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** What a user sees of a background job (spec 3 "Job status"); pg-boss holds the queue itself. */
export const jobs = pgTable(
  "jobs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    customerId: integer("customer_id").references(() => customers.id),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    status: text("status", { enum: JOB_STATUSES }).notNull().default("queued"),
    pctComplete: integer("pct_complete").notNull().default(0),
    message: text("message"),
    errors: jsonb("errors").$type<string[]>().notNull().default([]),
    info: jsonb("info").$type<Record<string, unknown>>().notNull().default({}),
    /** a caller-chosen key: enqueueing the same key twice returns the first job */
    singletonKey: text("singleton_key"),
    /** what the job was asked to do, so another worker can resume it (docs/decisions/008) */
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    /** the sites the job's subject belongs to (a despatch: its consignments'); null for customer-wide jobs */
    siteIds: integer("site_ids").array(),
    /** the worker process running it, and when it last said it was alive (docs/decisions/008) */
    workerId: text("worker_id"),
    heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }),
    /** how many runs have started: a job whose runs keep dying is given up after a bound */
    attempts: integer("attempts").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // a user's recent jobs
    index("jobs_user_idx").on(t.userId, t.createdAt),
    // the sweeper's search for working jobs whose worker stopped
    index("jobs_working_heartbeat_idx").on(t.heartbeatAt).where(sql`status = 'working'`),
  ],
);

/** Stored e-mail: every message when no SMTP_URL is configured (readable by staff, and by tests). */
export const mailMessages = pgTable(
  "mail_messages",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html"),
    /** attached files (return labels and manifests), kept so the mailbox shows what was sent */
    attachments: jsonb("attachments").$type<{ filename: string; content_type: string; content_base64: string }[]>().notNull().default([]),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // mailbox page and tests read a recipient's newest messages
    index("mail_messages_to_idx").on(t.to, t.createdAt),
  ],
);
