/**
 * Admin changes to whole invoices (issue 18 item 3; spec 3 section 6: admin or super admin):
 * edit number, date and total, and delete. Customers' finance users read only.
 */
import { removeInvoiceFile } from "./files.server";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { invoices } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { authorize } from "../auth/guard.server";
import { AppError, notFound } from "../../utils/errors";
import { sqlState } from "../../utils/http.server";
import { parseOrThrow } from "../../utils/validation";
import { canAdministerInvoices } from "./access";
import { getInvoice, type InvoiceJson } from "./list.server";
import { idsSchema, INVOICE_MESSAGES, invoiceUpdateSchema } from "./schemas";

/** PUT /api/invoices/{id}: invoice_number, invoice_date (dd/mm/yyyy) and total. */
export async function updateInvoice(db: DbOrTx, user: CurrentUser, id: number, raw: unknown): Promise<InvoiceJson> {
  authorize(user, canAdministerInvoices);
  const input = parseOrThrow(invoiceUpdateSchema, raw);
  const [found] = await db.select({ id: invoices.id }).from(invoices).where(eq(invoices.id, id));
  if (!found) throw notFound("Invoice");
  const set: Partial<typeof invoices.$inferInsert> = {};
  if (input.invoice_number !== undefined) set.invoiceNumber = input.invoice_number;
  if (input.invoice_date !== undefined) set.invoiceDate = input.invoice_date;
  if (input.total !== undefined) set.total = input.total.toFixed(2);
  if (Object.keys(set).length) {
    try {
      await db.update(invoices).set(set).where(eq(invoices.id, id));
    } catch (e) {
      if (sqlState(e) === "23505") {
        throw new AppError("invalid", "This carrier already has an invoice with that number.", { invoice_number: ["This carrier already has an invoice with that number."] });
      }
      throw e;
    }
  }
  return getInvoice(db, user, id);
}

/**
 * Deletes invoices with their lines and costs (cascade) and then their kept files. Exported ones
 * are refused, the whole request with them, so nothing half happens.
 */
export async function deleteInvoices(db: DbOrTx, user: CurrentUser, raw: unknown): Promise<{ deleted: number; message: string }> {
  authorize(user, canAdministerInvoices);
  const { ids } = parseOrThrow(idsSchema, raw);
  await db.transaction(async (tx) => {
    // rows locked so an export running now cannot mark an invoice exported after this check
    // and then lose it to the delete
    const rows = await tx
      .select({ id: invoices.id, state: invoices.state, number: invoices.invoiceNumber, file: invoices.originalFilePath })
      .from(invoices)
      .where(and(inArray(invoices.id, ids), eq(invoices.accountingType, "payable")))
      .for("update");
    if (rows.length !== new Set(ids).size) throw notFound("Invoice");
    const exported = rows.filter((r) => r.state === "exported");
    if (exported.length) {
      const msg = INVOICE_MESSAGES.exportedCannotDelete(exported.map((r) => r.number ?? "Pending").join(", "));
      throw new AppError("conflict", msg, { ids: [msg] });
    }
    await tx.delete(invoices).where(inArray(invoices.id, ids));
    // a kept file goes with its last invoice, in the same transaction: no invoice is left
    // pointing at a file deleted, and no file outlives the invoices it made
    for (const f of new Set(rows.map((r) => r.file).filter((f): f is string => Boolean(f)))) await removeInvoiceFile(tx, f);
  });
  return { deleted: ids.length, message: INVOICE_MESSAGES.deleted(ids.length) };
}

/**
 * A payable invoice's state follows its lines: exported when all are, allocated when every line
 * is allocated (or exported), otherwise unallocated.
 */
export async function refreshInvoiceState(tx: DbOrTx, invoiceId: number): Promise<void> {
  await tx.execute(sql`
    update invoices i set state = case
      when not exists (select 1 from invoice_details d where d.invoice_id = i.id) then i.state
      when not exists (select 1 from invoice_details d where d.invoice_id = i.id and d.state <> 'exported') then 'exported'
      when not exists (select 1 from invoice_details d where d.invoice_id = i.id and d.state not in ('allocated', 'exported')) then 'allocated'
      else 'unallocated' end
    where i.id = ${invoiceId} and i.accounting_type = 'payable'`);
}
