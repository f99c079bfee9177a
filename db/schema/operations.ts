import { sql } from "drizzle-orm";
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { carriers, services } from "./carriers";
import { consignments } from "./consignments";
import { files } from "./files";
import { jobs } from "./jobs";
import { customers, sites } from "./tenancy";
import { users } from "./users";

/**
 * One bulk upload file (spec 2 "Bulk upload"). The same file (by SHA-256 of its bytes) for the same
 * customer and kind is taken once: the unique index answers the second upload with the first.
 */
export const bulkUploads = pgTable(
  "bulk_uploads",
  {
    id: serial("id").primaryKey(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    kind: text("kind", { enum: ["consignment", "quote", "redespatch"] }).notNull(),
    fileName: text("file_name").notNull(),
    /** hex SHA-256 of the uploaded bytes */
    fingerprint: text("fingerprint").notNull(),
    jobId: uuid("job_id").references(() => jobs.id, { onDelete: "set null" }),
    /** the uploaded file while it waits for its job (the file store); null once the job is done */
    fileId: uuid("file_id").references(() => files.id, { onDelete: "set null" }),
    /** lines read, consignments created, lines skipped */
    totalLines: integer("total_lines").notNull().default(0),
    created: integer("created").notNull().default(0),
    skipped: integer("skipped").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // the idempotency of an upload: one row per customer, kind and file content
    uniqueIndex("bulk_uploads_customer_kind_fingerprint_key").on(t.customerId, t.kind, t.fingerprint),
    // a removed file finds the upload that pointed at it
    index("bulk_uploads_file_idx").on(t.fileId).where(sql`file_id is not null`),
  ],
);

/**
 * A pickup booked with a carrier for a site's despatched consignments of one service (spec 2
 * "Booking"). States: pending (sent, no answer yet), booked, failed (may be rebooked),
 * failed_permanently (shown "Failed").
 */
export const bookings = pgTable(
  "bookings",
  {
    id: serial("id").primaryKey(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id),
    carrierId: integer("carrier_id")
      .notNull()
      .references(() => carriers.id),
    serviceId: integer("service_id").references(() => services.id),
    bookingNumber: text("booking_number"),
    state: text("state", { enum: ["pending", "booked", "failed", "failed_permanently"] })
      .notNull()
      .default("pending"),
    /** the pickup day (site's local date) */
    bookingDate: date("booking_date", { mode: "string" }).notNull(),
    /** pickup ready and closing times, HH:MM in the site's time zone, 15-minute steps */
    readyAt: text("ready_at").notNull(),
    closingAt: text("closing_at").notNull(),
    totalConsignments: integer("total_consignments").notNull().default(0),
    totalItems: integer("total_items").notNull().default(0),
    totalWeight: numeric("total_weight", { precision: 14, scale: 3 }).notNull().default("0"),
    totalVolume: numeric("total_volume", { precision: 14, scale: 4 }).notNull().default("0"),
    hazardousGoods: boolean("hazardous_goods").notNull().default(false),
    /** items booked without a consignment: quantity, type, length, width, height, weight_in_uom, DG fields */
    additionalItems: jsonb("additional_items").$type<Record<string, unknown>[]>().notNull().default([]),
    specialRequirements: text("special_requirements"),
    bookingError: text("booking_error"),
    attempts: integer("attempts").notNull().default(0),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // bookings list: a customer's bookings by date, optionally one site
    index("bookings_customer_date_idx").on(t.customerId, t.bookingDate, t.id),
  ],
);

/** The consignments a booking picks up; a consignment is in one booking at most. */
export const bookingConsignments = pgTable(
  "booking_consignments",
  {
    bookingId: integer("booking_id")
      .notNull()
      .references(() => bookings.id, { onDelete: "cascade" }),
    consignmentId: integer("consignment_id")
      .notNull()
      .references(() => consignments.id),
  },
  (t) => [
    primaryKey({ columns: [t.bookingId, t.consignmentId] }),
    // "consignments to book" excludes those already booked; also stops booking one twice
    uniqueIndex("booking_consignments_consignment_key").on(t.consignmentId),
  ],
);

/** Per-row reference of a consignment made by bulk upload: the same rows never make it twice. */
export const bulkUploadReferences = pgTable(
  "bulk_upload_references",
  {
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    /** hex SHA-256 of the consignment's normalised rows (kind included) */
    reference: text("reference").notNull(),
    consignmentId: integer("consignment_id")
      .notNull()
      .references(() => consignments.id, { onDelete: "cascade" }),
    bulkUploadId: integer("bulk_upload_id").references(() => bulkUploads.id, { onDelete: "set null" }),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.reference] }),
    index("bulk_upload_references_consignment_idx").on(t.consignmentId),
  ],
);
