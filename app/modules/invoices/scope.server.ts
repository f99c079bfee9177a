/**
 * The finance access module's server half (access.ts holds the rules; docs/decisions/022): a
 * FinanceScope applied to invoices and lines in SQL. One carrier invoice holds many customers'
 * lines, so what a customer's finance user reads of it (total, state, line numbers, the customers
 * it names) is worked out here from their own lines, never from the whole invoice.
 */
import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { customers, invoiceDetails, invoices, sites } from "../../../db/schema";
import type { FinanceScope } from "./access";

/**
 * The outer invoice's id, spelled out: drizzle writes a column of a one-table select unqualified,
 * and inside a subquery over invoice_details an unqualified "id" would be the line's own.
 */
export const INVOICE_ID = sql.raw(`"invoices"."id"`);

/** The lines of an invoice this scope may see, as a condition on invoice_details d. */
export function lineScopeSql(scope: FinanceScope): SQL {
  return scope.kind === "all" ? sql`true` : sql`d.customer_id = ${scope.customerId}`;
}

/** Invoices this scope may see: all, or those holding one of the customer's lines. */
export function invoiceScopeSql(scope: FinanceScope): SQL | undefined {
  return scope.kind === "all" ? undefined : sql`exists (select 1 from invoice_details d where d.invoice_id = ${INVOICE_ID} and d.customer_id = ${scope.customerId})`;
}

const ownLines = (scope: FinanceScope, where: SQL) => sql`exists (select 1 from invoice_details d where d.invoice_id = ${INVOICE_ID} and ${lineScopeSql(scope)} and ${where})`;

/**
 * A payable invoice's state over the scope's lines, by the rule refreshInvoiceState stores for the
 * whole invoice: exported when all are, allocated when every one is allocated (or exported),
 * otherwise unallocated. Staff read the stored state; a receivable invoice is one customer's.
 */
export function invoiceStateSql(scope: FinanceScope): SQL<string> {
  if (scope.kind === "all") return sql<string>`${invoices.state}`;
  return sql<string>`(case
    when ${invoices.accountingType} <> 'payable' or not ${ownLines(scope, sql`true`)} then ${invoices.state}
    when not ${ownLines(scope, sql`d.state <> 'exported'`)} then 'exported'
    when not ${ownLines(scope, sql`d.state not in ('allocated', 'exported')`)} then 'allocated'
    else 'unallocated' end)`;
}

/**
 * A payable invoice's total as the reader may see it: the file's stated total for staff, the sum of
 * their own lines for a customer's user (the stated total covers other customers' lines). A
 * receivable invoice bills one customer, so its total is theirs.
 */
export function invoiceTotalSql(scope: FinanceScope): SQL<string> {
  if (scope.kind === "all") return sql<string>`${invoices.total}`;
  return sql<string>`(case when ${invoices.accountingType} = 'payable'
    then (select coalesce(sum(d.total_cost), 0) from invoice_details d where d.invoice_id = ${INVOICE_ID} and ${lineScopeSql(scope)})
    else ${invoices.total} end)`;
}

/**
 * The name of the file behind an invoice, shown with its download link: a carrier's file holds
 * every customer's lines and is for staff only (canReadCarrierFile); a receivable invoice's file is
 * its PDF, the one customer's own.
 */
export function invoiceFileNameSql(scope: FinanceScope): SQL<string | null> {
  if (scope.kind === "all") return sql<string | null>`${invoices.originalFileName}`;
  return sql<string | null>`(case when ${invoices.accountingType} = 'payable' then null else ${invoices.originalFileName} end)`;
}

/**
 * Line numbers within the reader's scope: a customer's user numbers their own lines of an invoice
 * 1, 2, 3 in file order, with no gaps where other customers' lines sit. Staff keep the file's
 * numbers (null answered: nothing to renumber). One window over the invoices of the given lines.
 */
export async function scopedLineNumbers(db: DbOrTx, scope: FinanceScope, lines: Array<{ id: number; invoiceId: number }>): Promise<Map<number, number> | null> {
  if (scope.kind === "all" || lines.length === 0) return null;
  const invoiceIds = [...new Set(lines.map((l) => l.invoiceId))];
  const rows = await db
    .select({ id: invoiceDetails.id, n: sql<number>`row_number() over (partition by ${invoiceDetails.invoiceId} order by ${invoiceDetails.lineNumber}, ${invoiceDetails.id})::int` })
    .from(invoiceDetails)
    .where(and(inArray(invoiceDetails.invoiceId, invoiceIds), eq(invoiceDetails.customerId, scope.customerId)));
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

/** The customers a reader may see named (the line modal's list): every one for staff, their own for a customer's user. */
export async function visibleCustomers(db: DbOrTx, scope: FinanceScope): Promise<Array<{ id: number; name: string }>> {
  return db
    .select({ id: customers.id, name: customers.name })
    .from(customers)
    .where(scope.kind === "all" ? undefined : eq(customers.id, scope.customerId))
    .orderBy(asc(sql`lower(${customers.name})`))
    .limit(1000);
}

/**
 * May a reader be told this record's name (the allocation-rule test's answer)? Staff any; a
 * customer's user their own customer and its sites. Carrier services belong to no customer.
 */
export async function mayNameRecord(db: DbOrTx, scope: FinanceScope, model: "Customer" | "Site" | "CarrierService", id: number): Promise<boolean> {
  if (scope.kind === "all" || model === "CarrierService") return true;
  if (model === "Customer") return id === scope.customerId;
  const [site] = await db.select({ customerId: sites.customerId }).from(sites).where(eq(sites.id, id));
  return site?.customerId === scope.customerId;
}
