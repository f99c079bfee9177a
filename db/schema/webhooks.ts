import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, check, index, integer, jsonb, pgTable, serial, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { customers } from "./tenancy";
import { users } from "./users";

/**
 * A customer's webhook receiver (issue 34 item 1, docs/decisions/039): the events it wants, its
 * signing secret (`whsec_` + base64, shown once), and whether deliveries go to it. A paused
 * endpoint keeps its undelivered deliveries; they go when it is made active again.
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: serial("id").primaryKey(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    events: text("events").array().notNull(),
    secret: text("secret").notNull(),
    active: boolean("active").notNull().default(true),
    /** why it was paused (the retry window ran out), or null */
    pausedReason: text("paused_reason"),
    pausedAt: timestamp("paused_at", { withTimezone: true }),
    /** who is told when it is paused: made by staff, the provider's admins; else the customer's */
    createdByStaff: boolean("created_by_staff").notNull().default(false),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("webhook_endpoints_customer_idx").on(t.customerId)],
);

export const WEBHOOK_DELIVERY_STATES = ["pending", "sending", "succeeded", "failed"] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

/**
 * One event for one endpoint: the deliveries table is its own queue (claimed with a lease), in
 * id order per endpoint and consignment. 'failed' is given up after the retry window.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    endpointId: integer("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    customerId: integer("customer_id").notNull(),
    /** the event's id (the webhook-id header): the same for a replay, so receivers may drop repeats */
    eventId: uuid("event_id").notNull(),
    type: text("type").notNull(),
    /** the body as sent: { id, type, timestamp, data } */
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    /** deliveries of one consignment to one endpoint go in id order */
    consignmentId: integer("consignment_id"),
    state: text("state", { enum: WEBHOOK_DELIVERY_STATES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull(),
    /** a 'sending' claim's lease: past it, the sender is taken for dead and the delivery is due again */
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    /** when the retry window (24 hours) began: the first attempt, or a replay */
    windowStartedAt: timestamp("window_started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    check("webhook_deliveries_state_check", sql`${t.state} in ('pending', 'sending', 'succeeded', 'failed')`),
    // the dispatcher's search for due deliveries
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`${t.state} in ('pending', 'sending')`),
    // the claim reads each endpoint's oldest unfinished deliveries (dispatcher.server.ts claimDue),
    // and the list screen counts them: neither walks past the finished ones
    index("webhook_deliveries_endpoint_unfinished_idx").on(t.endpointId, t.id).where(sql`${t.state} in ('pending', 'sending')`),
    // the ordering check (an earlier unfinished delivery of the same consignment and endpoint) and the log
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.consignmentId, t.id),
  ],
);

/** Each try of a delivery: what the receiver answered (first KB) or why it was not reached. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    deliveryId: bigint("delivery_id", { mode: "number" })
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    status: integer("status"),
    durationMs: integer("duration_ms").notNull(),
    error: text("error"),
    response: text("response"),
    at: timestamp("at", { withTimezone: true }).notNull(),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId)],
);
