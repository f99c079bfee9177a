import { boolean, index, integer, pgTable, serial, text } from "drizzle-orm/pg-core";
import { customers } from "./tenancy";

export const PRINTER_TYPES = ["Label", "Manifest", "Connote"] as const;
export type PrinterType = (typeof PRINTER_TYPES)[number];

/**
 * The printers a customer's users may choose from (spec 1 "Printer"). Printing happens in the
 * browser, so a printer is where a document goes and in which form: a PDF to print, or ZPL for
 * a thermal label printer. Each user's choice of label, manifest and connote printer is kept in
 * their options.
 */
export const printers = pgTable(
  "printers",
  {
    id: serial("id").primaryKey(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    name: text("name").notNull(),
    printerType: text("printer_type", { enum: PRINTER_TYPES }).notNull(),
    format: text("format", { enum: ["pdf", "zpl"] }).notNull().default("pdf"),
    active: boolean("active").notNull().default(true),
  },
  (t) => [
    // the printers dialog lists a customer's printers by type
    index("printers_customer_type_idx").on(t.customerId, t.printerType),
  ],
);
