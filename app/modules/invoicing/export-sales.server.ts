/**
 * Customer (receivable) invoices to the accounting link as sales invoices (issue 19 item 6;
 * decision 020 "Sales invoices to the accounting link"): one sale per invoice, to the card whose
 * Card ID is the customer's code (made on first use), a line per cost category with the invoice's
 * GST shared among them to the cent. Each invoice is its own call: one refused (no number, no
 * costs, the service's refusal) is reported and the rest are sent.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { customers, invoices } from "../../../db/schema";
import type { PostalAddress } from "../../../db/schema/tenancy";
import type { SalesInvoice } from "../accounting/adapter";
import { exportSalesInvoice, requireConnection } from "../accounting/connection.server";
import { costSumsByCategory } from "../invoices/cost-sums.server";
import { costCategoryLabel } from "../invoices/schemas";
import { AppError, notFound } from "../../utils/errors";
import { shareOut } from "./gst";
import { toCents } from "./money";

export const SALES_EXPORT_MESSAGES = {
  exported: (n: number) => `${n} invoice${n === 1 ? "" : "s"} exported as sales invoices.`,
  mixed: "Payable and receivable invoices cannot be exported together: export each kind on its own.",
  noNumber: (number: string | null) => `${number ?? "Pending"}: an invoice needs a number and a date to be a sales invoice.`,
  noCustomer: (number: string) => `${number}: the invoice has no customer.`,
  noCosts: (number: string) => `${number}: the invoice has no costs to send.`,
};

export interface SalesExportOutcome {
  kind: "accounting";
  exported: number[];
  sales: Array<{ invoice_id: number; uid: string; total: number; tax: number }>;
  skipped: Array<{ invoice_id: number; message: string }>;
  message: string;
}

/**
 * Marks receivable invoices exported: exported_at, and export_info merged (a CSV after the sale
 * keeps the sale's uid). Their state stays invoiced, unlike a payable's: the receivable flow ends
 * at invoiced (spec 3 section 4), and the receivable list's counters and tab count by that state.
 */
export async function markReceivableExported(tx: DbOrTx, ids: number[], info: Record<string, unknown>) {
  if (!ids.length) return;
  await tx
    .update(invoices)
    .set({ exportedAt: new Date(), exportInfo: sql`coalesce(${invoices.exportInfo}, '{}'::jsonb) || ${JSON.stringify(info)}::jsonb` })
    .where(and(inArray(invoices.id, ids), eq(invoices.accountingType, "receivable")));
}

interface SaleSource {
  number: string | null;
  date: string | null;
  customerCode: string | null;
  customerName: string | null;
  billingAddress: PostalAddress | null;
}

/** The sale for one invoice from its costs summed per category, or why there is none. */
export function saleOf(inv: SaleSource, sums: Array<{ category: string; amount: string }>): SalesInvoice | string {
  if (!inv.number || !inv.date) return SALES_EXPORT_MESSAGES.noNumber(inv.number);
  if (!inv.customerCode) return SALES_EXPORT_MESSAGES.noCustomer(inv.number);
  const costs = sums.filter((s) => s.category !== "gst");
  if (!costs.length) return SALES_EXPORT_MESSAGES.noCosts(inv.number);
  const cents = costs.map((s) => toCents(s.amount));
  const gst = sums.filter((s) => s.category === "gst").reduce((a, s) => a + toCents(s.amount), 0);
  // the invoice's GST as its lines showed it, shared over the categories so the taxes add up to it to the cent
  const taxes = shareOut(gst, cents);
  return {
    customer: { displayId: inv.customerCode, name: inv.customerName ?? inv.customerCode, billingAddress: inv.billingAddress },
    number: inv.number,
    date: inv.date,
    lines: costs.map((s, i) => ({ description: costCategoryLabel(s.category), amount: cents[i]! / 100, tax: taxes[i]! / 100 })),
  };
}

/** Format accounting on receivable ids (exportInvoices has checked the user and that every id is receivable). */
export async function exportSales(db: DbOrTx, ids: number[]): Promise<SalesExportOutcome> {
  const list = await db
    .select({ id: invoices.id, number: invoices.invoiceNumber, date: invoices.invoiceDate, customerCode: customers.code, customerName: customers.name, billingAddress: invoices.billingAddress })
    .from(invoices)
    .leftJoin(customers, eq(customers.id, invoices.customerId))
    .where(and(inArray(invoices.id, ids), eq(invoices.accountingType, "receivable")))
    .orderBy(asc(invoices.id));
  if (list.length !== new Set(ids).size) throw notFound("Invoice");
  // not connected is the whole call's answer (409), not a refusal repeated per invoice
  await requireConnection(db);
  const sales: SalesExportOutcome["sales"] = [];
  const skipped: SalesExportOutcome["skipped"] = [];
  for (const inv of list) {
    const sale = saleOf({ ...inv, billingAddress: inv.billingAddress as PostalAddress | null }, await costSumsByCategory(db, inv.id));
    if (typeof sale === "string") {
      skipped.push({ invoice_id: inv.id, message: sale });
      continue;
    }
    try {
      // each sale is its own call: the service refuses a number twice, so a retry never doubles one
      const done = await exportSalesInvoice(db, sale);
      await markReceivableExported(db, [inv.id], { accounting: { uid: done.uid, total: done.total, customer_uid: done.customerUid } });
      sales.push({ invoice_id: inv.id, uid: done.uid, total: done.total, tax: done.tax });
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      skipped.push({ invoice_id: inv.id, message: `${inv.number}: ${e.message}` });
    }
  }
  const message = [SALES_EXPORT_MESSAGES.exported(sales.length), ...skipped.map((s) => s.message)].join(" ");
  return { kind: "accounting", exported: sales.map((s) => s.invoice_id), sales, skipped, message };
}
