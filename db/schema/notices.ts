import { boolean, index, integer, pgTable, primaryKey, serial, text, timestamp } from "drizzle-orm/pg-core";
import { customers } from "./tenancy";
import { users } from "./users";

/** A notice written by staff for a customer's users; its HTML is sanitised before it is stored. */
export const notices = pgTable(
  "notices",
  {
    id: serial("id").primaryKey(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    header: text("header").notNull(),
    content: text("content").notNull(),
    publishAt: timestamp("publish_at", { withTimezone: true }).notNull().defaultNow(),
    published: boolean("published").notNull().default(false),
    createdBy: integer("created_by").references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // published notices of a customer, newest first
    index("notices_customer_publish_idx").on(t.customerId, t.publishAt),
  ],
);

/** Per user state of a published notice: seen, or removed from their list. */
export const noticeReceipts = pgTable(
  "notice_receipts",
  {
    noticeId: integer("notice_id")
      .notNull()
      .references(() => notices.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    seen: boolean("seen").notNull().default(false),
    deleted: boolean("deleted").notNull().default(false),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.noticeId, t.userId] }),
    // unseen count for the bell: a user's receipts
    index("notice_receipts_user_idx").on(t.userId, t.seen),
  ],
);
