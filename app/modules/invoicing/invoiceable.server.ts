/**
 * Which payable lines may be invoiced to the customer (issue 19 point 5, decision 020-invoicing):
 * a payable line is invoiceable when its reconciliation is reconciled, it carries a customer and
 * no receivable line bills it yet (source_detail_id). Derived, never stored on the payable line, so
 * the payable side keeps its own states (allocated, exported). GET /api/invoice_details'
 * state=invoiceable and the invoicing job ask this same condition.
 */
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { invoiceDetails } from "../../../db/schema";
import type { FinanceScope } from "../invoices/access";

/** The condition on invoice_details (the payable line) that makes it invoiceable. */
export const invoiceableSql: SQL = sql`(${invoiceDetails.customerId} is not null
  and exists (select 1 from invoices pi where pi.id = ${invoiceDetails.invoiceId} and pi.accounting_type = 'payable')
  and exists (select 1 from reconciliations ir where ir.invoice_detail_id = ${invoiceDetails.id} and ir.state = 'reconciled')
  and not exists (select 1 from invoice_details billed where billed.source_detail_id = ${invoiceDetails.id}))`;

export const scopeSql = (scope: FinanceScope): SQL | undefined => (scope.kind === "all" ? undefined : eq(invoiceDetails.customerId, scope.customerId));

/** Of `ids`, those invoiceable within `scope` (ascending). */
export async function invoiceableIds(db: DbOrTx, scope: FinanceScope, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await db
    .select({ id: invoiceDetails.id })
    .from(invoiceDetails)
    .where(and(inArray(invoiceDetails.id, ids), scopeSql(scope), invoiceableSql))
    .orderBy(invoiceDetails.id);
  return rows.map((r) => r.id);
}
