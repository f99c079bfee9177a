import { boolean, customType, index, integer, pgTable, serial, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { consignments } from "./consignments";
import { customers } from "./tenancy";
import { trackingEvents } from "./tracking";
import { users } from "./users";

/** The consignment states a notification may be sent on (spec 2 section 7). */
export const NOTIFICATION_TRIGGER_STATES = ["despatched", "picked_up", "in_transit", "on_board_for_delivery", "delivered", "delivered_with_pod"] as const;
export type NotificationTriggerState = (typeof NOTIFICATION_TRIGGER_STATES)[number];

/** Which receiver field a type's message goes to: an e-mail through the mailer, an SMS through the SMS adapter. */
export const NOTIFICATION_FIELDS = ["email", "phone"] as const;
export type NotificationField = (typeof NOTIFICATION_FIELDS)[number];

/** Where a config hangs: a customer's default, a site's, or a carrier account's (most specific wins). */
export const NOTIFICATION_PARENTS = ["customer", "site", "account"] as const;
export type NotificationParent = (typeof NOTIFICATION_PARENTS)[number];

/**
 * A kind of notification (spec 2 "Notification type": name, max_length, field_name), kept by super
 * admins: "Email", "SMS" (field phone, 160 characters).
 */
export const notificationTypes = pgTable("notification_types", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique(),
  /** the longest message the channel takes (an SMS's 160); null: no limit */
  maxLength: integer("max_length"),
  fieldName: text("field_name", { enum: NOTIFICATION_FIELDS }).notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A notification template and when it is sent (spec 2 "Notification config"): for one type and
 * trigger state, at a customer, one of its sites or one carrier account. `template` is sanitised
 * HTML with the dynamic tags of spec 2 section 9; it is checked when saved, never when sending.
 */
export const notificationConfigs = pgTable(
  "notification_configs",
  {
    id: serial("id").primaryKey(),
    /** the tenant: every parent belongs to one customer */
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    parentType: text("parent_type", { enum: NOTIFICATION_PARENTS }).notNull(),
    parentId: integer("parent_id").notNull(),
    notificationTypeId: integer("notification_type_id")
      .notNull()
      .references(() => notificationTypes.id),
    consignmentState: text("consignment_state", { enum: NOTIFICATION_TRIGGER_STATES }).notNull(),
    enabled: boolean("enabled").notNull().default(true),
    template: text("template").notNull(),
    updatedBy: integer("updated_by").references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // one template per parent, type and state; resolving reads a customer's configs of one state
    uniqueIndex("notification_configs_parent_key").on(t.parentType, t.parentId, t.notificationTypeId, t.consignmentState),
    index("notification_configs_customer_state_idx").on(t.customerId, t.consignmentState),
  ],
);

/**
 * Every notification sent (or refused) for a consignment: `dedupeKey` (consignment, config, state,
 * and the event when every tracking update is sent) is unique, so a replay, a retried job or two
 * workers never send the same notification twice.
 */
export const notificationDeliveries = pgTable(
  "notification_deliveries",
  {
    id: serial("id").primaryKey(),
    consignmentId: integer("consignment_id")
      .notNull()
      .references(() => consignments.id, { onDelete: "cascade" }),
    notificationConfigId: integer("notification_config_id").references(() => notificationConfigs.id, { onDelete: "set null" }),
    trackingEventId: integer("tracking_event_id").references(() => trackingEvents.id, { onDelete: "set null" }),
    consignmentState: text("consignment_state").notNull(),
    dedupeKey: text("dedupe_key").notNull().unique(),
    channel: text("channel", { enum: NOTIFICATION_FIELDS }).notNull(),
    recipient: text("recipient"),
    /** sent; skipped (no e-mail or phone on the receiver); failed (the mailer or gateway refused: detail says why) */
    status: text("status", { enum: ["sent", "skipped", "failed"] }).notNull(),
    detail: text("detail"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("notification_deliveries_consignment_idx").on(t.consignmentId)],
);

/** Text messages the SMS adapter kept because no gateway is configured (the SMS twin of mail_messages). */
export const smsMessages = pgTable(
  "sms_messages",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    to: text("to").notNull(),
    body: text("body").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("sms_messages_to_idx").on(t.to, t.createdAt)],
);

const bytea = customType<{ data: Buffer }>({ dataType: () => "bytea" });

/**
 * Images placed in notification templates (POST /api/notifications_media_upload). Mail clients
 * fetch them without a session, so each is served at an unguessable address.
 */
export const notificationMedia = pgTable("notification_media", {
  id: uuid("id").primaryKey().defaultRandom(),
  customerId: integer("customer_id")
    .notNull()
    .references(() => customers.id, { onDelete: "cascade" }),
  contentType: text("content_type").notNull(),
  bytes: bytea("bytes").notNull(),
  createdBy: integer("created_by").references(() => users.id),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
