import { sql } from "drizzle-orm";
import { check, customType, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { customers } from "./tenancy";
import { users } from "./users";

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

/** The answer headers a replay gives again; the others belong to the first answer only (cookies, dates). */
export type StoredHeaders = { "content-type"?: string; location?: string };

/**
 * The first answer to an /api POST that carried an Idempotency-Key (docs/decisions/038), kept for
 * 24 hours so a retry with the same key gets it again. A row is 'in_flight' from the claim until
 * the answer is stored; an answer of 500 or more removes it, so a retry runs the call again.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** the customer the user worked in: a staff user's key in one customer is not theirs in another */
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /** SHA-256 of the method, path and query, media type and body bytes (request-hash.ts) */
    requestHash: text("request_hash").notNull(),
    state: text("state", { enum: ["in_flight", "done"] }).notNull().default("in_flight"),
    status: integer("status"),
    headers: jsonb("headers").$type<StoredHeaders>(),
    body: bytea("body"),
    /** when the key was claimed (by the app's clock, which tests control): expires 24 hours on */
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    // one claim per caller and key: the second of two concurrent inserts finds the first's row
    primaryKey({ columns: [t.userId, t.customerId, t.key] }),
    check("idempotency_keys_state_check", sql`${t.state} in ('in_flight', 'done')`),
    // the nightly cleanup's search for expired keys
    index("idempotency_keys_created_at_idx").on(t.createdAt),
  ],
);
