/**
 * Printers (spec 1 "Printer configuration dialog", spec 3 printers calls): a customer's printers,
 * and each user's choice of label, manifest and connote printer. A print action asks which
 * printer of a kind the user has and gets the document's address in that printer's form.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import { printers, users, type PrinterType } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { AppError, type FieldErrors } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { printMessages, type PrinterKind } from "./messages";
import { idSchema } from "../../utils/ids";

export const KIND_OF: Record<PrinterType, PrinterKind> = { Label: "label", Manifest: "manifest", Connote: "connote" };
const TYPE_OF: Record<PrinterKind, PrinterType> = { label: "Label", manifest: "Manifest", connote: "Connote" };

export interface PrinterJson {
  id: number;
  name: string;
  printer_type: PrinterType;
  format: "pdf" | "zpl";
}

const toJson = (p: typeof printers.$inferSelect): PrinterJson => ({ id: p.id, name: p.name, printer_type: p.printerType, format: p.format });

async function customerPrinters(db: DbOrTx, user: CurrentUser) {
  return db
    .select()
    .from(printers)
    .where(and(eq(printers.customerId, user.customer.id), eq(printers.active, true)))
    .orderBy(asc(printers.printerType), asc(printers.name));
}

/** The user's configuration, keeping only choices that are still valid printers of their kind. */
function configurationOf(user: CurrentUser, list: Array<typeof printers.$inferSelect>) {
  const chosen = user.options.printers ?? {};
  const valid = (kind: PrinterKind) => {
    const id = chosen[kind];
    return list.some((p) => p.id === id && p.printerType === TYPE_OF[kind]) ? id! : null;
  };
  return { label: valid("label"), manifest: valid("manifest"), connote: valid("connote") };
}

/** GET /api/printers: the customer's printers and the user's configuration. */
export async function listPrinters(db: DbOrTx, user: CurrentUser) {
  const list = await customerPrinters(db, user);
  return { printers: list.map(toJson), configuration: configurationOf(user, list) };
}

async function storeChoices(db: DbOrTx, user: CurrentUser, choices: { label?: number; manifest?: number; connote?: number }) {
  const next = { ...(user.options.printers ?? {}), ...choices };
  await db
    .update(users)
    .set({ options: sql`${users.options} || ${JSON.stringify({ printers: next })}::jsonb` })
    .where(eq(users.id, user.id));
  user.options = { ...user.options, printers: next };
}

const configurationSchema = z.object({
  label_printer_id: idSchema("Choose a label printer"),
  manifest_printer_id: idSchema("Choose a manifest printer"),
  connote_printer_id: idSchema("Choose a connote printer"),
});

/**
 * POST /api/printers { label_printer_id, manifest_printer_id, connote_printer_id }: the dialog's
 * Save. All three must be printers of their kind in the customer's list; nothing is stored otherwise.
 */
export async function saveConfiguration(db: DbOrTx, user: CurrentUser, raw: unknown) {
  const input = parseOrThrow(configurationSchema, raw);
  const list = await customerPrinters(db, user);
  const errors: FieldErrors = {};
  for (const kind of ["label", "manifest", "connote"] as const) {
    const id = input[`${kind}_printer_id`];
    if (!list.some((p) => p.id === id && p.printerType === TYPE_OF[kind])) errors[`${kind}_printer_id`] = [printMessages.saveFailed(kind)];
  }
  if (Object.keys(errors).length) throw new AppError("invalid", Object.values(errors)[0]![0]!, errors);
  await storeChoices(db, user, { label: input.label_printer_id, manifest: input.manifest_printer_id, connote: input.connote_printer_id });
  return listPrinters(db, user);
}

/** PUT /api/printers/{id}: this printer becomes the user's printer of its kind. */
export async function choosePrinter(db: DbOrTx, user: CurrentUser, id: number) {
  const list = await customerPrinters(db, user);
  const printer = list.find((p) => p.id === id);
  if (!printer) throw new AppError("not_found", "Printer not found");
  await storeChoices(db, user, { [KIND_OF[printer.printerType]]: id });
  return listPrinters(db, user);
}

const printableSchema = z.object({
  type: z.enum(["Label", "Manifest", "Connote"], { error: "type must be Label, Manifest or Connote" }),
  printable_type: z.enum(["consignment", "manifest"], { error: "printable_type must be consignment or manifest" }),
  printable_id: z
    .string({ error: "printable_id is required" })
    .regex(/^\d+(,\d+)*$/, "printable_id must be one id or ids separated by commas"),
});

/**
 * GET /api/printers/type/{type}?printable_type&printable_id: the user's printer of that kind and
 * the document to send it, in the printer's form; the spec's message when none is configured.
 */
export async function printerFor(db: DbOrTx, user: CurrentUser, raw: unknown) {
  const q = parseOrThrow(printableSchema, raw);
  const list = await customerPrinters(db, user);
  const kind = KIND_OF[q.type];
  const id = configurationOf(user, list)[kind];
  const printer = list.find((p) => p.id === id);
  if (!printer) throw new AppError("invalid", printMessages.noPrinter(kind), { printer: [printMessages.noPrinter(kind)] });
  const ids = q.printable_id;
  const url =
    q.type === "Label"
      ? `/print/${ids.split(",")[0]}/labels${printer.format === "zpl" ? "?format=zpl" : ""}`
      : q.type === "Connote"
        ? `/print/consignment_notes?ids=${ids}`
        : `/print/despatch_manifest_report?ids=${ids}`;
  return { printer: toJson(printer), url };
}
