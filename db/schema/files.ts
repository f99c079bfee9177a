import { sql } from "drizzle-orm";
import { bigint, check, customType, index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { customers } from "./tenancy";

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

export const FILE_KINDS = [
  "carrier_invoice",
  "invoice_sample",
  "customer_invoice_pdf",
  "export",
  "bulk_upload",
  "recipients_upload",
  "reconciliation_upload",
  "reconciliation_result",
] as const;
export type FileKind = (typeof FILE_KINDS)[number];

/** Where a file's bytes are (docs/decisions/037): 'db' in file_chunks, 's3' an object in the bucket. */
export const FILE_STORAGES = ["db", "s3"] as const;
export type FileStorage = (typeof FILE_STORAGES)[number];

/** One stored file (docs/decisions/030): its metadata; the bytes are in file_chunks (or an S3 bucket). */
export const files = pgTable(
  "files",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind", { enum: FILE_KINDS }).notNull(),
    name: text("name").notNull(),
    contentType: text("content_type").notNull(),
    /** final once written; 0 and '' while the bytes stream in */
    size: bigint("size", { mode: "number" }).notNull().default(0),
    sha256: text("sha256").notNull().default(""),
    /** the owner's scope; null for staff-only files (a carrier's invoice holds every customer's lines) */
    customerId: integer("customer_id").references(() => customers.id, { onDelete: "set null" }),
    /** where the bytes are: 'db' (file_chunks) or 's3'; per file, so a switch of FILE_STORE strands none */
    storage: text("storage", { enum: FILE_STORAGES }).notNull().default("db"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** null: kept; else removed by the nightly cleanup after this (a file still being written has one too) */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
  },
  (t) => [
    // the nightly cleanup's search for expired files
    index("files_expires_idx").on(t.expiresAt).where(sql`expires_at is not null`),
    check("files_storage_known", sql`${t.storage} in ('db', 's3')`),
  ],
);

/** A file's bytes in order, one row per chunk (~512 KB) so reading and writing stream. */
export const fileChunks = pgTable(
  "file_chunks",
  {
    fileId: uuid("file_id")
      .notNull()
      .references(() => files.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    bytes: bytea("bytes").notNull(),
  },
  // the primary key serves the read of chunk n of a file
  (t) => [primaryKey({ columns: [t.fileId, t.seq] })],
);

/**
 * S3 objects whose rows are gone, listed by a trigger on `files` (migration 0031) in the deleting
 * transaction, until the store's sweep has deleted them from the bucket.
 */
export const fileObjectsGone = pgTable("file_objects_gone", {
  fileId: uuid("file_id").primaryKey(),
  deletedAt: timestamp("deleted_at", { withTimezone: true }).notNull().defaultNow(),
});
