/**
 * A customer invoice's PDF and e-mail (issue 19 point 6, decision 020-invoicing): rendered with the
 * printing module's Chromium after the invoice commits, kept in the file store (docs/decisions/030;
 * the file's id in pdf_path, written in one transaction with it), e-mailed as an attachment to the customer's
 * invoicing_email through the house mailer, and offered as the invoice's "PDF"
 * (GET /api/invoices/{id}/original_file).
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { customers, invoiceCosts, invoiceDetails, invoices } from "../../../db/schema";
import { A4 } from "../../../print-templates/documents/Documents";
import { renderCustomerInvoiceHtml, type CustomerInvoiceDocument } from "../../../print-templates/documents/CustomerInvoice";
import type { CurrentUser } from "../auth/current-user.server";
import { financeScope } from "../invoices/access";
import { deleteFile, fileResponse, putFile, requireFile } from "../files/index.server";
import type { Mailer } from "../mail/mailer.server";
import type { Renderer } from "../printing/renderer.server";
import { notFound } from "../../utils/errors";
import { centsToAmount, toCents } from "./money";
import { invoiceEmissions } from "../emissions/emissions.server";

export const NO_INVOICING_EMAIL = "not e-mailed: the customer has no invoicing e-mail.";

/** The document of one receivable invoice, as the PDF shows it. */
export async function invoiceDocument(db: DbOrTx, id: number): Promise<{ doc: CustomerInvoiceDocument; email: string | null } | null> {
  const [inv] = await db
    .select({ i: invoices, customerName: customers.name, customerCode: customers.code, options: customers.options })
    .from(invoices)
    .innerJoin(customers, eq(customers.id, invoices.customerId))
    .where(and(eq(invoices.id, id), eq(invoices.accountingType, "receivable")));
  if (!inv) return null;
  const lines = await db.select().from(invoiceDetails).where(eq(invoiceDetails.invoiceId, id)).orderBy(asc(invoiceDetails.lineNumber));
  const costs = lines.length ? await db.select().from(invoiceCosts).where(inArray(invoiceCosts.invoiceDetailId, lines.map((l) => l.id))).orderBy(asc(invoiceCosts.id)) : [];
  const hasTax = costs.some((c) => c.category === "gst") || toCents(inv.i.gst) !== 0;
  const doc: CustomerInvoiceDocument = {
    number: inv.i.invoiceNumber ?? "Pending",
    date: inv.i.invoiceDate,
    customerName: inv.customerName,
    customerCode: inv.customerCode,
    billingAddress: inv.i.billingAddress as CustomerInvoiceDocument["billingAddress"],
    subtotal: inv.i.subtotal ?? "0.00",
    gst: inv.i.gst ?? "0.00",
    total: inv.i.total,
    taxName: hasTax ? "GST" : null,
    emissions: await invoiceEmissions(db, id),
    lines: lines.map((l) => {
      const charges = costs.filter((c) => c.invoiceDetailId === l.id && c.category !== "gst").map((c) => ({ category: c.category, description: c.description, amount: c.amount }));
      return {
        consignmentNumber: l.consignmentNumber,
        despatchDate: l.despatchDate,
        receiver: [l.receiverName, l.receiverLocality, l.receiverPostcode].filter(Boolean).join(", "),
        reference: l.reference,
        charges,
        // before GST, so the lines add up to the subtotal
        total: centsToAmount(charges.reduce((a, c) => a + toCents(c.amount), 0)),
      };
    }),
  };
  return { doc, email: inv.options?.invoicing_email?.trim() || null };
}

/**
 * Renders, stores and e-mails one committed invoice; sets pdf_path and emailed_at. Never throws:
 * the invoice is made whatever happens here, and what went wrong is answered for the job's message.
 */
export async function deliverInvoice(services: { db: DbOrTx; mailer: Mailer; renderer: Renderer }, id: number): Promise<{ pdf: boolean; emailed: boolean; problem: string | null }> {
  const { db, mailer, renderer } = services;
  const found = await invoiceDocument(db, id);
  if (!found) return { pdf: false, emailed: false, problem: "invoice not found" };
  let pdf: Buffer;
  try {
    pdf = await renderer.renderPdf(renderCustomerInvoiceHtml(found.doc), A4);
    const name = `invoice-${found.doc.number}.pdf`;
    const rendered = pdf;
    // the PDF and the invoice's reference to it commit together: no invoice points at a PDF that
    // was never stored, and no stored PDF is left that no invoice points at (a PDF made again
    // replaces the one before in the same step)
    await db.transaction(async (tx) => {
      const [row] = await tx.select({ customerId: invoices.customerId, before: invoices.pdfPath }).from(invoices).where(eq(invoices.id, id)).for("update");
      const file = await putFile(tx, { kind: "customer_invoice_pdf", name, contentType: "application/pdf", customerId: row?.customerId ?? null }, rendered);
      // the original file's name too: the invoice page offers its file as "PDF" for receivable invoices
      await tx.update(invoices).set({ pdfPath: file.id, originalFileName: name, originalFileType: "PDF" }).where(eq(invoices.id, id));
      if (row?.before) await deleteFile(tx, row.before);
    });
  } catch (e) {
    return { pdf: false, emailed: false, problem: `no PDF: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (!found.email) return { pdf: true, emailed: false, problem: NO_INVOICING_EMAIL };
  try {
    await mailer.send({
      to: found.email,
      subject: `Invoice ${found.doc.number}`,
      text: `Dear ${found.doc.customerName},\n\nPlease find attached invoice ${found.doc.number} dated ${found.doc.date ?? ""} for ${found.doc.total}.\n`,
      attachments: [{ filename: `invoice-${found.doc.number}.pdf`, contentType: "application/pdf", content: pdf }],
    });
    await db.update(invoices).set({ emailedAt: new Date() }).where(eq(invoices.id, id));
    return { pdf: true, emailed: true, problem: null };
  } catch (e) {
    return { pdf: true, emailed: false, problem: `not e-mailed: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/**
 * GET /api/invoices/{id}/original_file for a receivable invoice: its PDF, for those who may see it
 * (staff; a customer's user only their own customer's). Null when `id` is no receivable invoice
 * at all, so the route falls back to the payable file.
 */
export async function receivablePdf(db: DbOrTx, user: CurrentUser, id: number): Promise<Response | null> {
  const [row] = await db.select({ type: invoices.accountingType, customerId: invoices.customerId, number: invoices.invoiceNumber, path: invoices.pdfPath }).from(invoices).where(eq(invoices.id, id));
  if (!row || row.type !== "receivable") return null;
  const scope = financeScope(user);
  if (scope.kind === "customer" && row.customerId !== scope.customerId) throw notFound("Invoice file");
  if (!row.path) throw notFound("Invoice file");
  const file = await requireFile(db, row.path, `invoice ${id}'s PDF`);
  return fileResponse(db, file, `invoice-${row.number ?? id}.pdf`);
}
