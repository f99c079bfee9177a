import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { customers, sites } from "./tenancy";

export const ROLES = ["despatcher", "admin", "super_admin", "customer_service", "devs"] as const;
export type RoleName = (typeof ROLES)[number];

/** user_options of spec 1 and 3: the remembered choices of one user. */
export type UserOptions = {
  view?: "DESPATCHER" | "FINANCE";
  consignment_date_filter?: string;
  consignment_site_filter?: string;
  print_button?: string;
  quote_button?: "new_quote" | "return_quote" | "thirdparty_quote" | "quick_quote";
  invoice_details_per_page?: number;
  reconciliation_per_page?: number;
  windows_username?: string;
  /** the user's printer configuration: a printer id for each kind */
  printers?: { label?: number; manifest?: number; connote?: number };
};

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    /** staff switch customer; null means their own customer */
    currentCustomerId: integer("current_customer_id").references(() => customers.id),
    email: text("email").notNull(),
    fullName: text("full_name").notNull(),
    phoneNumber: text("phone_number"),
    role: text("role", { enum: ROLES }).notNull().default("despatcher"),
    superDespatcher: boolean("super_despatcher").notNull().default(false),
    despatcherOnly: boolean("despatcher_only").notNull().default(false),
    passwordHash: text("password_hash").notNull(),
    passwordResetRequired: boolean("password_reset_required").notNull().default(false),
    authenticationToken: text("authentication_token"),
    uuid: text("uuid").notNull().default(sql`gen_random_uuid()::text`),
    zendeskId: text("zendesk_id"),
    /** set when failed sign-ins lock the account; the lock lasts LOCK_MINUTES (app/modules/auth/limits.ts) */
    lockedAt: timestamp("locked_at", { withTimezone: true }),
    /** failed sign-ins since the last successful one or the last lock's end */
    failedSignIns: integer("failed_sign_ins").notNull().default(0),
    disabled: boolean("disabled").notNull().default(false),
    canBook: boolean("can_book").notNull().default(false),
    canEditRecipients: boolean("can_edit_recipients").notNull().default(false),
    canExport: boolean("can_export").notNull().default(false),
    canReconcile: boolean("can_reconcile").notNull().default(false),
    canBulkupload: boolean("can_bulkupload").notNull().default(false),
    canBulkquote: boolean("can_bulkquote").notNull().default(false),
    /** may post carriers' tracking events (POST /api/tracking_events) for the customer's consignments; staff always may */
    canPostTrackingEvents: boolean("can_post_tracking_events").notNull().default(false),
    defaultSiteId: integer("default_site_id").references(() => sites.id),
    /** the user's own time zone and date format (decision 032); null inherits (default site, customer country, provider) */
    timezone: text("timezone"),
    dateFormat: text("date_format", { enum: ["DD/MM/YYYY", "MM/DD/YYYY"] }),
    options: jsonb("options").$type<UserOptions>().notNull().default({}),
    lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // sign-in looks a user up by e-mail, case-insensitively
    uniqueIndex("users_email_key").on(sql`lower(${t.email})`),
    // scripted callers authenticate with Authorization: Bearer <authentication_token>
    uniqueIndex("users_authentication_token_key").on(t.authenticationToken),
    // users list of a customer
    index("users_customer_idx").on(t.customerId),
    check("users_date_format_known", sql`${t.dateFormat} is null or ${t.dateFormat} in ('DD/MM/YYYY', 'MM/DD/YYYY')`),
  ],
);

/** The sites a despatcher may send from; staff roles have none (they see every site of the customer). */
export const userSites = pgTable(
  "user_sites",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.siteId] })],
);

/** Server-side sessions: the cookie holds a random token, the row holds its SHA-256. */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    rememberMe: boolean("remember_me").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ip: text("ip"),
    userAgent: text("user_agent"),
  },
  (t) => [
    // "end every session of this user" when a user is disabled or changes password
    index("sessions_user_idx").on(t.userId),
    // the cleanup job deletes expired sessions
    index("sessions_expires_idx").on(t.expiresAt),
  ],
);

export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // the cleanup job deletes expired tokens
    index("password_reset_tokens_expires_idx").on(t.expiresAt),
  ],
);

/** One row per sign-in attempt, kept 90 days for security review, then removed by the cleanup job. */
/** Attempts per client address in a window (the limiters' store, app/modules/auth/sign-in-counts.server.ts). */
const attemptCountsTable = (name: string) =>
  pgTable(name, {
    key: text("key").primaryKey(),
    hits: integer("hits").notNull(),
    resetAt: timestamp("reset_at", { withTimezone: true }).notNull(),
  });
/** Either table of counts: the same columns, so one store serves both. */
export type AttemptCountsTable = ReturnType<typeof attemptCountsTable>;

/**
 * Failed sign-in attempts per client address in the current window (server/sign-in-limits.ts),
 * in the database so that every web process counts toward one limit.
 */
export const signInAttemptCounts = attemptCountsTable("sign_in_attempt_counts");

/**
 * Public tracking links that opened nothing, per client address in the current window
 * (server/tracking-limits.ts), shared by every web process and host as the sign-in counts are.
 */
export const trackingGuessCounts = attemptCountsTable("tracking_guess_counts");

export const signInAudits = pgTable(
  "sign_in_audits",
  {
    id: serial("id").primaryKey(),
    email: text("email").notNull(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    success: boolean("success").notNull(),
    reason: text("reason"),
    ip: text("ip"),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // the cleanup job deletes audits older than the retention period
    index("sign_in_audits_at_idx").on(t.at),
  ],
);
