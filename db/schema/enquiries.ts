import { sql } from "drizzle-orm";
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { consignments } from "./consignments";
import { customers } from "./tenancy";
import { users } from "./users";

/** An enquiry's status (spec 1 issue 15): customer service moves it open -> pending -> solved. */
export const TICKET_STATUSES = ["open", "pending", "solved"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** Enquiry types (spec 1 "Enquiry type: name"), a staff-managed list per customer. */
export const ticketCategories = pgTable(
  "ticket_categories",
  {
    id: serial("id").primaryKey(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    position: integer("position").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // one type of a name per customer (case aside); also the customer's list in order
    uniqueIndex("ticket_categories_customer_name_idx").on(t.customerId, sql`lower(${t.name})`),
  ],
);

/** An enquiry (support ticket) about a consignment or about nothing in particular. */
export const tickets = pgTable(
  "tickets",
  {
    id: serial("id").primaryKey(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    consignmentId: integer("consignment_id").references(() => consignments.id, { onDelete: "set null" }),
    categoryId: integer("category_id").references(() => ticketCategories.id, { onDelete: "set null" }),
    /** the enquiry type's name when raised (spec 1 support_request), kept if the type is renamed or removed */
    supportRequest: text("support_request"),
    fullName: text("full_name").notNull(),
    email: text("email").notNull(),
    phone: text("phone"),
    subject: text("subject").notNull(),
    description: text("description"),
    status: text("status", { enum: TICKET_STATUSES }).notNull().default("open"),
    country: text("country"),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // /enquiries: a customer's enquiries, newest first
    index("tickets_customer_created_idx").on(t.customerId, t.createdAt),
    // /consignment/{id}/enquiries, the latest 3 on the consignment screen and has_tickets
    index("tickets_consignment_created_idx").on(t.consignmentId, t.createdAt),
  ],
);

/** An enquiry's audit trail: each comment with its author and time. */
export const ticketComments = pgTable(
  "ticket_comments",
  {
    id: serial("id").primaryKey(),
    ticketId: integer("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    authorId: integer("author_id").references(() => users.id, { onDelete: "set null" }),
    /** the author's name when written, so the trail reads the same after a user is removed */
    authorName: text("author_name").notNull(),
    comment: text("comment").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // an enquiry's trail in order
    index("ticket_comments_ticket_idx").on(t.ticketId, t.createdAt),
  ],
);
