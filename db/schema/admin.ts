import { customType, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { carrierAccounts, carriers, itemTypes } from "./carriers";
import { customers } from "./tenancy";
import { users } from "./users";

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

/** Notes on a carrier account, each with its author (spec 2: notes_attributes text, created_by). */
export const carrierAccountNotes = pgTable(
  "carrier_account_notes",
  {
    id: serial("id").primaryKey(),
    carrierAccountId: integer("carrier_account_id")
      .notNull()
      .references(() => carrierAccounts.id, { onDelete: "cascade" }),
    text: text("text").notNull(),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdByName: text("created_by_name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // the notes of one account, newest first, on the account screen
    index("carrier_account_notes_account_idx").on(t.carrierAccountId, t.createdAt),
  ],
);

/**
 * A carrier's rule for its accounts' fields (spec 2 "Carrier account validation"): checked when a
 * carrier account is saved, with `message` shown on the field.
 */
export const carrierAccountValidations = pgTable(
  "carrier_account_validations",
  {
    id: serial("id").primaryKey(),
    carrierId: integer("carrier_id")
      .notNull()
      .references(() => carriers.id, { onDelete: "cascade" }),
    field: text("field", {
      enum: [
        "account_number",
        "consignment_number_prefix",
        "consignment_number_digits",
        "consignment_number_range_start",
        "consignment_number_range_end",
        "carrier_customer_reference",
        "sscc_digits",
        "sscc_range_start",
        "sscc_range_end",
      ],
    }).notNull(),
    rule: text("rule", { enum: ["end_with", "start_with", "be", "length"] }).notNull(),
    modifier: text("modifier", { enum: ["in", "equal"] }).notNull(),
    /** case sensitive; comma separated values for a one-of ("in") rule */
    validation: text("validation").notNull(),
    message: text("message").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // the validations of one carrier, read on every carrier account save
    index("carrier_account_validations_carrier_idx").on(t.carrierId),
  ],
);

/**
 * A customer's own e-mail wording (issue 16 item 8): the return e-mail's header, body and footer,
 * and the frame (header and footer) around notification e-mails. One row per customer and kind.
 */
export const customEmails = pgTable(
  "custom_emails",
  {
    id: serial("id").primaryKey(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["return", "notification"] }).notNull(),
    subject: text("subject"),
    /** sanitised HTML */
    header: text("header"),
    body: text("body"),
    footer: text("footer"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // one wording per customer and kind; also the lookup when an e-mail is sent
    uniqueIndex("custom_emails_customer_kind_key").on(t.customerId, t.kind),
  ],
);

/**
 * Declarations (issue 16 item 8): documents such as safety data sheets (PDF) kept per customer and,
 * optionally, item type; printed after the dangerous goods document when print_declarations is on.
 */
export const declarations = pgTable(
  "declarations",
  {
    id: serial("id").primaryKey(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    itemTypeId: integer("item_type_id").references(() => itemTypes.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    filename: text("filename").notNull(),
    contentType: text("content_type").notNull().default("application/pdf"),
    size: integer("size").notNull(),
    content: bytea("content").notNull(),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // the declarations list of a customer, and those of its item types when printing
    index("declarations_customer_idx").on(t.customerId, t.itemTypeId),
  ],
);
