/**
 * The FINANCE view's header search (issue 18 item 8; spec 3 section 9): invoices whose number, or
 * one of whose lines' reference or consignment number, contains the query; at most 10, scoped.
 */
import { and, desc, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { invoices } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { parseOrThrow } from "../../utils/validation";
import { financeScope } from "./access";
import { INVOICE_ID, invoiceScopeSql, invoiceStateSql, lineScopeSql } from "./scope.server";
import { searchQuerySchema } from "./schemas";

export const SEARCH_LIMIT = 10;

export interface InvoiceSearchResult {
  id: number;
  invoice_number: string;
  accounting_type: string;
  references: string[];
  consignment_numbers: string[];
  state: string;
  invoice_date: string | null;
  url: string;
}

export async function searchInvoices(db: DbOrTx, user: CurrentUser, raw: Record<string, unknown>): Promise<InvoiceSearchResult[]> {
  const { query } = parseOrThrow(searchQuerySchema, raw);
  const scope = financeScope(user);
  const like = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const lineMatch = sql`exists (select 1 from invoice_details d where d.invoice_id = ${INVOICE_ID} and ${lineScopeSql(scope)} and (d.reference ilike ${like} or d.consignment_number ilike ${like}))`;
  // the matching lines' values first, then others, three of each: enough to tell invoices apart
  const pick = (column: string) =>
    sql<string[]>`array(select v from (select distinct d.${sql.raw(column)} as v, d.${sql.raw(column)} ilike ${like} as hit from invoice_details d where d.invoice_id = ${INVOICE_ID} and ${lineScopeSql(scope)} and d.${sql.raw(column)} is not null) x order by hit desc, v limit 3)`;
  const rows = await db
    .select({
      id: invoices.id,
      number: invoices.invoiceNumber,
      type: invoices.accountingType,
      // a shared carrier invoice's state over the reader's own lines
      state: invoiceStateSql(scope),
      date: invoices.invoiceDate,
      references: pick("reference"),
      consignments: pick("consignment_number"),
    })
    .from(invoices)
    .where(and(invoiceScopeSql(scope), sql`(${invoices.invoiceNumber} ilike ${like} or ${lineMatch})`))
    .orderBy(desc(invoices.invoiceDate), desc(invoices.id))
    .limit(SEARCH_LIMIT);
  return rows.map((r) => ({
    id: r.id,
    invoice_number: r.number ?? "Pending",
    accounting_type: r.type,
    references: r.references ?? [],
    consignment_numbers: r.consignments ?? [],
    state: r.state,
    invoice_date: r.date,
    url: `/invoice/${r.id}`,
  }));
}
